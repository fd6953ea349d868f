package core

import (
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/sessiontree/sessiontree/core/internal/treeview"
	"github.com/sessiontree/sessiontree/core/internal/views"
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
	v := &views.TreeRows{Session: s, Rows: st.views.RowOrder(s), Windowed: w.windowed}
	v.From, v.To = treeview.Window(w.offset, w.limit, len(v.Order))
	if w.around != "" {
		i, err := s.Lookup(w.around)
		if err != nil {
			return nil, err
		}
		v.From, v.To = treeview.Centred(int(v.RowOf[i]), w.limit, len(v.Order))
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

// opMap answers "map": the session as a tidy tree of segments (runs of
// nodes without a fork, see treeview.Map) laid out by tidy.Layout, in
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
//	          4 a hidden subtree drawn collapsed (treeview.SegOnPath, …)],
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
// The layout is kept by the views, by session (Caches.MapOf): an answer after
// appends that only extend runs costs O(segments), without a walk over
// the nodes.
func opMap(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	since, err := r.optStr("revision")
	if err != nil {
		return nil, err
	}
	t := s.ViewTree()
	m := st.views.MapOf(s, t)
	v := views.Map{Session: s, Tree: t, Layout: m, Forks: st.views.MapForks(st.s, s, t, m), Source: st.views.MapSource(st.s, s, t, m)}
	if from, ok := m.DeltaFrom(since, len(s.Nodes)); ok {
		return &views.MapDelta{Map: v, From: from}, nil
	}
	return &v, nil
}

// opFamily answers {"operation":"family","sessionId":…}: the session's
// Family. SESSION_NOT_FOUND when the session is not in the store.
func opFamily(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	if st.s.ByID[id] == nil {
		return nil, tree.Errorf(SessionNotFound, "session %q does not exist", id)
	}
	return st.views.Family(st.s, id), nil
}
