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

// FamilyChildren maps each source session id to the sessions made from it
// (store order); sources not in the store are keys too.
func FamilyChildren(st *store.Store) map[string][]string {
	children := map[string][]string{}
	for _, id := range st.Order {
		if s := st.ByID[id]; s != nil && s.Source != nil && s.Source.SessionID != id {
			children[s.Source.SessionID] = append(children[s.Source.SessionID], id)
		}
	}
	return children
}

// FamilyRoot follows source links up from id while they lead to a session
// not seen yet and returns the topmost: a session without a source, a
// missing one, or where a cycle closes.
func FamilyRoot(st *store.Store, id string) string {
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

// FamilyMemberOf describes session id (Missing when it is not in the store).
func FamilyMemberOf(st *store.Store, id string) FamilyMember {
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

// FamilyEdgeOf is the link of session id (in the store, with a source) to
// its source. An import's link without a node gets the node the two
// sessions last share, when both are in memory (see forkPoint).
func FamilyEdgeOf(st *store.Store, id string) FamilyEdge {
	s := st.ByID[id]
	e := FamilyEdge{SessionID: id, ParentSessionID: s.Source.SessionID, Kind: s.Source.Via}
	node := s.Source.NodeID
	if node == "" {
		node = forkPointOf(s.Source, st.ByID[s.Source.SessionID], s)
	}
	e.NodeID = tree.Nullable(node)
	return e
}

// forkPoint returns the id of the last node of child (in append order)
// of the first run whose ids parent also has, with the same kind, time
// and message (ids alone may mean other things in two files: Codex's are
// line numbers; a header entry of each file differs and is passed): the
// node a copying fork (Pi's, Codex's: the
// new file repeats the path it was forked from, ids and all) left the
// parent at. "" when either is not in memory or they share no id.
func forkPoint(parent, child *tree.Session) string {
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

// forkPointOf returns forkPoint(parent, child) for child's link l, kept
// while both sessions have the node counts it was found at.
func forkPointOf(l *tree.SourceLink, parent, child *tree.Session) string {
	if parent == nil || parent.Paged != nil || child.Paged != nil {
		return ""
	}
	if at := [2]int{len(parent.Nodes), len(child.Nodes)}; !l.PointKnown || at != l.PointAt {
		l.Point, l.PointAt, l.PointKnown = forkPoint(parent, child), at, true
	}
	return l.Point
}

// sameNode reports whether a and b are the same record of two sessions.
func sameNode(a, b *tree.Node) bool {
	return a.Kind == b.Kind && a.Timestamp == b.Timestamp && string(a.Message) == string(b.Message)
}
