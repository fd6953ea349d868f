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
	return loneFault("", namedRaw{"sessionId", top["sessionId"]}, namedRaw{"title", top["title"]},
		namedRaw{"cursor", top["cursor"]}, namedRaw{"activeBranch", top["activeBranch"]})
}

// namedRaw is a snapshot field's name and its raw JSON value (nil when absent).
type namedRaw struct {
	name string
	raw  []byte
}

// loneFault returns the INVALID_SNAPSHOT fault of the first of fields
// whose value holds a lone surrogate escape, the field named after prefix
// ("nodes[3]", "annotations[0]"; "" for the snapshot's own members); nil
// when none does.
func loneFault(prefix string, fields ...namedRaw) *Error {
	for _, f := range fields {
		if jsonx.LoneSurrogate(f.raw) < 0 {
			continue
		}
		if prefix == "" {
			return SnapshotFault("field %q %s", f.name, loneWords)
		}
		return SnapshotFault("%s field %q %s", prefix, f.name, loneWords)
	}
	return nil
}

// nodeLone returns the fault of nodes[i] when its id, parentId or branch
// holds a lone surrogate escape, nil when none does.
func nodeLone(f *nodeFields, i int) *Error {
	return loneFault(jsonx.Sprintf("nodes[%d]", i), namedRaw{"id", f.id}, namedRaw{"parentId", f.parentID}, namedRaw{"branch", f.branch})
}
