package core

import (
	"bytes"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// opPageStub adds or updates paged-out sessions from their stored
// summaries, in the order given:
//
//	{"operation":"page.stub","sessions":[{"sessionId","title","createdAt","updatedAt","nodeCount","cursor"?,"activeBranch"?,"tool"?,"project"?},…]}
//
// An unknown id becomes a stub at the end of the order; a stub takes the
// summary (without "cursor" and "activeBranch" it keeps its own: a tab that
// moved its cursor keeps it); a session in memory is left as it is (the
// shim takes its stored changes in by sync.merge). Records no change.
// The value is {"stubs": the number of stubs now}.
func opPageStub(st *Store, r *request) (any, *Error) {
	list, ok := store.ReadStubEntries(r.fields["sessions"])
	if !ok || !r.has("sessions") {
		return nil, tree.Invalidf("field \"sessions\" must be an array of session summaries for operation \"page.stub\"")
	}
	n, err := st.s.PageStubOf(list)
	if err != nil {
		return nil, err
	}
	return map[string]int{"stubs": n}, nil
}

// opPageOut takes a session's nodes out of memory, leaving its stub:
//
//	{"operation":"page.out","sessionId":…}
//
// Refused (INVALID_ARGUMENT) while the session has changes not yet
// drained: they are not stored yet. A stub stays as it is. Records no
// change. The value is {"sessionId","nodeCount"}.
func opPageOut(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	n, err := st.s.PageOut(id)
	if err != nil {
		return nil, err
	}
	return map[string]any{"sessionId": id, "nodeCount": n}, nil
}

// opPageFaults answers the ids of the sessions calls faulted on (PagedOut)
// since the last page.faults, in the order they were needed, and forgets
// them:
//
//	{"operation":"page.faults"} → ["a","b"]
func opPageFaults(st *Store, r *request) (any, *Error) {
	return st.s.TakeFaults(), nil
}

// opPageDamaged marks a paged-out session whose stored records could
// not be read into memory, so that a search across every session passes
// over it and names it in "skipped" (store.Store.MarkUnreadable):
//
//	{"operation":"page.damaged","sessionId":…,"message":…}
//
// Records no change. The value is {"sessionId"}.
func opPageDamaged(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	why, err := r.str("message")
	if err != nil {
		return nil, err
	}
	if err := st.s.MarkUnreadable(id, why); err != nil {
		return nil, err
	}
	return map[string]string{"sessionId": id}, nil
}

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

	return st.s.SyncMerge(s, list, annotations, title, updated, cursor, active)
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
	if err := st.s.Forget(id); err != nil {
		return nil, err
	}
	return map[string]string{"sessionId": id}, nil
}

// opDelete answers {"operation":"delete","sessionId":…,"permanent"?:bool}:
// the session leaves the store for the trash (the value is its
// TrashItem), or with "permanent": true is erased at once (the value is
// {"erased":[id]}). SESSION_NOT_FOUND for a session that is not in the
// store (one in the trash included).
func opDelete(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	permanent, err := r.optBool("permanent")
	if err != nil {
		return nil, err
	}
	if permanent {
		st.s.Erase(s, r.op)
		return Erased{Erased: []string{s.ID()}}, nil
	}
	return st.s.Delete(s, r.op), nil
}

// opTrashList answers {"operation":"trash.list"}: the sessions in the
// trash, the most recently deleted first.
func opTrashList(st *Store, r *request) (any, *Error) {
	return st.s.TrashList(), nil
}

// opTrashRestore answers {"operation":"trash.restore","sessionId":…}: the
// session comes back from the trash as it was (nodes, cursor, branches,
// annotations). The value is its status. SESSION_NOT_FOUND when it is not
// in the trash.
func opTrashRestore(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	s, err := st.s.Trashed(id)
	if err != nil {
		return nil, err
	}
	return st.s.Restore(s, r.op), nil
}

// opTrashEmpty answers {"operation":"trash.empty","sessionId"?:…}: the
// session named, or every session in the trash, is erased for good.
// SESSION_NOT_FOUND when the session named is not in the trash.
func opTrashEmpty(st *Store, r *request) (any, *Error) {
	var ids []string
	if _, named := r.fields["sessionId"]; named && !r.has("sessionId") {
		// null (what JSON.stringify makes of NaN or Infinity) would empty the whole trash.
		return nil, tree.Invalidf("field \"sessionId\" of operation \"trash.empty\" is null: name a session in the trash, or leave the field out to empty the whole trash")
	}
	if r.has("sessionId") {
		id, err := r.sessionID()
		if err != nil {
			return nil, err
		}
		if _, err := st.s.Trashed(id); err != nil {
			return nil, err
		}
		ids = []string{id}
	}
	return Erased{Erased: st.s.EmptyTrash(ids, r.op)}, nil
}

// opSyncTrash moves a session between the store and the trash without
// recording a change, as another tab stored it:
//
//	{"operation":"sync.trash","sessionId":…,"deletedAt":…|null}
//
// With deletedAt a live session goes to the trash; with null a trashed
// one comes back. The value is {"sessionId":…}.
func opSyncTrash(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	at, err := r.optStr("deletedAt")
	if err != nil {
		return nil, err
	}
	if err := st.s.SyncTrash(id, at); err != nil {
		return nil, err
	}
	return map[string]string{"sessionId": id}, nil
}
