package tree

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

// AppendSnapshot appends the session's snapshot:
//
//	{"version":1,"sessionId":…,"title"?:…,"cursor":…|null,"activeBranch":…,"nodes":[…],"annotations"?:[…]}
//
// "title" is written only when the session has one, "annotations" (see
// Annotation) only when it has any. Nodes are in append
// order, every parent before its children.
func (s *Session) AppendSnapshot(b []byte) []byte {
	b = append(b, `{"version":1,"sessionId":`...)
	b = jsonx.AppendString(b, s.id)
	if s.Title != "" {
		b = append(b, `,"title":`...)
		b = jsonx.AppendString(b, s.Title)
	}
	b = append(b, `,"cursor":`...)
	b = jsonx.AppendNullableString(b, s.NodeID(s.Cursor))
	b = append(b, `,"activeBranch":`...)
	b = jsonx.AppendString(b, s.Active)
	b = append(b, `,"nodes":[`...)
	for i, n := range s.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		b = n.AppendJSON(b)
	}
	b = append(b, ']')
	b = s.appendAnnotations(b)
	return append(b, '}')
}

// SnapshotValue is the value of snapshot.save: the session's snapshot,
// written straight into the envelope with room made for it once (growing
// the buffer step by step allocated 7× the snapshot's size).
type SnapshotValue struct{ Session *Session }

// AppendJSON appends the session's snapshot to b.
func (v SnapshotValue) AppendJSON(b []byte) []byte {
	size := 256 + len(v.Session.id) + len(v.Session.Title)
	for _, n := range v.Session.Nodes {
		size += 96 + 2*len(n.ID) + len(n.Branch) + len(n.Kind) + len(n.Timestamp) + len(n.Message) + len(n.Summary) + len(n.Source)
	}
	return v.Session.AppendSnapshot(slices.Grow(b, size))
}

// Clip returns raw cut to 40 bytes for error messages.
func Clip(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}
