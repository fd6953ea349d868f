package core

import (
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

func opSnapshotSave(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return tree.SnapshotValue{Session: s}, nil
}

func opSnapshotLoad(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	if !r.has("snapshot") {
		return nil, tree.Invalidf("field \"snapshot\" is required for operation \"snapshot.load\"")
	}
	s, err := st.s.LoadSession(id, r.fields["snapshot"], r.snapshotValid(), r.op)
	if err != nil {
		return nil, err
	}
	return s.Status(), nil
}

// opRestore brings back a session the JS shim read from IndexedDB: a
// snapshot plus the stored title and times. It records no change, since the
// session is already stored.
func opRestore(st *Store, r *request) (any, *Error) {
	if !r.has("snapshot") {
		return nil, tree.Invalidf("field \"snapshot\" is required for operation \"restore\"")
	}
	s, _, err := tree.ParseSnapshotOf(r.fields["snapshot"], "", r.snapshotValid())
	if err != nil {
		return nil, err
	}
	title, err := r.optStr("title")
	if err != nil {
		return nil, err
	}
	created, err := r.optStr("createdAt")
	if err != nil {
		return nil, err
	}
	updated, err := r.optStr("updatedAt")
	if err != nil {
		return nil, err
	}
	if created == "" && !r.has("createdAt") {
		created = st.s.Timestamp() // "" is an undated session's: it stays so
	}
	if updated == "" {
		updated = created
	}
	if title != "" {
		s.Title = title
	}
	if err := restoreOrigin(s, r); err != nil {
		return nil, err
	}
	s.CreatedAt, s.UpdatedAt = created, updated
	deleted, err := r.optStr("deletedAt")
	if err != nil {
		return nil, err
	}
	st.s.PutRestored(s, deleted)
	if deleted != "" {
		return store.TrashItemOf(s), nil
	}
	return s.Status(), nil
}

// restoreOrigin takes a restore request's optional "tool" and "project"
// (strings; INVALID_ARGUMENT naming the field otherwise).
func restoreOrigin(s *Session, r *request) *Error {
	tool, err := r.optStr("tool")
	if err != nil {
		return err
	}
	project, err := r.optStr("project")
	if err != nil {
		return err
	}
	s.SetOrigin(tool, project)
	return nil
}
