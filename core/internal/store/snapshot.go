package store

import (
	"github.com/sessiontree/sessiontree/core/internal/names"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// LoadSession parses raw (valid: known valid, compact JSON) as session id
// and stores it in place of a session of that id (keeping its creation
// time, tool, project and, when the snapshot has none, title), recording
// the change under op; a trashed id is SESSION_ALREADY_EXISTS.
func (st *Store) LoadSession(id string, raw []byte, valid bool, op string) (*tree.Session, *tree.Error) {
	s, hasTitle, err := tree.ParseSnapshotOf(raw, id, valid)
	if err != nil {
		return nil, err
	}
	if err := checkSnapshotNames(s); err != nil {
		return nil, err
	}
	if st.Trash[id] != nil {
		return nil, st.Taken(id)
	}
	now := st.Timestamp()
	s.CreatedAt = now
	if old := st.ByID[id]; old != nil {
		s.CreatedAt = old.CreatedAt
		s.Tool, s.Project = old.Tool, old.Project
		if !hasTitle {
			s.Title = old.Title
		}
	}
	s.UpdatedAt = now
	st.Put(s)
	st.markDirty(s, 0, true, op)
	return s, nil
}

// checkSnapshotNames applies names.Problem to the branch names and node ids
// of a session snapshot.load built: a snapshot given by a caller is checked
// like a request (restore, which brings back what the store itself wrote,
// keeps the older, looser check so that no stored session is lost).
func checkSnapshotNames(s *tree.Session) *tree.Error {
	for _, b := range s.Branches {
		if p := names.Problem(b.Name, names.MaxBranchNameLength); p != "" {
			return tree.SnapshotFault("branch name %s %s", names.Quote(b.Name), p)
		}
	}
	for i := range s.Nodes {
		if id := s.Nodes[i].ID; !names.PlainASCII(id) {
			if p := names.Problem(id, names.MaxNodeIDLength); p != "" {
				return tree.SnapshotFault("node id %s %s", names.Quote(id), p)
			}
		}
	}
	return nil
}
