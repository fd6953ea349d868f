package core

import (
	"slices"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// The trash. "delete" takes a session out of the store — out of sessions,
// search and every operation — into the trash, from which "trash.restore"
// brings it back whole; "trash.empty" (or "delete" with "permanent":
// true) erases it for good. Nothing inside a session is edited: a
// session is kept or dropped as a whole. In the browser the shim marks a
// trashed session's stored records (its meta record's deletedAt) and
// erases every record of an erased one (see js/store/erase.js), and other
// tabs follow.

// TrashItem is one session in the trash: the value of delete and an entry
// of trash.list.
type TrashItem struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
	NodeCount int    `json:"nodeCount"`
	// DeletedAt is when it was deleted (RFC 3339 UTC, milliseconds).
	DeletedAt string `json:"deletedAt"`
	UpdatedAt string `json:"updatedAt"`
}

func trashItem(s *Session) TrashItem {
	return TrashItem{SessionID: s.ID(), Title: s.Title, NodeCount: len(s.Nodes), DeletedAt: s.DeletedAt, UpdatedAt: s.UpdatedAt}
}

// taken reports whether id names a session of the store or of its trash:
// a new session may not take it.
func (st *Store) taken(id string) *Error {
	if st.sessions[id] != nil {
		return tree.Errorf(SessionAlreadyExists, "session %q already exists", id)
	}
	if st.trash[id] != nil {
		return tree.Errorf(SessionAlreadyExists, "session %q is in the trash; restore it or empty the trash first", id)
	}
	return nil
}

// remove takes session s out of the store's sessions, order and search
// index (not out of the trash or the change marks); a stub (paging.go)
// no longer counts as one.
func (st *Store) remove(s *Session) {
	if s.Paged != nil {
		st.stubs--
	}
	st.unindex(s)
	st.forgetKept()
	st.views.forget(s)
	delete(st.sessions, s.ID())
	if i := slices.Index(st.order, s.ID()); i >= 0 {
		st.order = slices.Delete(st.order, i, i+1)
	}
}

// toTrash moves the live session s into the trash, deleted at at.
func (st *Store) toTrash(s *Session, at string) {
	st.remove(s)
	s.DeletedAt = at
	if st.trash == nil {
		st.trash = make(map[string]*Session)
	}
	st.trash[s.ID()] = s
}

// fromTrash brings the trashed session s back into the store (last in
// the order, searchable again) and returns it. It comes back as a new
// Session value sharing s's nodes and tables: the search index keeps the
// documents s had as dead ones of their owner s, which must never match
// again (the live session is indexed afresh under a new owner key).
func (st *Store) fromTrash(s *Session) *Session {
	delete(st.trash, s.ID())
	back := *s
	back.DeletedAt = ""
	st.put(&back)
	return &back
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
		st.remove(s)
		st.markErased(s.ID(), r.op)
		return Erased{Erased: []string{s.ID()}}, nil
	}
	st.toTrash(s, st.timestamp())
	st.markDirty(s, len(s.Nodes), false, r.op)
	return trashItem(s), nil
}

// opTrashList answers {"operation":"trash.list"}: the sessions in the
// trash, the most recently deleted first.
func opTrashList(st *Store, r *request) (any, *Error) {
	out := make([]TrashItem, 0, len(st.trash))
	for _, s := range st.trash {
		out = append(out, trashItem(s))
	}
	slices.SortFunc(out, func(a, b TrashItem) int {
		if c := strings.Compare(b.DeletedAt, a.DeletedAt); c != 0 {
			return c
		}
		return strings.Compare(a.SessionID, b.SessionID)
	})
	return out, nil
}

// trashed returns the trashed session named by field "sessionId".
func (r *request) trashed(st *Store) (*Session, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	if s := st.trash[id]; s != nil {
		return s, nil
	}
	return nil, tree.Errorf(SessionNotFound, "session %q is not in the trash", id)
}

// opTrashRestore answers {"operation":"trash.restore","sessionId":…}: the
// session comes back from the trash as it was (nodes, cursor, branches,
// annotations). The value is its status. SESSION_NOT_FOUND when it is not
// in the trash.
func opTrashRestore(st *Store, r *request) (any, *Error) {
	s, err := r.trashed(st)
	if err != nil {
		return nil, err
	}
	s = st.fromTrash(s)
	st.markDirty(s, len(s.Nodes), false, r.op)
	return s.Status(), nil
}

// Erased is the value of trash.empty and of delete with "permanent": the
// ids of the sessions erased for good.
type Erased struct {
	Erased []string `json:"erased"`
}

// opTrashEmpty answers {"operation":"trash.empty","sessionId"?:…}: the
// session named, or every session in the trash, is erased for good.
// SESSION_NOT_FOUND when the session named is not in the trash.
func opTrashEmpty(st *Store, r *request) (any, *Error) {
	var ids []string
	if r.has("sessionId") {
		s, err := r.trashed(st)
		if err != nil {
			return nil, err
		}
		ids = []string{s.ID()}
	} else {
		for id := range st.trash {
			ids = append(ids, id)
		}
		slices.Sort(ids)
	}
	for _, id := range ids {
		delete(st.trash, id)
		st.markErased(id, r.op)
	}
	if len(ids) > 0 {
		st.forgetKept() // the erasure deletes the kept index (store/erase.js)
	}
	return Erased{Erased: append([]string{}, ids...)}, nil
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
	if at != "" {
		s, err := st.session(id)
		if err != nil {
			return nil, err
		}
		st.toTrash(s, at)
	} else {
		s, err := r.trashed(st)
		if err != nil {
			return nil, err
		}
		st.fromTrash(s)
	}
	return map[string]string{"sessionId": id}, nil
}
