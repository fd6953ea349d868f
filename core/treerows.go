package core

import (
	"slices"
	"sort"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Row flags of the value of tree.rows (bit values of its "flags" column).
const (
	rowOnPath     = 1 << iota // on the root→cursor path
	rowCursor                 // the cursor
	rowHidden                 // hidden (the node or an ancestor)
	rowHiddenRoot             // the hide annotation is on this node
	rowPreferred              // on the preferred path
	rowDescribed              // the preview describes a message without text
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
//	 2 cursor, 4 hidden, 8 hiddenRoot, 16 preferred, 32 described],
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
	v := &treeRows{s: s, windowed: w.windowed}
	v.order, v.rowOf, v.start = st.rowOrder(s)
	v.from, v.to = w.from(len(v.order))
	if w.around != "" {
		i, err := s.lookup(w.around)
		if err != nil {
			return nil, err
		}
		v.from, v.to = centred(int(v.rowOf[i]), w.limit, len(v.order))
	} else if w.offset > len(v.order) {
		return nil, invalidf("field \"offset\" is %d, past the last row (the session has %d rows)", w.offset, len(v.order))
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

// from returns the rows [from, to) the window asks of count rows when it
// is given by offset and limit.
func (w rowWindow) from(count int) (int, int) {
	from := min(w.offset, count)
	to := count
	if w.limit >= 0 && from+w.limit < to {
		to = from + w.limit
	}
	return from, to
}

// centred returns the rows [from, to) of a window of limit rows around
// row at, moved to fit in 0 … count.
func centred(at, limit, count int) (int, int) {
	if limit >= count {
		return 0, count
	}
	from := at - limit/2
	from = max(0, min(from, count-limit))
	return from, from + limit
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
			return w, invalidf("field \"around\" cannot be given with \"offset\"; give one of them")
		case !r.has("limit"):
			return w, invalidf("field \"around\" needs \"limit\", the number of rows to send around the node")
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
		return 0, invalidf("field %q must be an integer from 0 to %d", field, maxRowIndex)
	}
	return int(v), nil
}

// rowOrderCache is a session's display order for the node count n.
type rowOrderCache struct {
	n                   int
	order, rowOf, start []int32
}

// rowOrder returns the nodes in the display order of tree's rows (a
// preorder walk, roots and children in append order), each node's row
// (rowOf[node]) and the children lists of childLists (start). A loop over
// integers: no text, no per-node allocation. Kept until a node is added,
// so the slices of a large session a panel asks one after the other cost
// one walk (12 bytes a node).
func (st *Store) rowOrder(s *Session) (order, rowOf, start []int32) {
	if c := st.views.rowsOf(s); c != nil {
		return c.order, c.rowOf, c.start
	}
	start, list, roots := s.childLists()
	n := len(s.nodes)
	order = make([]int32, 0, n)
	rowOf = make([]int32, n)
	stack := make([]int32, 0, 64)
	for k := len(roots) - 1; k >= 0; k-- {
		stack = append(stack, roots[k])
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for {
			rowOf[i] = int32(len(order))
			order = append(order, i)
			kids := list[start[i]:start[i+1]]
			if len(kids) == 0 {
				break
			}
			for k := len(kids) - 1; k > 0; k-- {
				stack = append(stack, kids[k])
			}
			i = kids[0] // a linear run continues without the stack
		}
	}
	st.views.keepRows(s, &rowOrderCache{n, order, rowOf, start})
	return order, rowOf, start
}

// treeRows is the value of tree.rows for the rows [from, to) of order; it
// writes itself into the reply (jsonx.Appender), so the bytes are copied once.
type treeRows struct {
	s            *Session
	order, rowOf []int32
	start        []int32
	from, to     int
	windowed     bool
}

// names is a table of names in order of first use, for the name columns.
type names struct {
	list  []string
	index map[string]int
	last  int // index of the name asked last (consecutive rows mostly share one)
}

func newNames() *names { return &names{index: map[string]int{}, last: -1} }

// of returns the index of name, adding it when new.
func (t *names) of(name string) int {
	if t.last >= 0 && t.list[t.last] == name {
		return t.last
	}
	i, ok := t.index[name]
	if !ok {
		i = len(t.list)
		t.index[name] = i
		t.list = append(t.list, name)
	}
	t.last = i
	return i
}

// rowMark is a sparse column entry: a row and a text (a branch tip's
// branch, a label).
type rowMark struct {
	row  int32
	text string
}

// sparse returns the marks of the nodes in m whose rows lie in [from, to),
// by row.
func sparse(m map[int32]string, rowOf []int32, from, to int) []rowMark {
	var out []rowMark
	for i, text := range m {
		if r := int(rowOf[i]); r >= from && r < to {
			out = append(out, rowMark{int32(r), text})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].row < out[b].row })
	return out
}

// AppendJSON appends the rows' JSON encoding to b.
func (v *treeRows) AppendJSON(b []byte) []byte {
	s := v.s
	rows := v.order[v.from:v.to]
	// Previews first: they are most of the bytes, so their lengths size
	// the reply once.
	size := 512
	for _, i := range rows {
		n := s.nodes[i]
		size += len(n.previewText()) + len(n.ID) + 40
	}
	b = slices.Grow(b, size)

	tipOf := make(map[int32]string, len(s.branches))
	for _, br := range s.branches {
		if br.tip >= 0 {
			tipOf[br.tip] = br.name
		}
	}
	tips := sparse(tipOf, v.rowOf, v.from, v.to)
	labels := sparse(s.labels, v.rowOf, v.from, v.to)

	branches, kinds, roles := newNames(), newNames(), newNames()
	nameCol := make([]int32, 3*len(rows))
	for k, i := range rows {
		n := s.nodes[i]
		nameCol[3*k] = int32(branches.of(n.Branch))
		nameCol[3*k+1] = int32(kinds.of(n.Kind))
		nameCol[3*k+2] = int32(roles.of(n.Role()))
	}
	for _, t := range tips {
		branches.of(t.text)
	}

	b = append(b, `{"sessionId":`...)
	b = jsonx.AppendString(b, s.id)
	b = append(b, `,"cursor":`...)
	if s.cursor < 0 {
		b = append(b, "null"...)
	} else {
		b = jsonx.AppendString(b, s.nodes[s.cursor].ID)
	}
	b = append(b, `,"activeBranch":`...)
	b = jsonx.AppendString(b, s.active)
	b = append(b, `,"count":`...)
	b = jsonx.AppendInt(b, len(v.order))
	if v.windowed {
		b = append(b, `,"offset":`...)
		b = jsonx.AppendInt(b, v.from)
	}
	b = appendNames(b, `,"branches":[`, branches.list)
	b = appendNames(b, `,"kinds":[`, kinds.list)
	b = appendNames(b, `,"roles":[`, roles.list)
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
		b = jsonx.AppendString(b, s.nodes[i].ID)
	}
	b = append(b, `],"parent":[`...)
	for k, i := range rows {
		if k > 0 {
			b = append(b, ',')
		}
		p := -1
		if s.parent[i] >= 0 {
			p = int(v.rowOf[s.parent[i]])
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
		b = jsonx.AppendString(b, s.nodes[i].previewText())
	}
	b = append(b, `],"depth":[`...)
	for k, i := range rows {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendInt(b, int(s.depth[i]))
	}
	b = append(b, `],"childCount":[`...)
	for k, i := range rows {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendInt(b, int(v.start[i+1]-v.start[i]))
	}
	return b
}

// appendMarks appends the sparse columns after the flags column (which it
// closes): tipOf as [row, branch index] and label as [row, text].
func appendMarks(b []byte, tips, labels []rowMark, branches *names) []byte {
	b = append(b, `],"tipOf":[`...)
	for k, t := range tips {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsonx.AppendInt(b, int(t.row))
		b = append(b, ',')
		b = jsonx.AppendInt(b, branches.index[t.text])
		b = append(b, ']')
	}
	b = append(b, `],"label":[`...)
	for k, l := range labels {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = jsonx.AppendInt(b, int(l.row))
		b = append(b, ',')
		b = jsonx.AppendString(b, l.text)
		b = append(b, ']')
	}
	return b
}

// appendFlags appends the flags column of rows (see the row flags).
func (v *treeRows) appendFlags(b []byte, rows []int32) []byte {
	s := v.s
	onPath := make([]bool, len(s.nodes))
	for _, i := range s.path(s.cursor) {
		onPath[i] = true
	}
	hidden, preferred := s.hiddenFlags(), s.preferredFlags()
	for k, i := range rows {
		if k > 0 {
			b = append(b, ',')
		}
		f := 0
		if onPath[i] {
			f |= rowOnPath
		}
		if i == s.cursor {
			f |= rowCursor
		}
		if hidden != nil && hidden[i] {
			f |= rowHidden
		}
		if len(s.hiddenRoots) > 0 && s.hiddenRoots[i] {
			f |= rowHiddenRoot
		}
		if preferred != nil && preferred[i] {
			f |= rowPreferred
		}
		if n := s.nodes[i]; n.previewText() != "" && n.described {
			f |= rowDescribed
		}
		b = jsonx.AppendInt(b, f)
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
