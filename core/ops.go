package core

import (
	"slices"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/entries"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
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

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

//go:noinline // called once per operation; inlined copies cost wasm size
func (s *Session) status() Status {
	depth := 0
	if s.cursor >= 0 {
		depth = int(s.depth[s.cursor])
	}
	return Status{
		SessionID:    s.id,
		Title:        s.title,
		Cursor:       nullable(s.nodeID(s.cursor)),
		ActiveBranch: s.active,
		NodeCount:    len(s.nodes),
		BranchCount:  len(s.branches),
		LeafCount:    s.leaves,
		Depth:        depth,
		CreatedAt:    s.createdAt,
		UpdatedAt:    s.updatedAt,
	}
}

// touch stamps the session as updated and records the change by operation
// op for persistence. from is the node count before the call.
func (st *Store) touch(s *Session, from int, reset bool, op string) {
	s.updatedAt = st.timestamp()
	st.markDirty(s, from, reset, op)
}

func opCreate(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	title, err := r.optStr("title")
	if err != nil {
		return nil, err
	}
	s, err := st.create(id, title, r.op)
	if err != nil {
		return nil, err
	}
	return s.status(), nil
}

func opAppend(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	n := &Node{Kind: KindMessage}
	switch hasMsg, hasEntry := r.has("message"), r.has("entry"); {
	case hasMsg && hasEntry:
		return nil, invalidf("fields \"message\" and \"entry\" exclude each other: append takes one of them")
	case hasEntry:
		if n.Kind, n.Entry, err = ParseEntry(r.fields["entry"], "entry"); err != nil {
			return nil, err
		}
	case hasMsg:
		if n.Message, n.role, err = validateMessageOf(r.fields["message"], "message", r.valid); err != nil {
			return nil, err
		}
	default:
		return nil, invalidf("field \"message\" (a chat message) or \"entry\" (an entry {kind, …}) is required for operation \"append\"")
	}
	branch, err := r.branchName("branch", false)
	if err != nil {
		return nil, err
	}
	if err := st.appendNode(s, n, branch, r.op); err != nil {
		return nil, err
	}
	return RawMessage(n.AppendJSON(nil)), nil
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
	n := s.nodes[i]
	return ListItem{
		Label:     s.labels[i],
		ID:        n.ID,
		ParentID:  nullable(n.ParentID),
		Branch:    n.Branch,
		Kind:      n.Kind,
		Role:      n.Role(),
		Timestamp: n.Timestamp,
		Depth:     int(s.depth[i]),
		Preview:   n.previewText(),
		Described: n.described,
	}
}

func opList(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return listJSON(s.list()), nil
}

// list builds the value of list.
func (s *Session) list() []ListItem {
	vt := s.viewTree()
	hidden, preferred := vt.HiddenFlags(), vt.PathFlags(s.preferred)
	items := make([]ListItem, len(s.nodes))
	for i := range s.nodes {
		items[i] = s.listItem(int32(i))
		items[i].Hidden = hidden != nil && hidden[i]
		items[i].Preferred = preferred != nil && preferred[i]
	}
	return items
}

func opNode(st *Store, r *request) (any, *Error) {
	s, i, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	return RawMessage(s.nodes[i].AppendJSON(nil)), nil
}

// BranchInfo is one entry of the value of branches.
type BranchInfo struct {
	Name      string  `json:"name"`
	Tip       *string `json:"tip"`
	Base      *string `json:"base"`
	NodeCount int     `json:"nodeCount"`
	Active    bool    `json:"active"`
}

func opBranches(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return s.branchList(), nil
}

// Branches lists the session's branches in order of creation (the value
// of "branches"), or SESSION_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Branches(sessionID string) ([]BranchInfo, error) {
	s, err := st.liveSession(sessionID)
	if err != nil {
		return nil, err
	}
	return s.branchList(), nil
}

// branchList builds the value of branches.
func (s *Session) branchList() []BranchInfo {
	out := make([]BranchInfo, 0, len(s.branches))
	for _, b := range s.branches {
		out = append(out, BranchInfo{
			Name:      b.name,
			Tip:       nullable(s.nodeID(b.tip)),
			Base:      nullable(s.nodeID(b.base)),
			NodeCount: b.count,
			Active:    b.name == s.active,
		})
	}
	return out
}

func opJump(st *Store, r *request) (any, *Error) {
	s, i, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	st.jump(s, i, r.op)
	return s.status(), nil
}

// newSessionID returns the request's "newSessionId" or a generated one.
func (st *Store) newSessionID(r *request) (string, *Error) {
	if !r.has("newSessionId") {
		return st.sessionID(), nil
	}
	id, err := r.idField("newSessionId")
	if err != nil {
		return "", err
	}
	if err := st.taken(id); err != nil {
		return "", err
	}
	return id, nil
}

func opFork(st *Store, r *request) (any, *Error) {
	s, at, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	branch, err := r.branchName("branch", false)
	if err != nil {
		return nil, err
	}
	newID, err := st.newSessionID(r)
	if err != nil {
		return nil, err
	}
	f, err := st.fork(s, at, newID, branch, r.op)
	if err != nil {
		return nil, err
	}
	return f.status(), nil
}

// forkAt returns a new session holding the root→node path of s (the same
// ids, branches and messages), the cursor at the node.
func (s *Session) forkAt(at int32, id, now string) *Session {
	f := newSession(id, s.title, now)
	f.branches, f.byName = nil, make(map[string]*branchInfo)
	for _, i := range s.path(at) {
		f.push(s.nodes[i], f.indexOf(s.parent[i], s))
	}
	f.cursor = int32(len(f.nodes) - 1)
	f.active = s.nodes[at].Branch
	f.copyAnnotations(s)
	f.recordSource(s, at, SourceFork, now)
	return f
}

// indexOf maps a node index of src to the index of the same node in f.
func (f *Session) indexOf(i int32, src *Session) int32 {
	if i < 0 {
		return -1
	}
	return f.index[src.nodes[i].ID]
}

func opClone(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	newID, err := st.newSessionID(r)
	if err != nil {
		return nil, err
	}
	return st.clone(s, newID, r.op).status(), nil
}

// Context is the value of context: the cursor, the root→cursor path as an
// LLM messages array, and the configuration in force at the cursor.
type Context struct {
	Cursor   *string      `json:"cursor"`
	Messages []RawMessage `json:"messages"`
	State    State        `json:"state"`
}

// ContextView is what the context operation answers (Answer.Value) before
// it is encoded: a session's root→cursor path as it stood when the call
// ran. Nodes never change, so a view stays the same after later calls.
// Call encodes it as its Context (AppendJSON); package core/wire also
// writes it in ASCII (from Context) or in columns (from Texts). Only Run
// makes one: the zero value is not usable.
type ContextView struct {
	s    *Session
	path []int32 // root first; empty with no cursor
	// tc is the session's text cache the store keeps for Texts (see
	// viewCaches); nil in a view made for its Context alone.
	tc *textCache
}

func opContext(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return r.contextValue(st, s)
}

// contextView returns the session's context at its cursor.
func (s *Session) contextView(memo *pathMemo) ContextView {
	return ContextView{s: s, path: s.contextPath(s.cursor, memo)}
}

// Context returns the value of context (see Session.context).
func (v ContextView) Context() Context {
	msgs := make([]RawMessage, 0, len(v.path)+1)
	v.s.contextNodes(v.path, func(_ int32, n *Node) { msgs = append(msgs, contextMessage(n)) })
	return Context{Cursor: v.cursor(), Messages: msgs, State: v.s.stateAt(v.path)}
}

// cursor is the id of the path's last node, nil for an empty path.
func (v ContextView) cursor() *string {
	if len(v.path) == 0 {
		return nil
	}
	return nullable(v.s.nodes[v.path[len(v.path)-1]].ID)
}

// AppendJSON appends the view's Context as JSON (Context.AppendJSON).
func (v ContextView) AppendJSON(b []byte) []byte { return v.Context().AppendJSON(b) }

// MarshalJSON encodes the view's Context.
func (v ContextView) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil), nil }

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

// context builds the value of context. The newest compaction on the path
// replaces everything before its firstKeptNodeId: the messages are its
// summary (CompactionMessage) and then the path from firstKeptNodeId on.
// Message nodes give their message, summary nodes SummaryMessage,
// custom_message entries a user message; other entries add none (they
// shape State instead).
func (s *Session) context() Context { return s.contextView(nil).Context() }

// contextMessage is the message node n gives context (contextNodes
// lists the nodes that give one).
func contextMessage(n *Node) RawMessage {
	switch n.Kind {
	case KindSummary:
		return SummaryMessage(n.Summary)
	case KindCompaction:
		return CompactionMessage(n.Entry.Summary)
	case KindCustomMessage:
		return entries.CustomMessage(n.Entry)
	}
	return n.Message
}

// contextNodes calls fn, in order, with each node of path (root first) that
// gives context a message: the newest compaction first when there is one
// (then only the path from its firstKeptNodeId on, other compactions
// skipped), message, summary and custom_message nodes.
func (s *Session) contextNodes(path []int32, fn func(i int32, n *Node)) {
	start := 0
	for k := len(path) - 1; k >= 0; k-- {
		if n := s.nodes[path[k]]; n.Kind == KindCompaction {
			fn(path[k], n)
			start = int(s.depth[s.index[n.Entry.FirstKeptNodeID]]) - 1
			break
		}
	}
	for _, i := range path[start:] {
		if n := s.nodes[i]; contextKind(n.Kind) {
			fn(i, n)
		}
	}
}

// contextKind reports whether nodes of kind k give a context message
// (after the last compaction on the path, which gives one itself).
func contextKind(k string) bool {
	return k == KindMessage || k == KindSummary || k == KindCustomMessage
}

func opSession(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return s.status(), nil
}

// checkBranchTarget validates branching at node i to name: an unused name,
// or the name of the branch whose tip is i (a plain jump).
func (s *Session) checkBranchTarget(i int32, name string) *Error {
	if b := s.byName[name]; b != nil && b.tip != i {
		if b.count == 0 && b.base == i {
			return nil
		}
		return invalidf("branch %q already exists in session %q; choose another name or jump to its tip", name, s.id)
	}
	return nil
}

// branchAt moves the cursor to i and makes name the active branch.
func (s *Session) branchAt(i int32, name string) {
	s.cursor = i
	s.setActive(name)
}

func opBranch(st *Store, r *request) (any, *Error) {
	s, i, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	name, err := r.branchName("branch", true)
	if err != nil {
		return nil, err
	}
	if err := st.branch(s, i, name, r.op); err != nil {
		return nil, err
	}
	return s.status(), nil
}

func opBranchSummary(st *Store, r *request) (any, *Error) {
	s, i, err := r.sessionNode(st)
	if err != nil {
		return nil, err
	}
	name, err := r.branchName("branch", true)
	if err != nil {
		return nil, err
	}
	summary, err := r.str("summary")
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(summary) == "" {
		return nil, invalidf("field \"summary\" must not be empty")
	}
	if err := s.checkBranchTarget(i, name); err != nil {
		return nil, err
	}
	from := len(s.nodes)
	s.branchAt(i, name)
	p, _ := s.place("")
	n := &Node{ID: st.nodeID(s, nil), Kind: KindSummary, Timestamp: st.timestamp(), Summary: summary}
	s.add(n, p)
	st.touch(s, from, false, r.op)
	return RawMessage(n.AppendJSON(nil)), nil
}

// SessionSummary is one entry of the value of sessions.
type SessionSummary struct {
	SessionID    string  `json:"sessionId"`
	Title        string  `json:"title"`
	NodeCount    int     `json:"nodeCount"`
	Cursor       *string `json:"cursor"`
	ActiveBranch string  `json:"activeBranch"`
	// UpdatedAt is as Status's: "" for an undated import.
	UpdatedAt string `json:"updatedAt"`
	// Tool is the format of the import that made the session ("codex",
	// "claude-code", "chatgpt", …), Project the folder its conversation
	// worked in (a coding agent's cwd); each left out when unknown.
	Tool    string `json:"tool,omitempty"`
	Project string `json:"project,omitempty"`
}

func opSessions(st *Store, r *request) (any, *Error) { return st.sessionList(), nil }

// sessionList builds the value of sessions; a paged-out session gives the
// counts its stub keeps.
func (st *Store) sessionList() []SessionSummary {
	out := make([]SessionSummary, 0, len(st.order))
	for _, id := range st.order {
		s := st.sessions[id]
		count, cursor := len(s.nodes), s.nodeID(s.cursor)
		if s.paged != nil {
			count, cursor = s.paged.nodeCount, s.paged.cursor
		}
		out = append(out, SessionSummary{
			SessionID:    s.id,
			Title:        s.title,
			NodeCount:    count,
			Cursor:       nullable(cursor),
			ActiveBranch: s.active,
			UpdatedAt:    s.updatedAt,
			Tool:         s.tool,
			Project:      s.project,
		})
	}
	return out
}
