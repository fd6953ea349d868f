package views

import (
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/sessiontree/sessiontree/core/internal/treeview"
)

// TreeRows is the value of tree.rows for the rows [from, to) of the
// session's display order (the kept treeview.Rows); it writes itself into
// the reply (jsonx.Appender), so the bytes are copied once.
type TreeRows struct {
	Session *tree.Session
	*treeview.Rows
	From, To int
	Windowed bool // a window field was given: the value says its "offset"
}

// AppendJSON appends the rows' JSON encoding to b.
func (v *TreeRows) AppendJSON(b []byte) []byte {
	s := v.Session
	rows := v.Order[v.From:v.To]
	// Previews first: they are most of the bytes, so their lengths size
	// the reply once.
	size := 512
	for _, i := range rows {
		n := s.Nodes[i]
		size += len(n.PreviewText()) + len(n.ID) + 40
	}
	b = slices.Grow(b, size)

	tipOf := make(map[int32]string, len(s.Branches))
	for _, br := range s.Branches {
		if br.Tip >= 0 {
			tipOf[br.Tip] = br.Name
		}
	}
	tips := treeview.Sparse(tipOf, v.RowOf, v.From, v.To)
	labels := treeview.Sparse(s.Labels, v.RowOf, v.From, v.To)

	branches, kinds, roles := treeview.NewNames(), treeview.NewNames(), treeview.NewNames()
	nameCol := make([]int32, 3*len(rows))
	for k, i := range rows {
		n := s.Nodes[i]
		nameCol[3*k] = int32(branches.Of(n.Branch))
		nameCol[3*k+1] = int32(kinds.Of(n.Kind))
		nameCol[3*k+2] = int32(roles.Of(n.Role()))
	}
	for _, t := range tips {
		branches.Of(t.Text)
	}

	b = append(b, `{"sessionId":`...)
	b = jsonx.AppendString(b, s.ID())
	b = append(b, `,"cursor":`...)
	if s.Cursor < 0 {
		b = append(b, "null"...)
	} else {
		b = jsonx.AppendString(b, s.Nodes[s.Cursor].ID)
	}
	b = append(b, `,"activeBranch":`...)
	b = jsonx.AppendString(b, s.Active)
	b = append(b, `,"count":`...)
	b = jsonx.AppendInt(b, len(v.Order))
	if v.Windowed {
		b = append(b, `,"offset":`...)
		b = jsonx.AppendInt(b, v.From)
	}
	b = appendNames(b, `,"branches":[`, branches.List)
	b = appendNames(b, `,"kinds":[`, kinds.List)
	b = appendNames(b, `,"roles":[`, roles.List)
	b = v.appendNodeColumns(b, rows, nameCol)
	b = append(b, `],"flags":[`...)
	b = v.appendFlags(b, rows)
	b = appendMarks(b, tips, labels, branches)
	return append(b, "]}"...)
}

// appendNodeColumns appends the columns with one entry per row, from
// ,"id":[ to the childCount column (left open); nameCol holds each row's
// branch, kind and role indexes.
func (v *TreeRows) appendNodeColumns(b []byte, rows, nameCol []int32) []byte {
	s := v.Session
	b = append(b, `,"id":[`...)
	for k, i := range rows {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, s.Nodes[i].ID)
	}
	b = append(b, `],"parent":[`...)
	for k, i := range rows {
		if k > 0 {
			b = append(b, ',')
		}
		p := -1
		if s.Parent[i] >= 0 {
			p = int(v.RowOf[s.Parent[i]])
		}
		b = jsonx.AppendInt(b, p)
	}
	for c, key := range []string{`],"branch":[`, `],"kind":[`, `],"role":[`} {
		b = append(b, key...)
		for k := range rows {
			if k > 0 {
				b = append(b, ',')
			}
			b = jsonx.AppendInt(b, int(nameCol[3*k+c]))
		}
	}
	b = append(b, `],"preview":[`...)
	for k, i := range rows {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, s.Nodes[i].PreviewText())
	}
	b = append(b, `],"depth":[`...)
	for k, i := range rows {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendInt(b, int(s.Depth[i]))
	}
	b = append(b, `],"childCount":[`...)
	for k, i := range rows {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendInt(b, int(v.Start[i+1]-v.Start[i]))
	}
	return b
}

// appendMarks appends the sparse columns after the flags column (which it
// closes): tipOf as [row, branch index] and label as [row, text].
func appendMarks(b []byte, tips, labels []treeview.Mark, branches *treeview.Names) []byte {
	b = append(b, `],"tipOf":[`...)
	for k, t := range tips {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsonx.AppendInt(b, int(t.Row))
		b = append(b, ',')
		b = jsonx.AppendInt(b, branches.Index[t.Text])
		b = append(b, ']')
	}
	b = append(b, `],"label":[`...)
	for k, l := range labels {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsonx.AppendInt(b, int(l.Row))
		b = append(b, ',')
		b = jsonx.AppendString(b, l.Text)
		b = append(b, ']')
	}
	return b
}

// appendFlags appends the flags column of rows (treeview.RowFlags, and
// RowDescribed from each node's preview).
func (v *TreeRows) appendFlags(b []byte, rows []int32) []byte {
	s := v.Session
	for k, f := range s.ViewTree().RowFlags(rows, s.Cursor, s.Preferred) {
		if k > 0 {
			b = append(b, ',')
		}
		if n := s.Nodes[rows[k]]; n.PreviewText() != "" && n.Described {
			f |= treeview.RowDescribed
		}
		b = jsonx.AppendInt(b, int(f))
	}
	return b
}

// appendNames appends head, the names as JSON strings and nothing else
// (the caller closes the array).
func appendNames(b []byte, head string, list []string) []byte {
	b = append(b, head...)
	for k, n := range list {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, n)
	}
	return append(b, ']')
}
