package core

import (
	"math"
	"sort"
	"strconv"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Segment flags of the value of map (bit values of its "flags" column).
const (
	segOnPath     = 1 << iota // some of its nodes are on the root→cursor path
	segPreferred              // some of its nodes are on the preferred path
	segHiddenRoot             // it stands, collapsed, for a hidden subtree
)

// opMap answers "map": the session as a tidy tree of segments (runs of
// nodes without a fork, see mapSegments) laid out by tidy.Layout, in
// columns, one entry per visible segment in segment order (parents
// first):
//
//	{"sessionId","nodeCount":N,"count":S,"width":W,"height":H,
//	 "branches":[names],
//	 "parent":[S segment indexes, −1 for a root],
//	 "x":[S numbers: layout units, 0 … W],"y":[S depths in segments, 0 … H],
//	 "length":[S node counts],"first":[S node ids],"last":[S node ids],
//	 "branch":[S indexes into branches],
//	 "flags":[S bit sets: 1 on the cursor's path, 2 on the preferred path,
//	          4 a hidden subtree drawn collapsed],
//	 "hidden":[[segment, nodes in the hidden subtree]…],
//	 "cursor":{"segment","offset","nodeId"}|null,
//	 "preferred":{"segment","offset","nodeId"}|null,
//	 "labels":[[segment, offset, label]…],"tips":[[segment, offset, branch index]…],
//	 "forks":[[segment, offset, sessionId, kind]…],"source":{…}|null}
//
// forks and source place the family on the map (mapfamily.go).
//
// A node is addressed by its segment and its offset in it (0 is "first",
// length−1 is "last"); the nodes of a segment are consecutive rows of
// tree.rows, so a view finds their ids there. A mark inside a hidden
// subtree is placed at the end of the collapsed segment. Errors: those of
// "sessionId" (INVALID_ARGUMENT, SESSION_NOT_FOUND).
//
// The layout is kept with the session: an answer after appends that only
// extend runs costs O(segments), without a walk over the nodes.
func opMap(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	since, err := r.optStr("revision")
	if err != nil {
		return nil, err
	}
	m := st.mapOf(s)
	v := mapValue{s: s, m: m, forks: st.mapForks(s, m), source: st.mapSource(s, m)}
	if from, ok := m.deltaFrom(since, len(s.nodes)); ok {
		return &mapDelta{v, from}, nil
	}
	return &v, nil
}

// mapValue is the value of map; it writes itself into the reply.
type mapValue struct {
	s      *Session
	m      *mapSegments
	forks  []mapFork // mapfamily.go
	source *mapFork
}

// AppendJSON appends the map's JSON encoding (see opMap) to b.
func (v *mapValue) AppendJSON(b []byte) []byte {
	m := v.m
	branches, branchCol, tips := v.branchTable()
	width, height := 0.0, int32(0)
	for k := range m.vis {
		width = math.Max(width, m.x[k])
		height = max(height, m.y[k])
	}
	b = v.appendHead(b, `,"count":`)
	b = append(b, `,"width":`...)
	b = appendUnits(b, width)
	b = append(b, `,"height":`...)
	b = jsonx.AppendInt(b, int(height))
	b = appendNames(b, `,"branches":[`, branches.list)
	b = v.appendColumns(b, branchCol)
	b = v.appendMarks(b)
	b = appendTips(b, tips)
	b = appendFamilyMarks(b, v.forks, v.source)
	return append(b, '}')
}

// appendHead appends {"sessionId","nodeCount","revision", then sep and
// the visible segments' count: the start of a whole map and of a delta.
func (v *mapValue) appendHead(b []byte, sep string) []byte {
	s, m := v.s, v.m
	b = append(b, `{"sessionId":`...)
	b = jsonx.AppendString(b, s.id)
	b = append(b, `,"nodeCount":`...)
	b = jsonx.AppendInt(b, len(s.nodes))
	b = append(b, `,"revision":`...)
	b = jsonx.AppendString(b, m.revision(len(s.nodes)))
	b = append(b, sep...)
	return jsonx.AppendInt(b, len(m.vis))
}

// branchTable names the branches of the answer: each visible segment's
// branch index (in segment order, so the same layout always numbers them
// alike), then each branch tip's [segment, offset, branch index].
func (v *mapValue) branchTable() (*names, []int32, [][3]int32) {
	s, m := v.s, v.m
	branches := newNames()
	branchCol := make([]int32, len(m.vis))
	for k, seg := range m.vis {
		branchCol[k] = int32(branches.of(s.nodes[m.first[seg]].Branch))
	}
	var tips [][3]int32
	for _, br := range s.branches {
		if br.tip >= 0 {
			seg, off := m.place(s, br.tip)
			tips = append(tips, [3]int32{seg, off, int32(branches.of(br.name))})
		}
	}
	return branches, branchCol, tips
}

// appendTips appends ,"tips":[[segment, offset, branch index]…].
func appendTips(b []byte, tips [][3]int32) []byte {
	b = append(b, `,"tips":[`...)
	for k, t := range tips {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendInts(b, t[0], t[1], t[2])
	}
	return append(b, ']')
}

// appendColumns appends the per-segment columns, from ,"parent": to the
// "hidden" list.
func (v *mapValue) appendColumns(b []byte, branchCol []int32) []byte {
	s, m := v.s, v.m
	flags := v.flags()
	col := func(b []byte, head string, f func(b []byte, k int, seg int32) []byte) []byte {
		b = append(b, head...)
		for k, seg := range m.vis {
			if k > 0 {
				b = append(b, ',')
			}
			b = f(b, k, seg)
		}
		return append(b, ']')
	}
	b = col(b, `,"parent":[`, func(b []byte, k int, seg int32) []byte {
		p := m.parent[seg]
		if p >= 0 {
			p = m.visOf[p]
		}
		return jsonx.AppendInt(b, int(p))
	})
	b = col(b, `,"x":[`, func(b []byte, k int, _ int32) []byte { return appendUnits(b, m.x[k]) })
	b = col(b, `,"y":[`, func(b []byte, k int, _ int32) []byte { return jsonx.AppendInt(b, int(m.y[k])) })
	b = col(b, `,"length":[`, func(b []byte, _ int, seg int32) []byte { return jsonx.AppendInt(b, int(m.length(s, seg))) })
	b = col(b, `,"first":[`, func(b []byte, _ int, seg int32) []byte { return jsonx.AppendString(b, s.nodes[m.first[seg]].ID) })
	b = col(b, `,"last":[`, func(b []byte, _ int, seg int32) []byte { return jsonx.AppendString(b, s.nodes[m.last[seg]].ID) })
	b = col(b, `,"branch":[`, func(b []byte, k int, _ int32) []byte { return jsonx.AppendInt(b, int(branchCol[k])) })
	b = col(b, `,"flags":[`, func(b []byte, k int, _ int32) []byte { return jsonx.AppendInt(b, int(flags[k])) })
	b = append(b, `,"hidden":[`...)
	n := 0
	for k, seg := range m.vis {
		if t := m.hiddenTotals[seg]; t > 0 {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = appendInts(b, int32(k), t)
		}
	}
	return append(b, ']')
}

// flags returns each visible segment's flags (segOnPath, segPreferred,
// segHiddenRoot): the paths are followed segment by segment.
func (v *mapValue) flags() []uint8 {
	s, m := v.s, v.m
	flags := make([]uint8, len(m.vis))
	for _, end := range []struct {
		node int32
		flag uint8
	}{{s.cursor, segOnPath}, {s.preferred, segPreferred}} {
		if end.node < 0 {
			continue
		}
		for seg := m.segOf[end.node]; seg >= 0; seg = m.parent[seg] {
			if k := m.visOf[seg]; k >= 0 {
				flags[k] |= end.flag
			}
		}
	}
	for k, seg := range m.vis {
		if m.hiddenTotals[seg] > 0 {
			flags[k] |= segHiddenRoot
		}
	}
	return flags
}

// appendMarks appends the cursor, the preferred end and the labels.
func (v *mapValue) appendMarks(b []byte) []byte {
	s, m := v.s, v.m
	for _, end := range []struct {
		head string
		node int32
	}{{`,"cursor":`, s.cursor}, {`,"preferred":`, s.preferred}} {
		b = append(b, end.head...)
		if end.node < 0 {
			b = append(b, "null"...)
			continue
		}
		seg, off := m.place(s, end.node)
		b = append(b, `{"segment":`...)
		b = jsonx.AppendInt(b, int(seg))
		b = append(b, `,"offset":`...)
		b = jsonx.AppendInt(b, int(off))
		b = append(b, `,"nodeId":`...)
		b = jsonx.AppendString(b, s.nodes[end.node].ID)
		b = append(b, '}')
	}
	b = append(b, `,"labels":[`...)
	labels := make([]rowMark, 0, len(s.labels))
	for i, text := range s.labels {
		labels = append(labels, rowMark{i, text})
	}
	sortMarks(labels)
	for k, l := range labels {
		if k > 0 {
			b = append(b, ',')
		}
		seg, off := m.place(s, l.row)
		b = append(b, '[')
		b = jsonx.AppendInt(b, int(seg))
		b = append(b, ',')
		b = jsonx.AppendInt(b, int(off))
		b = append(b, ',')
		b = jsonx.AppendString(b, l.text)
		b = append(b, ']')
	}
	return append(b, ']')
}

// appendInts appends a JSON array of the integers.
func appendInts(b []byte, v ...int32) []byte {
	b = append(b, '[')
	for k, n := range v {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendInt(b, int(n))
	}
	return append(b, ']')
}

// appendUnits appends a layout coordinate rounded to 1/1000 of a unit.
func appendUnits(b []byte, x float64) []byte {
	return strconv.AppendFloat(b, math.Round(x*1000)/1000, 'f', -1, 64)
}

// sortMarks sorts marks by node index (append order).
func sortMarks(marks []rowMark) {
	sort.Slice(marks, func(a, b int) bool { return marks[a].row < marks[b].row })
}
