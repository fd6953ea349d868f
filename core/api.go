package core

// The typed operations of Store, over core/internal/store (its api.go):
// each answers as the operation of the same name does through Call.

// Create makes an empty session sessionID with title ("" for none): its
// Status, or SESSION_ALREADY_EXISTS (also for an id in the trash) or
// INVALID_ARGUMENT for a malformed id or a title rename would not take
// (over MaxTitleLength characters, or a control character).
func (st *Store) Create(sessionID, title string) (Status, error) {
	return st.s.Create(sessionID, title)
}

// Append adds message (a chat message object, {"role":…,"content":…,…}
// as SPEC.md describes it) to the session as a child of its cursor, or at
// the tip of opts.Branch, and moves the cursor to it: the new node, or
// INVALID_ARGUMENT (a bad message, naming its field "message.…"),
// SESSION_NOT_FOUND or NOT_FOUND (an unknown branch).
func (st *Store) Append(sessionID string, message RawMessage, opts AppendOptions) (*Node, error) {
	return st.s.Append(sessionID, message, opts)
}

// AppendEntry is Append for an entry ({"kind":…, …fields}: a model or
// thinking-level change, a compaction, a custom entry; see ParseEntry).
func (st *Store) AppendEntry(sessionID string, entry RawMessage, opts AppendOptions) (*Node, error) {
	return st.s.AppendEntry(sessionID, entry, opts)
}

// Jump moves the session's cursor to nodeID, making the node's branch the
// active one: the session's Status, or SESSION_NOT_FOUND, NODE_NOT_FOUND,
// INVALID_ARGUMENT.
func (st *Store) Jump(sessionID, nodeID string) (Status, error) { return st.s.Jump(sessionID, nodeID) }

// Branch moves the cursor to nodeID and makes branch, a new name (or the
// name of the branch whose tip is nodeID), the active branch: the next
// append starts it. The session's Status, or INVALID_ARGUMENT (a name in
// use elsewhere, a malformed one), SESSION_NOT_FOUND, NODE_NOT_FOUND.
func (st *Store) Branch(sessionID, nodeID, branch string) (Status, error) {
	return st.s.Branch(sessionID, nodeID, branch)
}

// Branches lists the session's branches in order of creation (the value
// of "branches"), or SESSION_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Branches(sessionID string) ([]BranchInfo, error) { return st.s.Branches(sessionID) }

// Fork makes a new session of the root→nodeID path of sessionID (the same
// node ids, branches, messages and annotations, a source record naming
// where it came from), its cursor at the node: the new session's Status,
// or SESSION_NOT_FOUND, NODE_NOT_FOUND, SESSION_ALREADY_EXISTS (for
// opts.NewSessionID), INVALID_ARGUMENT.
func (st *Store) Fork(sessionID, nodeID string, opts ForkOptions) (Status, error) {
	return st.s.Fork(sessionID, nodeID, opts)
}

// Clone makes a new session with every node, branch, annotation and the
// cursor of sessionID (newSessionID, or a drawn id for ""): the new
// session's Status, or SESSION_NOT_FOUND, SESSION_ALREADY_EXISTS,
// INVALID_ARGUMENT.
func (st *Store) Clone(sessionID, newSessionID string) (Status, error) {
	return st.s.Clone(sessionID, newSessionID)
}

// Context returns what the model sees at the session's cursor: the
// root→cursor path as a messages array (a compaction's summary replacing
// what it compacted) and the configuration in force there; or
// SESSION_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Context(sessionID string) (Context, error) { return st.s.Context(sessionID) }

// Status returns the state of one session (the value of "session"), or
// SESSION_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Status(sessionID string) (Status, error) { return st.s.Status(sessionID) }

// Sessions lists every session outside the trash, in the order they were
// made (the value of "sessions"). It never fails.
func (st *Store) Sessions() []SessionSummary { return st.s.Sessions() }

// Session returns the session with id, or nil.
func (st *Store) Session(id string) *Session { return st.s.Session(id) }

// Label sets the label of nodeID ("" clears it; at most 1,000 characters,
// no control characters): the node's Marks after the call, or
// SESSION_NOT_FOUND, NODE_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Label(sessionID, nodeID, label string) (Marks, error) {
	return st.s.Label(sessionID, nodeID, label)
}

// Hide hides (hidden true) or shows again the subtree of nodeID in the
// tree views; context and the nodes are unchanged. The node's Marks, or
// SESSION_NOT_FOUND, NODE_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Hide(sessionID, nodeID string, hidden bool) (Marks, error) {
	return st.s.Hide(sessionID, nodeID, hidden)
}

// Prefer makes the root→nodeID path the preferred one ("" clears it): the
// node's Marks, or SESSION_NOT_FOUND, NODE_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Prefer(sessionID, nodeID string) (Marks, error) {
	return st.s.Prefer(sessionID, nodeID)
}

// Rename sets the session's title ("" clears it; at most MaxTitleLength
// characters, no control characters), keeping its updatedAt: its Status,
// or SESSION_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) Rename(sessionID, title string) (Status, error) {
	return st.s.Rename(sessionID, title)
}

// SaveSnapshot returns the session's snapshot (snapshot v1 of SPEC.md,
// compact JSON), or SESSION_NOT_FOUND, INVALID_ARGUMENT.
func (st *Store) SaveSnapshot(sessionID string) ([]byte, error) { return st.s.SaveSnapshot(sessionID) }

// LoadSnapshot makes session sessionID from snapshot (snapshot v1; its own
// id is ignored), replacing a session of that id: its Status, or
// INVALID_SNAPSHOT naming the first fault, SESSION_ALREADY_EXISTS (the id
// is in the trash), INVALID_ARGUMENT.
func (st *Store) LoadSnapshot(sessionID string, snapshot []byte) (Status, error) {
	return st.s.LoadSnapshot(sessionID, snapshot)
}

// Search finds the nodes whose text matches query, typos allowed (see
// package core/internal/search for the matching and the ranking): the
// best hits first with their snippets and the UTF-16 ranges matched. It
// fails with INVALID_ARGUMENT (an empty or over-long query, a bad limit
// or role), SESSION_NOT_FOUND, NOT_FOUND (a branch the session lacks).
func (st *Store) Search(query string, opts SearchOptions) (SearchResult, error) {
	return st.s.Search(query, opts)
}

// CheckMemory reports whether a request of n bytes that is not yet in
// memory fits the budget: its copy (n bytes) and the answer's growth (n ×
// RequestGrowth) on top of what the program holds (Options.MemoryInUse).
// The wasm binding asks before it copies a request of at least
// PrecheckBytes out of JS, so a request too large to copy is refused too
// (whatever its operation: no read takes a request that large). Nil when it fits or there is no
// budget; else INVALID_ARGUMENT naming the request's size, the estimate,
// the memory in use and the limit, in bytes.
func (st *Store) CheckMemory(n int) *Error { return st.s.CheckMemory(n) }

// MemoryBudget returns the store's memory budget in bytes (0: none).
func (st *Store) MemoryBudget() int64 { return st.s.MemoryBudget() }

// SetMemoryBudget sets the store's memory budget to limit bytes (0 or
// less: none), as Options.MemoryBudget does.
func (st *Store) SetMemoryBudget(limit int64) { st.s.SetMemoryBudget(limit) }

// TrackChanges turns change tracking on or off. While it is on, every
// successful mutating call records what it changed until DrainChanges.
func (st *Store) TrackChanges(on bool) { st.s.TrackChanges(on) }

// DrainChanges returns what changed since the last drain and forgets it. The
// text is one block per changed session: a header line
//
//	{"sessionId":…,"operation":…,"reset":bool,"from":N,"count":K,"annotationFrom":A,"annotationCount":J,"meta":{…}}
//
// (operation names the call that last changed the session) followed by K
// lines, each one node in snapshot form: the nodes with append-order
// indexes from N to N+K-1, every line but the block's last ending in ","
// before its newline — so any run of node lines, less its last ",\n", is
// those nodes joined by ",\n", the form of the shim's chunk records, and
// is written to IndexedDB without being split and joined again; then J
// lines, each one annotation record in snapshot form (see Annotation): the
// annotations with indexes A to A+J-1.
// meta is {"sessionId","title","cursor","activeBranch","createdAt",
// "updatedAt","nodeCount","annotationCount","deletedAt"?,"tool"?,"project"?,"source"?}
// (source: {"sessionId","nodeId","via"}, see appendSourceMeta). With reset the session's
// stored nodes and annotations are replaced by these (N and A are 0).
// Lines end with "\n"; node JSON never contains a raw newline. With
// withNodes false the node lines are left out (count stays the number of
// nodes that changed). An empty string means nothing changed. The bytes
// are the caller's. DrainChangesUpTo gives the same in pieces.
func (st *Store) DrainChanges(withNodes bool) []byte { return st.s.DrainChanges(withNodes) }

// DrainChangesUpTo is DrainChanges(true) in pieces of about limit bytes
// (at least one session's block or one group of nodes, so a piece can
// pass limit by one session's header and DrainGroupNodes nodes): it
// returns the next piece and forgets what that piece holds; more is true
// while changes are left, and the piece after the last is empty. A
// session's nodes may be cut between pieces at an append-order index that
// is a multiple of DrainGroupNodes: every block of a cut session but its
// last has "more":true in its header after annotationCount, holds no
// annotations, and its meta is the session's as it will be once all of it
// is drained (count is that block's nodes only); the blocks after it have
// reset false and continue where it ended, and the last one carries the
// annotations (from A, which for a reset is 0). A caller that writes each
// piece before it asks for the next holds one piece at a time: a
// 200 MB import drained whole was 300 MB beside its sessions, and the
// wasm memory never shrinks.
//
// The piece is the store's own buffer, reused by the next call: copy it
// out (the wasm binding copies it to a Uint8Array) before calling again.
// The buffer is let go once a drain is done. limit ≤ 0 drains everything
// in one piece.
func (st *Store) DrainChangesUpTo(limit int) (piece []byte, more bool) {
	return st.s.DrainChangesUpTo(limit)
}

// PageStubPacked is page.stub (see opPageStub) for summaries in the packed
// form above: it adds or updates the stubs in the order given and returns
// how many stubs the store holds. It fails with InvalidArgument, changing
// nothing, when data is cut short, holds bytes after its last summary, a
// string that is not UTF-8, a summary without a sessionId or with a bad
// nodeCount; the message names the summary and the byte.
func (st *Store) PageStubPacked(data []byte) (int, error) { return st.s.PageStubPacked(data) }

// SearchIndexBytes returns the search index as bytes to keep (see the file
// comment), or nil when there is no index, the index does not yet hold
// every session (WarmSearch has not finished, or a paged-out session's
// documents are not in it as it is stored: the bytes would leave the rest
// out, and written over those an earlier page kept, a fresh page's index
// of the few sessions it opened would make the next page load every
// session), or it changed too little since the bytes it last returned or
// LoadSearchIndex took (see KeepSearchShare); a session removed (deleted,
// erased, dropped by another tab) makes it keep them again, without its
// words.
func (st *Store) SearchIndexBytes() []byte { return st.s.SearchIndexBytes() }

// LoadSearchIndex replaces the store's search index with the one of bytes
// SearchIndexBytes wrote (in this page or another), and returns how many
// sessions it took the documents of: those still as they were (a stub
// with the node count and updatedAt written, a session in memory whose
// first nodes give the digest written); the others' documents are dropped
// and those sessions are indexed as new ones (the shim calls it before a
// page's first search across every session, when at most the few sessions
// opened so far are indexed). Bytes that are not such an index fail with
// an error, the store unchanged.
func (st *Store) LoadSearchIndex(data []byte) (int, error) { return st.s.LoadSearchIndex(data) }

// WarmSearch builds the search index, adding at most budget nodes (every
// node when budget < 0), and reports whether the index now covers every
// live session. The JS side calls it in the background, a few hundred
// nodes at a time, after sessions load, restore or import; searches in
// between are answered exactly all the same (see index). A session is
// attached (its later appends indexed by the next search or WarmSearch)
// once all its nodes are in; a label change in a session still being
// warmed starts that session over.
func (st *Store) WarmSearch(budget int) bool { return st.s.WarmSearch(budget) }
