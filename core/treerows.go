package core

import (
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/sessiontree/sessiontree/core/internal/treeview"
)

// opTreeRows answers "tree.rows": the rows of tree, in the same display
// order, in a columnar form for views of large sessions (the explorer's
// panel). Encoded by hand, without reflection, and without the ASCII text,
// it is about half the bytes of tree and several times faster to make —
// what decides the first paint of a large session in the browser.
//
//	{"sessionId","cursor","activeBranch","count":N,
//	 "branches":[names],"kinds":[names],"roles":[names],
//	 "id":[N ids],"parent":[N row indexes, -1 for a root],
//	 "branch":[N indexes into branches],"kind":[N into kinds],"role":[N into roles],
//	 "preview":[N],"depth":[N],"childCount":[N],"flags":[N bit sets: 1 onPath,
//	 2 cursor, 4 hidden, 8 hiddenRoot, 16 preferred, 32 described
//	 (treeview.RowOnPath, …)],
//	 "tipOf":[[row, branch index]…],"label":[[row, label]…]}
//
// A window (optional request fields, all integers are row indexes in
// display order, 0 first):
//
//   - "offset": the first row to send (0 … count; default 0);
//   - "limit": how many rows to send at most (≥ 0; default: all that follow);
//   - "around": a node id instead of "offset": the window of "limit" rows
//     (required with "around") is centred on that node's row and moved to
//     fit inside 0 … count.
//
// With any of them the value gains "offset" (the first row sent) after
// "count"; "count" stays the number of rows of the whole session, the
// columns hold only the rows sent (count − offset at most), and "parent",
// "tipOf" and "label" keep whole-session row indexes (a parent may lie
// outside the window). The name tables list only the names the window
// uses. Without a window field the value is exactly the one above.
// Errors: INVALID_ARGUMENT naming the field when "offset" or "limit" is not
// an integer in range (offset past count included), when "around" is not a
// string, comes without "limit" or with "offset"; NODE_NOT_FOUND when
// "around" names no node of the session. Previews are made only for the
// rows sent, so a window of a 1,000,000-node session answers in
// milliseconds once the display order (a walk over integers) is known.
//
// static/tree-model.js rowsFromColumns turns it back into tree rows.
func opTreeRows(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	w, err := r.rowWindow()
	if err != nil {
		return nil, err
	}
	v := &treeRows{s: s, Rows: st.RowOrder(s), windowed: w.windowed}
	v.from, v.to = treeview.Window(w.offset, w.limit, len(v.Order))
	if w.around != "" {
		i, err := s.Lookup(w.around)
		if err != nil {
			return nil, err
		}
		v.from, v.to = treeview.Centred(int(v.RowOf[i]), w.limit, len(v.Order))
	} else if w.offset > len(v.Order) {
		return nil, tree.Invalidf("field \"offset\" is %d, past the last row (the session has %d rows)", w.offset, len(v.Order))
	}
	return v, nil
}

// rowWindow is the window fields of a tree.rows request (see opTreeRows).
type rowWindow struct {
	windowed bool
	offset   int
	limit    int // -1: no limit
	around   string
}

// rowWindow reads the window fields of a tree.rows request.
func (r *request) rowWindow() (rowWindow, *Error) {
	w := rowWindow{limit: -1}
	var err *Error
	if r.has("offset") {
		if w.offset, err = r.rowCount("offset"); err != nil {
			return w, err
		}
		w.windowed = true
	}
	if r.has("limit") {
		if w.limit, err = r.rowCount("limit"); err != nil {
			return w, err
		}
		w.windowed = true
	}
	if r.has("around") {
		switch {
		case r.has("offset"):
			return w, tree.Invalidf("field \"around\" cannot be given with \"offset\"; give one of them")
		case !r.has("limit"):
			return w, tree.Invalidf("field \"around\" needs \"limit\", the number of rows to send around the node")
		}
		if w.around, err = r.nodeIDField("around"); err != nil {
			return w, err
		}
		w.windowed = true
	}
	return w, nil
}

// maxRowIndex bounds the integers of a tree.rows window (2³¹ − 1).
const maxRowIndex = 1<<31 - 1

// rowCount returns a field that must be an integer from 0 to maxRowIndex.
func (r *request) rowCount(field string) (int, *Error) {
	var v float64
	if !jsonx.ReadFloat(r.fields[field], &v) || v < 0 || v > maxRowIndex || v != float64(int(v)) {
		return 0, tree.Invalidf("field %q must be an integer from 0 to %d", field, maxRowIndex)
	}
	return int(v), nil
}

// treeRows is the value of tree.rows for the rows [from, to) of the
// session's display order (the kept treeview.Rows); it writes itself into
// the reply (jsonx.Appender), so the bytes are copied once.
type treeRows struct {
	s *Session
	*treeview.Rows
	from, to int
	windowed bool // a window field was given: the value says its "offset"
}

// AppendJSON appends the rows' JSON encoding to b.
func (v *treeRows) AppendJSON(b []byte) []byte {
	s := v.s
	rows := v.Order[v.from:v.to]
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
	tips := treeview.Sparse(tipOf, v.RowOf, v.from, v.to)
	labels := treeview.Sparse(s.Labels, v.RowOf, v.from, v.to)

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
	if v.windowed {
		b = append(b, `,"offset":`...)
		b = jsonx.AppendInt(b, v.from)
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
func (v *treeRows) appendNodeColumns(b []byte, rows, nameCol []int32) []byte {
	s := v.s
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
func (v *treeRows) appendFlags(b []byte, rows []int32) []byte {
	s := v.s
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
