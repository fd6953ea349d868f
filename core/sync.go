package core

// Synchronisation with other tabs. The JS shim keeps every session in
// IndexedDB; when another tab (another Store on the same database) has
// appended nodes to a session this store also holds, the shim reads the new
// node records and hands them to "sync.merge"; when a session must be
// dropped from memory (a write that failed for lack of storage created it)
// it calls "sync.forget". Neither records a change: what they bring in is
// already stored. Whole-session replacements use "restore".

import (
	"bytes"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// opSyncMerge appends nodes written by another tab to an existing session:
//
//	{"operation":"sync.merge","sessionId":…,"nodes":[node…],"annotations"?:[annotation…],"title"?:…,"updatedAt"?:…,"cursor"?:…,"activeBranch"?:…}
//
// nodes are in snapshot form, in the order they were stored (every parent
// before its children); each parent is a node of the session or an earlier
// node of the list, and no id may repeat one the session already has.
// annotations (snapshot form, see Annotation) are recorded after the nodes,
// in order. Without "cursor" and "activeBranch" the session's cursor and
// active branch stay where they are (a tab that moved its own cursor keeps
// it); with them the session takes them (a tab that only watches follows the
// writer's cursor). updatedAt is taken when it is later than the
// session's; a non-empty title replaces the session's. Faults are INVALID_SNAPSHOT naming the node; a failed merge
// changes nothing. The value is the session status.
func opSyncMerge(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	raw, ok := r.fields["nodes"]
	if !ok || len(bytes.TrimSpace(raw)) == 0 || bytes.TrimSpace(raw)[0] != '[' {
		return nil, tree.Invalidf("field \"nodes\" must be an array of nodes for operation \"sync.merge\"")
	}
	list, jerr := jsonx.RawArray(raw)
	if jerr != nil {
		return nil, tree.Invalidf("field \"nodes\" must be an array: %s", jsonx.ErrorText(jerr))
	}
	title, err := r.optStr("title")
	if err != nil {
		return nil, err
	}
	updated, err := r.optStr("updatedAt")
	if err != nil {
		return nil, err
	}
	cursor, err := r.optStr("cursor")
	if err != nil {
		return nil, err
	}
	active, err := r.branchName("activeBranch", false)
	if err != nil {
		return nil, err
	}

	var annotations []RawMessage
	if r.has("annotations") {
		if annotations, jerr = jsonx.RawArray(r.fields["annotations"]); jerr != nil {
			return nil, tree.Invalidf("field \"annotations\" must be an array: %s", jsonx.ErrorText(jerr))
		}
	}

	// Each node is checked against the session as it grows (parents,
	// repeated ids, a compaction's kept node on its path); a fault undoes
	// the nodes pushed so far, so the cost is O(len(nodes) + branches),
	// never O(session).
	undo := markPush(s)
	for i, rawNode := range list {
		n, parent, perr := s.ParseNode(rawNode, i, false)
		if perr != nil {
			undo()
			return nil, perr
		}
		s.Push(n, parent)
	}
	parsed := make([]*Annotation, len(annotations))
	for k, raw := range annotations {
		a, aerr := s.ParseAnnotation(raw, k)
		if aerr != nil {
			undo()
			return nil, aerr
		}
		parsed[k] = a
	}
	if cursor != "" {
		i, ok := s.Index[cursor]
		if !ok {
			undo()
			return nil, tree.SnapshotFault("cursor %q is not a node of the merge", cursor)
		}
		s.Cursor = i
	}
	for _, a := range parsed {
		s.Annotate(a)
	}
	if active != "" {
		s.SetActive(active)
	}
	if title != "" {
		s.Title = title
	}
	if updated > s.UpdatedAt {
		s.UpdatedAt = updated
	}
	return s.Status(), nil
}

// markPush remembers the session's node tables and returns a function that
// takes back every node pushed since: the node, parent, depth and children
// tables are cut back, the new ids leave the index and the branch table is
// restored. It handles pushes only (no cursor moves, no annotations). The
// search index needs nothing: it reads a session's new nodes only when a
// search or WarmSearch runs, never during the call that pushed them.
//
//go:noinline // small enough to inline, which copied its undo into each of opSyncMerge's three faults (2.7 KB)
func markPush(s *Session) func() {
	n := len(s.Nodes)
	leaves := s.Leaves
	branches := append([]*tree.Branch(nil), s.Branches...)
	saved := make([]tree.Branch, len(branches))
	for i, b := range branches {
		saved[i] = *b
	}
	return func() {
		for i := len(s.Nodes) - 1; i >= n; i-- {
			if p := s.Parent[i]; p >= 0 {
				s.Children[p]--
			}
			delete(s.Index, s.Nodes[i].ID)
		}
		s.Nodes, s.Parent, s.Depth, s.Children = s.Nodes[:n], s.Parent[:n], s.Depth[:n], s.Children[:n]
		s.Leaves = leaves
		s.Branches = branches
		s.ByName = make(map[string]*tree.Branch, len(branches))
		s.LastBranch = nil
		for i, b := range branches {
			*b = saved[i]
			s.ByName[b.Name] = b
		}
	}
}

// opSyncForget drops a session from memory without recording a change:
//
//	{"operation":"sync.forget","sessionId":…}
//
// The shim uses it to undo a session that a failed write had created, so
// memory matches what is stored. The value is {"sessionId":…}.
func opSyncForget(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	s := st.trash[id]
	if s != nil {
		delete(st.trash, id)
		st.forgetKept() // its erasure deleted the kept index (store/erase.js)
	} else if s = st.sessions[id]; s == nil {
		return nil, tree.Errorf(SessionNotFound, "session %q does not exist", id)
	} else {
		st.remove(s)
	}
	if i := st.dirtyIndex(s.ID()); i >= 0 {
		st.setDirty(append(st.dirty[:i], st.dirty[i+1:]...))
	}
	return map[string]string{"sessionId": s.ID()}, nil
}
