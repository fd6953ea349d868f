package core

import (
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// SnapshotVersion is the snapshot version this build writes. Older versions
// are brought up to it by the stepwise functions in migrations.
const SnapshotVersion = 1

// migrations[v] turns a version-v snapshot object into a version v+1 one.
// Version 1 is the first, so the table is empty; a version 2 adds
// migrations[1] and every older snapshot still loads.
var migrations = map[int]func(map[string][]byte) (map[string][]byte, error){}

// appendSnapshot appends the session's snapshot:
//
//	{"version":1,"sessionId":…,"title"?:…,"cursor":…|null,"activeBranch":…,"nodes":[…],"annotations"?:[…]}
//
// "title" is written only when the session has one, "annotations" (see
// Annotation) only when it has any. Nodes are in append
// order, every parent before its children.
func (s *Session) appendSnapshot(b []byte) []byte {
	b = append(b, `{"version":1,"sessionId":`...)
	b = jsonx.AppendString(b, s.id)
	if s.title != "" {
		b = append(b, `,"title":`...)
		b = jsonx.AppendString(b, s.title)
	}
	b = append(b, `,"cursor":`...)
	b = jsonx.AppendNullableString(b, s.nodeID(s.cursor))
	b = append(b, `,"activeBranch":`...)
	b = jsonx.AppendString(b, s.active)
	b = append(b, `,"nodes":[`...)
	for i, n := range s.nodes {
		if i > 0 {
			b = append(b, ',')
		}
		b = n.AppendJSON(b)
	}
	b = append(b, ']')
	b = s.appendAnnotations(b)
	return append(b, '}')
}

func opSnapshotSave(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return snapshotValue{s}, nil
}

// snapshotValue is the value of snapshot.save: the session's snapshot,
// written straight into the envelope with room made for it once (growing
// the buffer step by step allocated 7× the snapshot's size).
type snapshotValue struct{ s *Session }

// AppendJSON appends the session's snapshot to b.
func (v snapshotValue) AppendJSON(b []byte) []byte {
	size := 256 + len(v.s.id) + len(v.s.title)
	for _, n := range v.s.nodes {
		size += 96 + 2*len(n.ID) + len(n.Branch) + len(n.Kind) + len(n.Timestamp) + len(n.Message) + len(n.Summary) + len(n.Source)
	}
	return v.s.appendSnapshot(slices.Grow(b, size))
}

// clip returns raw cut to 40 bytes for error messages.
func clip(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}

func opSnapshotLoad(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	if !r.has("snapshot") {
		return nil, invalidf("field \"snapshot\" is required for operation \"snapshot.load\"")
	}
	s, err := st.loadSnapshot(id, r.fields["snapshot"], r.snapshotValid(), r.op)
	if err != nil {
		return nil, err
	}
	return s.status(), nil
}

// loadSnapshot parses raw (valid: known valid, compact JSON) as session id
// and stores it in place of a session of that id (keeping its creation
// time, tool, project and, when the snapshot has none, title), recording
// the change under op; a trashed id is SESSION_ALREADY_EXISTS.
func (st *Store) loadSnapshot(id string, raw []byte, valid bool, op string) (*Session, *Error) {
	s, hasTitle, err := parseSnapshotOf(raw, id, valid)
	if err != nil {
		return nil, err
	}
	if err := checkSnapshotNames(s); err != nil {
		return nil, err
	}
	if st.trash[id] != nil {
		return nil, st.taken(id)
	}
	now := st.timestamp()
	s.createdAt = now
	if old := st.sessions[id]; old != nil {
		s.createdAt = old.createdAt
		s.tool, s.project = old.tool, old.project
		if !hasTitle {
			s.title = old.title
		}
	}
	s.updatedAt = now
	st.put(s)
	st.markDirty(s, 0, true, op)
	return s, nil
}

// opRestore brings back a session the JS shim read from IndexedDB: a
// snapshot plus the stored title and times. It records no change, since the
// session is already stored.
func opRestore(st *Store, r *request) (any, *Error) {
	if !r.has("snapshot") {
		return nil, invalidf("field \"snapshot\" is required for operation \"restore\"")
	}
	s, _, err := parseSnapshotOf(r.fields["snapshot"], "", r.snapshotValid())
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
		created = st.timestamp() // "" is an undated session's: it stays so
	}
	if updated == "" {
		updated = created
	}
	if title != "" {
		s.title = title
	}
	if err := s.restoreOrigin(r); err != nil {
		return nil, err
	}
	s.createdAt, s.updatedAt = created, updated
	deleted, err := r.optStr("deletedAt")
	if err != nil {
		return nil, err
	}
	if old := st.trash[s.id]; old != nil {
		delete(st.trash, s.id)
	}
	if deleted != "" {
		// A session another tab (or an earlier page) put in the trash.
		if old := st.sessions[s.id]; old != nil {
			st.remove(old)
		}
		s.deletedAt = deleted
		if st.trash == nil {
			st.trash = make(map[string]*Session)
		}
		st.trash[s.id] = s
		return s.trashItem(), nil
	}
	st.put(s)
	return s.status(), nil
}
