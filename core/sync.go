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
	"encoding/json"
)

// opSyncMerge appends nodes written by another tab to an existing session:
//
//	{"operation":"sync.merge","sessionId":…,"nodes":[node…],"title"?:…,"updatedAt"?:…,"cursor"?:…,"activeBranch"?:…}
//
// nodes are in snapshot form, in the order they were stored (every parent
// before its children); each parent is a node of the session or an earlier
// node of the list, and no id may repeat one the session already has. The
// session's own cursor and active branch stay where they are (each tab keeps
// its own), except in a session that has no node yet: it adopts cursor and
// activeBranch, the stored ones of the tab that wrote the nodes. updatedAt
// is taken when it is later than the session's; a non-empty title replaces
// the session's. Faults are INVALID_SNAPSHOT naming the node; a failed merge
// changes nothing. The value is the session status.
func opSyncMerge(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	raw, ok := r.fields["nodes"]
	if !ok || len(bytes.TrimSpace(raw)) == 0 || bytes.TrimSpace(raw)[0] != '[' {
		return nil, invalidf("field \"nodes\" must be an array of nodes for operation \"sync.merge\"")
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, invalidf("field \"nodes\" must be an array: %s", jsonErrorText(err))
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

	// Validate every node before touching the session. scratch resolves
	// ids to the indexes they have (or will have) in s: the session's own
	// nodes are looked up in s.index and copied in on demand, so the check
	// costs O(len(list)), not O(session).
	scratch := &Session{id: s.id, index: make(map[string]int32, len(list)+1)}
	nodes := make([]*Node, len(list))
	parents := make([]int32, len(list))
	for i, rawNode := range list {
		var ids struct {
			ID       *string `json:"id"`
			ParentID *string `json:"parentId"`
		}
		if err := json.Unmarshal(rawNode, &ids); err != nil {
			return nil, snapshotFault("nodes[%d] has an ill-typed field: %s", i, jsonErrorText(err))
		}
		if ids.ID != nil {
			if _, dup := s.index[*ids.ID]; dup {
				return nil, snapshotFault("nodes[%d] repeats the id %q, already in session %q", i, *ids.ID, s.id)
			}
		}
		if ids.ParentID != nil {
			if p, ok := s.index[*ids.ParentID]; ok {
				scratch.index[*ids.ParentID] = p
			}
		}
		n, parent, perr := scratch.parseNode(rawNode, i)
		if perr != nil {
			return nil, perr
		}
		nodes[i], parents[i] = n, parent
		scratch.index[n.ID] = int32(len(s.nodes) + i)
	}
	if cursor != "" && len(s.nodes) == 0 {
		if _, ok := scratch.index[cursor]; !ok {
			return nil, snapshotFault("cursor %q is not a node of the merge", cursor)
		}
	}

	adopt := len(s.nodes) == 0 && s.cursor < 0
	for i, n := range nodes {
		s.push(n, parents[i])
	}
	if adopt && cursor != "" {
		s.cursor = s.index[cursor]
	}
	if adopt && active != "" {
		s.setActive(active)
	}
	if title != "" {
		s.title = title
	}
	if updated > s.updatedAt {
		s.updatedAt = updated
	}
	return s.status(), nil
}

// opSyncForget drops a session from memory without recording a change:
//
//	{"operation":"sync.forget","sessionId":…}
//
// The shim uses it to undo a session that a failed write had created, so
// memory matches what is stored. The value is {"sessionId":…}.
func opSyncForget(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	delete(st.sessions, s.id)
	for i, id := range st.order {
		if id == s.id {
			st.order = append(st.order[:i], st.order[i+1:]...)
			break
		}
	}
	for i := range st.dirty {
		if st.dirty[i].id == s.id {
			st.dirty = append(st.dirty[:i], st.dirty[i+1:]...)
			break
		}
	}
	return map[string]string{"sessionId": s.id}, nil
}
