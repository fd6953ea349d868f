package tree

import (
	"maps"
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// loneWords says why a snapshot's name or title holding a lone surrogate
// escape (\ud800 without its pair) is refused: decoded, it would be
// U+FFFD, so the snapshot would not save back as it was given and two ids
// could meet as one. Message content keeps its JSON, lone surrogates and
// all.
const loneWords = "holds a lone UTF-16 surrogate (half of a character cut in two); ids, branch names and titles must be valid Unicode"

// topFields returns the fault of a snapshot's members (top, raw) that no
// version-1 snapshot has (in name order), else of the first of its
// sessionId, title, cursor and activeBranch that holds a lone surrogate
// escape; nil when there is neither.
func topFields(top map[string][]byte) *Error {
	for _, key := range slices.Sorted(maps.Keys(top)) {
		switch key {
		case "version", "sessionId", "title", "cursor", "activeBranch", "nodes", "annotations":
		default:
			return SnapshotFault("unknown field %q", key)
		}
	}
	for _, key := range [...]string{"sessionId", "title", "cursor", "activeBranch"} {
		if jsonx.LoneSurrogate(top[key]) >= 0 {
			return SnapshotFault("field %q %s", key, loneWords)
		}
	}
	return nil
}

// nodeLone returns the fault of nodes[i] when its id, parentId or branch
// holds a lone surrogate escape, nil when none does.
func nodeLone(f *nodeFields, i int) *Error {
	for _, field := range [...]struct {
		name string
		raw  []byte
	}{{"id", f.id}, {"parentId", f.parentID}, {"branch", f.branch}} {
		if jsonx.LoneSurrogate(field.raw) >= 0 {
			return SnapshotFault("nodes[%d] field %q %s", i, field.name, loneWords)
		}
	}
	return nil
}
