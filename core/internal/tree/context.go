package tree

import (
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/entries"
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/treeview"
)

// Status is the value of create, jump, branch, fork, clone, snapshot.load
// and session: the state of one session.
type Status struct {
	SessionID    string  `json:"sessionId"`
	Title        string  `json:"title"`
	Cursor       *string `json:"cursor"`
	ActiveBranch string  `json:"activeBranch"`
	NodeCount    int     `json:"nodeCount"`
	BranchCount  int     `json:"branchCount"`
	LeafCount    int     `json:"leafCount"`
	// Depth is the number of nodes on the root→cursor path (0 with no cursor).
	Depth int `json:"depth"`
	// CreatedAt and UpdatedAt are RFC 3339 UTC times, "" for a session
	// imported from data that holds no time (undated, docs/IMPORTERS.md).
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
}

// Nullable returns nil for "", else a pointer to s: the JSON null of an
// empty id.
func Nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Status returns the session's state: the value of session and of the
// operations that change it.
//
//go:noinline // called once per operation; inlined copies cost wasm size
func (s *Session) Status() Status {
	depth := 0
	if s.Cursor >= 0 {
		depth = int(s.Depth[s.Cursor])
	}
	return Status{
		SessionID:    s.id,
		Title:        s.Title,
		Cursor:       Nullable(s.NodeID(s.Cursor)),
		ActiveBranch: s.Active,
		NodeCount:    len(s.Nodes),
		BranchCount:  len(s.Branches),
		LeafCount:    s.Leaves,
		Depth:        depth,
		CreatedAt:    s.CreatedAt,
		UpdatedAt:    s.UpdatedAt,
	}
}

// ListItem is one node in the value of list: the node without its message
// and source, with its role, depth, a preview of its text and its
// annotations: label (omitted when none), hidden (the node or an ancestor
// is hidden) and preferred (on the preferred path).
type ListItem struct {
	ID        string  `json:"id"`
	ParentID  *string `json:"parentId"`
	Branch    string  `json:"branch"`
	Kind      string  `json:"kind"`
	Role      string  `json:"role"`
	Timestamp string  `json:"timestamp"`
	Depth     int     `json:"depth"`
	Preview   string  `json:"preview"`
	Label     string  `json:"label,omitempty"`
	Hidden    bool    `json:"hidden"`
	Preferred bool    `json:"preferred"`
	// Described says Preview describes a message without text ("called
	// search", "tool result: web"; see msgtext.DescribeEmpty), not its text.
	Described bool `json:"described,omitempty"`
}

func (s *Session) listItem(i int32) ListItem {
	n := s.Nodes[i]
	return ListItem{
		Label:     s.Labels[i],
		ID:        n.ID,
		ParentID:  Nullable(n.ParentID),
		Branch:    n.Branch,
		Kind:      n.Kind,
		Role:      n.Role(),
		Timestamp: n.Timestamp,
		Depth:     int(s.Depth[i]),
		Preview:   n.PreviewText(),
		Described: n.Described,
	}
}

// List builds the value of list.
func (s *Session) List() []ListItem {
	vt := s.ViewTree()
	hidden, preferred := vt.HiddenFlags(), vt.PathFlags(s.Preferred)
	items := make([]ListItem, len(s.Nodes))
	for i := range s.Nodes {
		items[i] = s.listItem(int32(i))
		items[i].Hidden = hidden != nil && hidden[i]
		items[i].Preferred = preferred != nil && preferred[i]
	}
	return items
}

// BranchInfo is one entry of the value of branches.
type BranchInfo struct {
	Name      string  `json:"name"`
	Tip       *string `json:"tip"`
	Base      *string `json:"base"`
	NodeCount int     `json:"nodeCount"`
	Active    bool    `json:"active"`
}

// BranchList builds the value of branches.
func (s *Session) BranchList() []BranchInfo {
	out := make([]BranchInfo, 0, len(s.Branches))
	for _, b := range s.Branches {
		out = append(out, BranchInfo{
			Name:      b.Name,
			Tip:       Nullable(s.NodeID(b.Tip)),
			Base:      Nullable(s.NodeID(b.Base)),
			NodeCount: b.Count,
			Active:    b.Name == s.Active,
		})
	}
	return out
}

// ForkAt returns a new session holding the root→node path of s (the same
// ids, branches and messages), the cursor at the node.
func (s *Session) ForkAt(at int32, id, now string) *Session {
	f := NewSession(id, s.Title, now)
	f.Branches, f.ByName = nil, make(map[string]*Branch)
	for _, i := range s.Path(at) {
		f.Push(s.Nodes[i], f.indexOf(s.Parent[i], s))
	}
	f.Cursor = int32(len(f.Nodes) - 1)
	f.Active = s.Nodes[at].Branch
	f.copyAnnotations(s)
	f.RecordSource(s, at, SourceFork, now)
	return f
}

// indexOf maps a node index of src to the index of the same node in f.
func (f *Session) indexOf(i int32, src *Session) int32 {
	if i < 0 {
		return -1
	}
	return f.Index[src.Nodes[i].ID]
}

// Context is the value of context: the cursor, the root→cursor path as an
// LLM messages array, and the configuration in force at the cursor.
type Context struct {
	Cursor   *string      `json:"cursor"`
	Messages []RawMessage `json:"messages"`
	State    State        `json:"state"`
}

// View is a session's context before it is encoded: its root→cursor path
// as it stood when the view was made. Nodes never change, so a view stays
// the same after later calls. It encodes as its Context (AppendJSON). Only
// Session.ContextView makes one: the zero value is not usable.
type View struct {
	Session *Session
	Path    []int32 // root first; empty with no cursor
}

// ContextView returns the session's context at its cursor.
func (s *Session) ContextView(memo *PathMemo) View {
	return View{Session: s, Path: s.ContextPath(s.Cursor, memo)}
}

// Context returns the value of context (see Session.Context).
func (v View) Context() Context {
	msgs := make([]RawMessage, 0, len(v.Path)+1)
	v.Session.ContextNodes(v.Path, func(_ int32, n *Node) { msgs = append(msgs, ContextMessage(n)) })
	return Context{Cursor: v.Cursor(), Messages: msgs, State: v.Session.StateAt(v.Path)}
}

// Cursor is the id of the path's last node, nil for an empty path.
func (v View) Cursor() *string {
	if len(v.Path) == 0 {
		return nil
	}
	return Nullable(v.Session.Nodes[v.Path[len(v.Path)-1]].ID)
}

// AppendJSON appends the view's Context as JSON (Context.AppendJSON).
func (v View) AppendJSON(b []byte) []byte { return v.Context().AppendJSON(b) }

// MarshalJSON encodes the view's Context.
func (v View) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil), nil }

// MarshalJSON encodes the context as in the value of context (see AppendJSON).
func (c Context) MarshalJSON() ([]byte, error) { return c.AppendJSON(nil), nil }

// AppendJSON appends {"cursor":…,"messages":[…],"state":…}. The messages
// are stored compacted and validated, so they are copied as they are:
// encoding/json would validate every one of them again, which was most of
// the time of a 100,000-message context.
func (c Context) AppendJSON(b []byte) []byte {
	size := 512 // the cursor, the state and the envelope's closing brace
	for _, m := range c.Messages {
		size += len(m) + 1
	}
	b = slices.Grow(b, size)
	b = c.appendHead(b)
	for i, m := range c.Messages {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m...)
	}
	return c.appendTail(b)
}

// appendHead appends {"cursor":…,"messages":[ .
func (c Context) appendHead(b []byte) []byte {
	b = append(b, `{"cursor":`...)
	if c.Cursor == nil {
		b = append(b, "null"...)
	} else {
		b = jsonx.AppendString(b, *c.Cursor)
	}
	return append(b, `,"messages":[`...)
}

// appendTail appends ],"state":…} .
func (c Context) appendTail(b []byte) []byte {
	b = append(b, `],"state":`...)
	b = c.State.AppendJSON(b)
	return append(b, '}')
}

// Context builds the value of context. The newest compaction on the path
// replaces everything before its firstKeptNodeId: the messages are its
// summary (CompactionMessage) and then the path from firstKeptNodeId on.
// Message nodes give their message, summary nodes SummaryMessage,
// custom_message entries a user message; other entries add none (they
// shape State instead).
func (s *Session) Context() Context { return s.ContextView(nil).Context() }

// ContextMessage is the message node n gives context (ContextNodes
// lists the nodes that give one).
func ContextMessage(n *Node) RawMessage {
	switch n.Kind {
	case formats.KindSummary:
		return SummaryMessage(n.Summary)
	case formats.KindCompaction:
		return entries.CompactionMessage(n.Entry.Summary)
	case formats.KindCustomMessage:
		return entries.CustomMessage(n.Entry)
	}
	return n.Message
}

// ContextNodes calls fn, in order, with each node of path (root first) that
// gives context a message: the newest compaction first when there is one
// (then only the path from its firstKeptNodeId on, other compactions
// skipped), message, summary and custom_message nodes.
func (s *Session) ContextNodes(path []int32, fn func(i int32, n *Node)) {
	start := 0
	for k := len(path) - 1; k >= 0; k-- {
		if n := s.Nodes[path[k]]; n.Kind == formats.KindCompaction {
			fn(path[k], n)
			start = int(s.Depth[s.Index[n.Entry.FirstKeptNodeID]]) - 1
			break
		}
	}
	for _, i := range path[start:] {
		if n := s.Nodes[i]; ContextKind(n.Kind) {
			fn(i, n)
		}
	}
}

// ContextKind reports whether nodes of kind k give a context message
// (after the last compaction on the path, which gives one itself).
func ContextKind(k string) bool {
	return k == formats.KindMessage || k == formats.KindSummary || k == formats.KindCustomMessage
}

// CheckBranchTarget validates branching at node i to name: an unused name,
// or the name of the branch whose tip is i (a plain jump).
func (s *Session) CheckBranchTarget(i int32, name string) *Error {
	if b := s.ByName[name]; b != nil && b.Tip != i {
		if b.Count == 0 && b.Base == i {
			return nil
		}
		return Invalidf("branch %q already exists in session %q; choose another name or jump to its tip", name, s.id)
	}
	return nil
}

// BranchAt moves the cursor to i and makes name the active branch.
func (s *Session) BranchAt(i int32, name string) {
	s.Cursor = i
	s.SetActive(name)
}

// PathMemo is the root→cursor path the last context of a session walked
// (see Session.ContextPath).
type PathMemo struct{ path []int32 }

// ViewTree returns the tree the views read of s: its own parent, depth and
// child-count slices and hidden roots, shared, not copied.
func (s *Session) ViewTree() *treeview.Tree {
	nodes := s.Nodes // the session does not change while a view reads it
	return &treeview.Tree{
		Parent:      s.Parent,
		Depth:       s.Depth,
		Children:    s.Children,
		Branch:      func(i int32) string { return nodes[i].Branch },
		HiddenRoots: s.hiddenRoots,
	}
}

// AppendJSON appends the item as encoding/json would encode ListItem.
func (it *ListItem) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonx.AppendString(b, it.ID)
	b = append(b, `,"parentId":`...)
	b = jsonx.AppendOptString(b, it.ParentID)
	b = append(b, `,"branch":`...)
	b = jsonx.AppendString(b, it.Branch)
	b = append(b, `,"kind":`...)
	b = jsonx.AppendString(b, it.Kind)
	b = append(b, `,"role":`...)
	b = jsonx.AppendString(b, it.Role)
	b = append(b, `,"timestamp":`...)
	b = jsonx.AppendString(b, it.Timestamp)
	b = append(b, `,"depth":`...)
	b = jsonx.AppendInt(b, it.Depth)
	b = append(b, `,"preview":`...)
	b = jsonx.AppendString(b, it.Preview)
	if it.Label != "" {
		b = append(b, `,"label":`...)
		b = jsonx.AppendString(b, it.Label)
	}
	b = append(b, `,"hidden":`...)
	b = jsonx.AppendBool(b, it.Hidden)
	b = append(b, `,"preferred":`...)
	b = jsonx.AppendBool(b, it.Preferred)
	if it.Described {
		b = append(b, `,"described":true`...)
	}
	return append(b, '}')
}

// ListJSON encodes the value of list.
func ListJSON(items []ListItem) RawMessage {
	b := make([]byte, 0, len(items)*200+2)
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = items[i].AppendJSON(b)
	}
	return append(b, ']')
}
