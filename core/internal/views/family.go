package views

import (
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// The family of a session: the sessions linked to it by source records
// (source.go), up to the root ancestor and down to every descendant, as a
// graph. Read-only; it needs no session's nodes but to find the node an
// import's link does not name, so paged-out sessions (stubs) are answered
// from their summaries and never faulted in. Walks are loops over maps
// with a visited set, so a cycle in bad data (A from B, B from A) ends.

// MaxFamilyMembers bounds the sessions one family answer lists; a larger
// family is cut (Family.Truncated) at this many, nearest the root first.
const MaxFamilyMembers = 1000

// Family is the value of family.
type Family struct {
	// SessionID is the session asked about; Root is its root ancestor
	// (the session itself when it has no source; a missing session when
	// the topmost link names one not in the store).
	SessionID string `json:"sessionId"`
	Root      string `json:"root"`
	// Members are the sessions of the family, the root first, then
	// breadth first (children in store order).
	Members []FamilyMember `json:"members"`
	// Edges link each member but the root to its source.
	Edges []FamilyEdge `json:"edges"`
	// Truncated says the family has more than MaxFamilyMembers sessions
	// and only the first were listed.
	Truncated bool `json:"truncated"`
}

// FamilyMember is one session of a family. A source named by a link but
// not in the store (not imported yet, or deleted) is a member with
// Missing set, "" as title and 0 nodes.
type FamilyMember struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
	NodeCount int    `json:"nodeCount"`
	Missing   bool   `json:"missing"`
}

// FamilyEdge says session SessionID was made from ParentSessionID at node
// NodeID (a node of the parent; null when unknown), by Kind: "fork",
// "clone" or "import".
type FamilyEdge struct {
	SessionID       string  `json:"sessionId"`
	ParentSessionID string  `json:"parentSessionId"`
	NodeID          *string `json:"nodeId"`
	Kind            string  `json:"kind"`
}

// Family answers family for session id, in the store: the walk from its
// root ancestor down, breadth first, cut at MaxFamilyMembers.
func (v *Caches) Family(st *store.Store, id string) *Family {
	children := familyChildren(st)
	root := familyRoot(st, id)
	f := &Family{SessionID: id, Root: root, Edges: []FamilyEdge{}} // [] for none, as the type says, never null
	seen := map[string]bool{root: true}
	for queue := []string{root}; len(queue) > 0; queue = queue[1:] {
		cur := queue[0]
		f.Members = append(f.Members, familyMember(st, cur))
		if cur != root {
			f.Edges = append(f.Edges, v.familyEdge(st, cur))
		}
		for _, c := range children[cur] {
			if seen[c] {
				continue
			}
			if len(seen) == MaxFamilyMembers {
				f.Truncated = true
				break
			}
			seen[c] = true
			queue = append(queue, c)
		}
	}
	return f
}

// familyChildren maps each source session id to the sessions made from it
// (store order); sources not in the store are keys too.
func familyChildren(st *store.Store) map[string][]string {
	children := map[string][]string{}
	st.SortOrder()
	for _, id := range st.Order {
		if s := st.ByID[id]; s != nil && s.Source != nil && s.Source.SessionID != id {
			children[s.Source.SessionID] = append(children[s.Source.SessionID], id)
		}
	}
	return children
}

// familyRoot follows source links up from id while they lead to a session
// not seen yet and returns the topmost: a session without a source, a
// missing one, or where a cycle closes.
func familyRoot(st *store.Store, id string) string {
	seen := map[string]bool{id: true}
	for {
		s := st.ByID[id]
		if s == nil || s.Source == nil || seen[s.Source.SessionID] {
			return id
		}
		id = s.Source.SessionID
		seen[id] = true
	}
}

// familyMember describes session id (Missing when it is not in the store).
func familyMember(st *store.Store, id string) FamilyMember {
	s := st.ByID[id]
	if s == nil {
		return FamilyMember{SessionID: id, Missing: true}
	}
	n := len(s.Nodes)
	if s.Paged != nil {
		n = s.Paged.NodeCount
	}
	return FamilyMember{SessionID: id, Title: s.Title, NodeCount: n}
}

// familyEdge is the link of session id (in the store, with a source) to
// its source. An import's link without a node gets the node the two
// sessions last share, when both are in memory (see forkPoint).
func (v *Caches) familyEdge(st *store.Store, id string) FamilyEdge {
	s := st.ByID[id]
	e := FamilyEdge{SessionID: id, ParentSessionID: s.Source.SessionID, Kind: s.Source.Via}
	node := s.Source.NodeID
	if node == "" {
		node = v.forkPoint(st.ByID[s.Source.SessionID], s)
	}
	e.NodeID = tree.Nullable(node)
	return e
}

// findForkPoint returns the id of the last node of child (in append order)
// of the first run whose ids parent also has, with the same kind, time
// and message (ids alone may mean other things in two files: Codex's are
// line numbers; a header entry of each file differs and is passed): the
// node a copying fork (Pi's, Codex's: the
// new file repeats the path it was forked from, ids and all) left the
// parent at. "" when either is not in memory or they share no id.
func findForkPoint(parent, child *tree.Session) string {
	if parent == nil || parent.Paged != nil || child.Paged != nil {
		return ""
	}
	found := ""
	for _, n := range child.Nodes {
		i, ok := parent.Index[n.ID]
		switch {
		case ok && sameNode(parent.Nodes[i], n):
			found = n.ID
		case found != "":
			return found
		}
	}
	return found
}

// forkPoint returns findForkPoint(parent, child), kept by child while
// its parent is the same session with the node counts it was found at (sessions only grow,
// so it stands while both do): the map asks it at every answer, and the
// walk is over every node of the session.
func (v *Caches) forkPoint(parent, child *tree.Session) string {
	if parent == nil || parent.Paged != nil || child.Paged != nil {
		return ""
	}
	at := [2]int{len(parent.Nodes), len(child.Nodes)}
	if p, ok := v.Points[child]; ok && p.parent == parent && p.at == at {
		return p.node
	}
	node := findForkPoint(parent, child)
	if v.Points == nil {
		v.Points = make(map[*tree.Session]forkPointKept)
	}
	v.Points[child] = forkPointKept{node, parent, at}
	return node
}

// sameNode reports whether a and b are the same record of two sessions.
func sameNode(a, b *tree.Node) bool {
	return a.Kind == b.Kind && a.Timestamp == b.Timestamp && string(a.Message) == string(b.Message)
}
