package views

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

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
// revision that is not a string (INVALID_ARGUMENT). What a revision names
// and which segments grew are treeview.Map's (Revision, DeltaFrom, Grown).

// MapDelta is the value of map given a current revision: the segments
// grown since node count `from`, and the marks.
type MapDelta struct {
	Map
	From int
}

// AppendJSON appends the delta's JSON encoding (see the comment above) to b.
func (v *MapDelta) AppendJSON(b []byte) []byte {
	s, m := v.Session, v.Layout
	branches, _, tips := v.branchTable()
	b = v.appendHead(b, `,"delta":true,"count":`)
	b = append(b, `,"changed":[`...)
	for k, seg := range m.Grown(v.From, len(s.Nodes)) {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsonx.AppendInt(b, int(m.VisOf[seg]))
		b = append(b, ',')
		b = jsonx.AppendInt(b, int(m.Length(v.Tree, seg)))
		b = append(b, ',')
		b = jsonx.AppendString(b, s.Nodes[m.Last[seg]].ID)
		b = append(b, ']')
	}
	b = append(b, ']')
	b = appendNames(b, `,"branches":[`, branches.List)
	b = append(b, `,"flags":[`...)
	for k, f := range m.Flags(s.Cursor, s.Preferred) {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendInt(b, int(f))
	}
	b = append(b, ']')
	b = v.appendMarks(b)
	b = appendTips(b, tips)
	b = appendFamilyMarks(b, v.Forks, v.Source)
	return append(b, '}')
}
