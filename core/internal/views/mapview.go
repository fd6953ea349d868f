package views

import (
	"math"
	"strconv"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/sessiontree/sessiontree/core/internal/treeview"
)

// Map is the value of map; it writes itself into the reply.
type Map struct {
	Session *tree.Session
	Tree    *treeview.Tree // the session's tree, as Layout read it
	Layout  *treeview.Map
	Forks   []mapFork // mapfamily.go
	Source  *mapFork
}

// AppendJSON appends the map's JSON encoding (see opMap) to b.
func (v *Map) AppendJSON(b []byte) []byte {
	branches, branchCol, tips := v.branchTable()
	width, height := v.Layout.Size()
	b = v.appendHead(b, `,"count":`)
	b = append(b, `,"width":`...)
	b = appendUnits(b, width)
	b = append(b, `,"height":`...)
	b = jsonx.AppendInt(b, int(height))
	b = appendNames(b, `,"branches":[`, branches.List)
	b = v.appendColumns(b, branchCol)
	b = v.appendMarks(b)
	b = appendTips(b, tips)
	b = appendFamilyMarks(b, v.Forks, v.Source)
	return append(b, '}')
}

// appendHead appends {"sessionId","nodeCount","revision", then sep and
// the visible segments' count: the start of a whole map and of a delta.
func (v *Map) appendHead(b []byte, sep string) []byte {
	s, m := v.Session, v.Layout
	b = append(b, `{"sessionId":`...)
	b = jsonx.AppendString(b, s.ID())
	b = append(b, `,"nodeCount":`...)
	b = jsonx.AppendInt(b, len(s.Nodes))
	b = append(b, `,"revision":`...)
	b = jsonx.AppendString(b, m.Revision(len(s.Nodes)))
	b = append(b, sep...)
	return jsonx.AppendInt(b, len(m.Vis))
}

// branchTable names the branches of the answer: each visible segment's
// branch index (in segment order, so the same layout always numbers them
// alike), then each branch tip's [segment, offset, branch index].
func (v *Map) branchTable() (*treeview.Names, []int32, [][3]int32) {
	s, m := v.Session, v.Layout
	branches := treeview.NewNames()
	branchCol := make([]int32, len(m.Vis))
	for k, seg := range m.Vis {
		branchCol[k] = int32(branches.Of(s.Nodes[m.First[seg]].Branch))
	}
	var tips [][3]int32
	for _, br := range s.Branches {
		if br.Tip >= 0 {
			seg, off := m.Place(v.Tree, br.Tip)
			tips = append(tips, [3]int32{seg, off, int32(branches.Of(br.Name))})
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
func (v *Map) appendColumns(b []byte, branchCol []int32) []byte {
	s, t, m := v.Session, v.Tree, v.Layout
	flags := m.Flags(s.Cursor, s.Preferred)
	col := func(b []byte, head string, f func(b []byte, k int, seg int32) []byte) []byte {
		b = append(b, head...)
		for k, seg := range m.Vis {
			if k > 0 {
				b = append(b, ',')
			}
			b = f(b, k, seg)
		}
		return append(b, ']')
	}
	b = col(b, `,"parent":[`, func(b []byte, k int, seg int32) []byte {
		p := m.Parent[seg]
		if p >= 0 {
			p = m.VisOf[p]
		}
		return jsonx.AppendInt(b, int(p))
	})
	b = col(b, `,"x":[`, func(b []byte, k int, _ int32) []byte { return appendUnits(b, m.X[k]) })
	b = col(b, `,"y":[`, func(b []byte, k int, _ int32) []byte { return jsonx.AppendInt(b, int(m.Y[k])) })
	b = col(b, `,"length":[`, func(b []byte, _ int, seg int32) []byte { return jsonx.AppendInt(b, int(m.Length(t, seg))) })
	b = col(b, `,"first":[`, func(b []byte, _ int, seg int32) []byte { return jsonx.AppendString(b, s.Nodes[m.First[seg]].ID) })
	b = col(b, `,"last":[`, func(b []byte, _ int, seg int32) []byte { return jsonx.AppendString(b, s.Nodes[m.Last[seg]].ID) })
	b = col(b, `,"branch":[`, func(b []byte, k int, _ int32) []byte { return jsonx.AppendInt(b, int(branchCol[k])) })
	b = col(b, `,"flags":[`, func(b []byte, k int, _ int32) []byte { return jsonx.AppendInt(b, int(flags[k])) })
	b = append(b, `,"hidden":[`...)
	n := 0
	for k, seg := range m.Vis {
		if total := m.HiddenTotals[seg]; total > 0 {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = appendInts(b, int32(k), total)
		}
	}
	return append(b, ']')
}

// appendMarks appends the cursor, the preferred end and the labels.
func (v *Map) appendMarks(b []byte) []byte {
	s, m := v.Session, v.Layout
	for _, end := range []struct {
		head string
		node int32
	}{{`,"cursor":`, s.Cursor}, {`,"preferred":`, s.Preferred}} {
		b = append(b, end.head...)
		if end.node < 0 {
			b = append(b, "null"...)
			continue
		}
		seg, off := m.Place(v.Tree, end.node)
		b = append(b, `{"segment":`...)
		b = jsonx.AppendInt(b, int(seg))
		b = append(b, `,"offset":`...)
		b = jsonx.AppendInt(b, int(off))
		b = append(b, `,"nodeId":`...)
		b = jsonx.AppendString(b, s.Nodes[end.node].ID)
		b = append(b, '}')
	}
	b = append(b, `,"labels":[`...)
	labels := make([]treeview.Mark, 0, len(s.Labels))
	for i, text := range s.Labels {
		labels = append(labels, treeview.Mark{Row: i, Text: text})
	}
	treeview.SortMarks(labels)
	for k, l := range labels {
		if k > 0 {
			b = append(b, ',')
		}
		seg, off := m.Place(v.Tree, l.Row)
		b = append(b, '[')
		b = jsonx.AppendInt(b, int(seg))
		b = append(b, ',')
		b = jsonx.AppendInt(b, int(off))
		b = append(b, ',')
		b = jsonx.AppendString(b, l.Text)
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
