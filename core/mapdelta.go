package core

import (
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// The map's answer to a view that holds an earlier one: a map value
// carries its "revision" (its layout's number and the session's node
// count), and a map request that gives it back while that layout still
// stands (the nodes appended since only extended runs) is answered with
// what changed, O(segments) integers and the new ends' ids, not the whole
// map again:
//
//	{"sessionId","nodeCount","revision","delta":true,"count":S,
//	 "changed":[[segment, length, last node id]…],
//	 "branches":[names],"flags":[S bit sets],
//	 "cursor":…,"preferred":…,"labels":[…],"tips":[…],"forks":[…],"source":…}
//
// count, parent, x, y, first, branch and hidden are those of the map the
// revision came from; "changed" lists the segments that grew; every other
// field replaces the earlier one (static/map-model.js applyMapDelta). A
// revision of another layout (a fork, a branch, an annotation, a session
// paged out and in, another run of the Worker) or one the session cannot
// have is answered with the whole map — never an error, but for a
// revision that is not a string (INVALID_ARGUMENT).

// revision returns the revision of a map answer made from m when the
// session has n nodes: "<layout number>.<n>".
func (m *mapSegments) revision(n int) string {
	return strconv.FormatUint(m.id, 10) + "." + strconv.Itoa(n)
}

// deltaFrom reads a revision a view gave back: ok and the node count it
// was made at when it names m's layout at a node count this layout had
// (from its making to n, the session's count now).
func (m *mapSegments) deltaFrom(revision string, n int) (int, bool) {
	layout, count, found := strings.Cut(revision, ".")
	if !found {
		return 0, false
	}
	id, err := strconv.ParseUint(layout, 10, 64)
	if err != nil || id != m.id {
		return 0, false
	}
	from, err := strconv.Atoi(count)
	if err != nil || from < m.base || from > n || from > m.nodes {
		return 0, false
	}
	return from, true
}

// mapDelta is the value of map given a current revision: the segments
// grown since node count `from`, and the marks.
type mapDelta struct {
	mapValue
	from int
}

// AppendJSON appends the delta's JSON encoding (see the comment above) to b.
func (v *mapDelta) AppendJSON(b []byte) []byte {
	s, m := v.s, v.m
	branches, _, tips := v.branchTable()
	b = v.appendHead(b, `,"delta":true,"count":`)
	b = append(b, `,"changed":[`...)
	seen := map[int32]bool{}
	for i := v.from; i < len(s.nodes); i++ {
		seg := m.segOf[i]
		if seen[seg] {
			continue
		}
		if len(seen) > 0 {
			b = append(b, ',')
		}
		seen[seg] = true
		b = append(b, '[')
		b = jsonx.AppendInt(b, int(m.visOf[seg]))
		b = append(b, ',')
		b = jsonx.AppendInt(b, int(m.length(s, seg)))
		b = append(b, ',')
		b = jsonx.AppendString(b, s.nodes[m.last[seg]].ID)
		b = append(b, ']')
	}
	b = append(b, ']')
	b = appendNames(b, `,"branches":[`, branches.list)
	b = append(b, `,"flags":[`...)
	for k, f := range v.flags() {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendInt(b, int(f))
	}
	b = append(b, ']')
	b = v.appendMarks(b)
	b = appendTips(b, tips)
	b = appendFamilyMarks(b, v.forks, v.source)
	return append(b, '}')
}
