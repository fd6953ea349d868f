package store

import (
	"slices"

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
	if i := slices.Index(st.Order, s.ID()); i >= 0 {
		st.Order = slices.Delete(st.Order, i, i+1)
	}
}

// ToTrash moves the live session s into the trash, deleted at at.
func (st *Store) ToTrash(s *tree.Session, at string) {
	st.Remove(s)
	s.DeletedAt = at
	if st.Trash == nil {
		st.Trash = make(map[string]*tree.Session)
	}
	st.Trash[s.ID()] = s
}

// FromTrash brings the trashed session s back into the store (last in
// the order, searchable again) and returns it. It comes back as a new
// Session value sharing s's nodes and tables: the search index keeps the
// documents s had as dead ones of their owner s, which must never match
// again (the live session is indexed afresh under a new owner key).
func (st *Store) FromTrash(s *tree.Session) *tree.Session {
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
