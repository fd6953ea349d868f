package store

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

// TrashItemOf returns the trash listing of s, a session in the trash.
func TrashItemOf(s *tree.Session) TrashItem {
	return TrashItem{SessionID: s.ID(), Title: s.Title, NodeCount: len(s.Nodes), DeletedAt: s.DeletedAt, UpdatedAt: s.UpdatedAt}
}

// Taken reports whether id names a session of the store or of its trash:
// a new session may not take it.
func (st *Store) Taken(id string) *tree.Error {
	if st.ByID[id] != nil {
		return tree.Errorf(tree.SessionAlreadyExists, "session %q already exists", id)
	}
	if st.Trash[id] != nil {
		return tree.Errorf(tree.SessionAlreadyExists, "session %q is in the trash; restore it or empty the trash first", id)
	}
	return nil
}

// Remove takes session s out of the store's sessions, order and search
// index (not out of the trash or the change marks); a stub (paging.go)
// no longer counts as one.
func (st *Store) Remove(s *tree.Session) {
	if s.Paged != nil {
		st.Stubs--
	}
	st.unindex(s)
	st.ForgetKept()
	st.leave(s)
	delete(st.ByID, s.ID())
	if i, ok := st.place[s.ID()]; ok {
		delete(st.place, s.ID())
		st.Order = slices.Delete(st.Order, i, i+1)
		st.list = slices.Delete(st.list, i, i+1)
		for ; i < len(st.Order); i++ {
			st.place[st.Order[i]] = i
		}
	}
}

// toTrash moves the live session s into the trash, deleted at at.
func (st *Store) toTrash(s *tree.Session, at string) {
	st.Remove(s)
	s.DeletedAt = at
	if st.Trash == nil {
		st.Trash = make(map[string]*tree.Session)
	}
	st.Trash[s.ID()] = s
}

// fromTrash brings the trashed session s back into the store (last in
// the order, searchable again) and returns it. It comes back as a new
// Session value sharing s's nodes and tables: the search index keeps the
// documents s had as dead ones of their owner s, which must never match
// again (the live session is indexed afresh under a new owner key).
func (st *Store) fromTrash(s *tree.Session) *tree.Session {
	delete(st.Trash, s.ID())
	back := *s
	back.DeletedAt = ""
	st.Put(&back)
	return &back
}

// Erased is the value of trash.empty and of delete with "permanent": the
// ids of the sessions erased for good.
type Erased struct {
	Erased []string `json:"erased"`
}

// Trashed returns the session id names in the trash, or SESSION_NOT_FOUND.
func (st *Store) Trashed(id string) (*tree.Session, *tree.Error) {
	if s := st.Trash[id]; s != nil {
		return s, nil
	}
	return nil, tree.Errorf(tree.SessionNotFound, "session %q is not in the trash", id)
}

// Delete moves the live session s into the trash (deleted now) and
// records it under op: its TrashItem.
func (st *Store) Delete(s *tree.Session, op string) TrashItem {
	st.toTrash(s, st.Timestamp())
	st.markDirty(s, len(s.Nodes), false, op)
	return TrashItemOf(s)
}

// Erase removes the live session s for good and records its erasure
// under op.
func (st *Store) Erase(s *tree.Session, op string) {
	st.Remove(s)
	st.markErased(s.ID(), op)
}

// TrashList returns the sessions in the trash, the most recently deleted
// first (then by id).
func (st *Store) TrashList() []TrashItem {
	out := make([]TrashItem, 0, len(st.Trash))
	for _, s := range st.Trash {
		out = append(out, TrashItemOf(s))
	}
	slices.SortFunc(out, func(a, b TrashItem) int {
		if c := strings.Compare(b.DeletedAt, a.DeletedAt); c != 0 {
			return c
		}
		return strings.Compare(a.SessionID, b.SessionID)
	})
	return out
}

// Restore brings the trashed session s back as it was and records it
// under op: its status.
func (st *Store) Restore(s *tree.Session, op string) tree.Status {
	s = st.fromTrash(s)
	st.markDirty(s, len(s.Nodes), false, op)
	return s.Status()
}

// EmptyTrash erases the trashed sessions ids for good (every trashed
// session, in id order, when ids is nil), records each erasure under op
// and returns the ids erased.
func (st *Store) EmptyTrash(ids []string, op string) []string {
	if ids == nil {
		for id := range st.Trash {
			ids = append(ids, id)
		}
		slices.Sort(ids)
	}
	for _, id := range ids {
		delete(st.Trash, id)
		st.markErased(id, op)
	}
	if len(ids) > 0 {
		st.ForgetKept() // the erasure deletes the kept index (store/erase.js)
	}
	return append([]string{}, ids...)
}

// SyncTrash moves session id between the store and the trash as another
// tab stored it, recording no change: with at (its deletion time) a live
// session goes to the trash; with "" a trashed one comes back.
// SESSION_NOT_FOUND (or PAGED_OUT) when it is not where it should be.
func (st *Store) SyncTrash(id, at string) *tree.Error {
	if at != "" {
		s, err := st.Lookup(id)
		if err != nil {
			return err
		}
		st.toTrash(s, at)
		return nil
	}
	s, err := st.Trashed(id)
	if err != nil {
		return err
	}
	st.fromTrash(s)
	return nil
}

// Forget drops session id from memory, or from the trash, without
// recording a change, and drops its pending change mark: the shim undoes
// a session a failed write had created, so memory matches what is
// stored. SESSION_NOT_FOUND when it is in neither.
func (st *Store) Forget(id string) *tree.Error {
	s := st.Trash[id]
	if s != nil {
		delete(st.Trash, id)
		st.ForgetKept() // its erasure deleted the kept index (store/erase.js)
	} else if s = st.ByID[id]; s == nil {
		return tree.Errorf(tree.SessionNotFound, "session %q does not exist", id)
	} else {
		st.Remove(s)
	}
	if i := st.dirtyIndex(s.ID()); i >= 0 {
		st.setDirty(append(st.dirty[:i], st.dirty[i+1:]...))
	}
	return nil
}

// PutRestored puts s, a session read back from storage, where it was
// stored, recording no change: into the trash when deletedAt is set (a
// session another tab or an earlier page deleted, leaving the store if it
// was live), else into the store. Either replaces what the store held
// under its id.
func (st *Store) PutRestored(s *tree.Session, deletedAt string) {
	delete(st.Trash, s.ID())
	if deletedAt == "" {
		st.Put(s)
		return
	}
	if old := st.ByID[s.ID()]; old != nil {
		st.Remove(old)
	}
	s.DeletedAt = deletedAt
	if st.Trash == nil {
		st.Trash = make(map[string]*tree.Session)
	}
	st.Trash[s.ID()] = s
}
