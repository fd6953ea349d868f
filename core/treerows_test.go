package core

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sessiontree/sessiontree/core/internal/treeview"
)

// treeColumns is the value of tree.rows as Go reads it back.
type treeColumns struct {
	SessionID    string       `json:"sessionId"`
	Cursor       *string      `json:"cursor"`
	ActiveBranch string       `json:"activeBranch"`
	Count        int          `json:"count"`
	Branches     []string     `json:"branches"`
	Kinds        []string     `json:"kinds"`
	Roles        []string     `json:"roles"`
	ID           []string     `json:"id"`
	Parent       []int        `json:"parent"`
	Branch       []int        `json:"branch"`
	Kind         []int        `json:"kind"`
	Role         []int        `json:"role"`
	Preview      []string     `json:"preview"`
	Depth        []int        `json:"depth"`
	ChildCount   []int        `json:"childCount"`
	Flags        []int        `json:"flags"`
	TipOf        [][2]int     `json:"tipOf"`
	Label        []RawMessage `json:"label"`
}

// rows rebuilds tree rows from the columns (Indent is not carried).
func (c treeColumns) rows(tb testing.TB) []TreeRow { return c.rowsAt(tb, 0, nil) }

// rowsAt rebuilds the rows of columns whose first row is row off of the
// session; full (the whole session's rows) names parents before them.
func (c treeColumns) rowsAt(tb testing.TB, off int, full []TreeRow) []TreeRow {
	tb.Helper()
	out := make([]TreeRow, len(c.ID))
	for k := range out {
		var parent *string
		if p := c.Parent[k]; p >= off && p < off+len(out) {
			parent = &c.ID[p-off]
		} else if p >= 0 {
			parent = &full[p].ID
		}
		f := c.Flags[k]
		out[k] = TreeRow{
			ID: c.ID[k], ParentID: parent, Branch: c.Branches[c.Branch[k]], Kind: c.Kinds[c.Kind[k]], Role: c.Roles[c.Role[k]],
			Preview: c.Preview[k], Depth: c.Depth[k], ChildCount: c.ChildCount[k],
			OnPath: f&treeview.RowOnPath != 0, Cursor: f&treeview.RowCursor != 0, Hidden: f&treeview.RowHidden != 0, HiddenRoot: f&treeview.RowHiddenRoot != 0, Preferred: f&treeview.RowPreferred != 0,
		}
	}
	for _, t := range c.TipOf {
		require.True(tb, t[0] >= off && t[0] < off+len(out), "tipOf row %d lies in the rows sent", t[0])
		out[t[0]-off].TipOf = c.Branches[t[1]]
	}
	for _, raw := range c.Label {
		var pair [2]RawMessage
		require.NoError(tb, json.Unmarshal(raw, &pair))
		var i int
		require.NoError(tb, json.Unmarshal(pair[0], &i))
		require.True(tb, i >= off && i < off+len(out), "label row %d lies in the rows sent", i)
		require.NoError(tb, json.Unmarshal(pair[1], &out[i-off].Label))
	}
	return out
}

func TestTreeRows(t *testing.T) {
	for _, tc := range []struct {
		name, session string
		build         func(tb testing.TB, st *Store)
	}{
		{"an empty session gives no rows", "empty", func(tb testing.TB, st *Store) {
			ok[Status](tb, st, `{"operation":"create","sessionId":"empty"}`)
		}},
		{"a branchy tree gives the rows of tree, in the same order", "plain", func(tb testing.TB, st *Store) {
			buildBranchy(tb, st, "plain")
		}},
		{"labels, hidden subtrees and the preferred path come through", "marked", func(tb testing.TB, st *Store) {
			buildBranchy(tb, st, "marked")
			annotateBranchy(tb, st, "marked")
		}},
		{"quotes, markup and control characters stay exact", `quote"d`, func(tb testing.TB, st *Store) {
			ok[Status](tb, st, `{"operation":"create","sessionId":"quote\"d"}`)
			ok[Node](tb, st, `{"operation":"append","sessionId":"quote\"d","message":{"role":"user","content":"a \"quoted\" <b>line</b>\nand a tab\t"}}`)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := testStore(t)
			tc.build(t, st)
			req := map[string]any{"operation": "tree", "sessionId": tc.session}
			want := ok[Tree](t, st, req)
			req["operation"] = "tree.rows"
			got := ok[treeColumns](t, st, req)
			assert.Equal(t, want.SessionID, got.SessionID)
			assert.Equal(t, want.Cursor, got.Cursor)
			assert.Equal(t, want.ActiveBranch, got.ActiveBranch)
			for i := range want.Rows {
				want.Rows[i].Indent = 0
			}
			assert.Equal(t, want.Rows, got.rows(t))
		})
	}

	st := testStore(t)
	t.Run("an unknown session is SESSION_NOT_FOUND", func(t *testing.T) {
		fails(t, st, `{"operation":"tree.rows","sessionId":"nope"}`, SessionNotFound)
	})
}

// treeRowsSink keeps the benchmark's results alive.
var treeRowsSink []byte

func BenchmarkTreeRows(b *testing.B) {
	st := testStore(b)
	ok[Status](b, st, `{"operation":"create","sessionId":"big"}`)
	for i := 0; i < 20000; i++ {
		do(b, st, `{"operation":"append","sessionId":"big","message":{"role":"user","content":"a message of some length for the preview"}}`)
	}
	for _, op := range []string{"tree", "tree.rows"} {
		req := []byte(`{"operation":"` + op + `","sessionId":"big"}`)
		b.Run(op, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				treeRowsSink = st.Call(req)
			}
		})
	}
}

// windowColumns is a windowed value of tree.rows: the columns plus the
// first row sent.
type windowColumns struct {
	treeColumns
	Offset *int `json:"offset"`
}

// rowsOf rebuilds the rows of a window; full is the whole session's rows,
// which name the parents a window's parent indexes point at.
func (c windowColumns) rowsOf(tb testing.TB, full []TreeRow) []TreeRow {
	tb.Helper()
	require.NotNil(tb, c.Offset, "a windowed value has an offset")
	return c.rowsAt(tb, *c.Offset, full)
}

func TestTreeRowsWindow(t *testing.T) {
	st := testStore(t)
	buildBranchy(t, st, "w")
	annotateBranchy(t, st, "w")
	// n0001 system, n0002 user (label), n0003 (hidden, preferred above it),
	// n0004 (tip of main-2, label, preferred), n0005 summary, n0006 user (cursor)
	full := ok[treeColumns](t, st, `{"operation":"tree.rows","sessionId":"w"}`).rows(t)
	require.Len(t, full, 6)
	window := func(tb testing.TB, fields string) windowColumns {
		tb.Helper()
		return ok[windowColumns](tb, st, `{"operation":"tree.rows","sessionId":"w",`+fields+`}`)
	}

	t.Run("every offset and limit gives the matching slice of the whole rows", func(t *testing.T) {
		for offset := 0; offset <= 6; offset++ {
			for limit := 0; limit <= 7; limit++ {
				c := window(t, `"offset":`+strconv.Itoa(offset)+`,"limit":`+strconv.Itoa(limit))
				to := min(6, offset+limit)
				assert.Equal(t, 6, c.Count, "count is the whole session's")
				assert.Equal(t, offset, *c.Offset)
				assert.Equal(t, full[offset:to], c.rowsOf(t, full), "offset %d limit %d", offset, limit)
			}
		}
	})
	t.Run("an offset alone gives every row from it; a limit alone the first rows", func(t *testing.T) {
		c := window(t, `"offset":4`)
		assert.Equal(t, []string{"n0005", "n0006"}, c.ID)
		assert.Equal(t, []int{0, 4}, c.Parent, "parents are whole-session rows")
		assert.Equal(t, []string{"budget"}, c.Branches, "the tables list only the window's names")
		assert.Equal(t, [][2]int{{5, 0}}, c.TipOf)
		c = window(t, `"limit":2`)
		assert.Equal(t, []string{"n0001", "n0002"}, c.ID)
		assert.Equal(t, 0, *c.Offset)
		assert.Equal(t, []string{"system", "user"}, c.Roles)
		assert.Equal(t, []RawMessage{RawMessage(`[1,"the question"]`)}, c.Label)
	})
	t.Run("a window around a node is centred on its row and kept inside the rows", func(t *testing.T) {
		for _, tc := range []struct {
			around     string
			limit      int
			offset     int
			ids        []string
			cursorSeen bool
		}{
			{"n0004", 3, 2, []string{"n0003", "n0004", "n0005"}, false},
			{"n0001", 3, 0, []string{"n0001", "n0002", "n0003"}, false},
			{"n0006", 3, 3, []string{"n0004", "n0005", "n0006"}, true},
			{"n0006", 1, 5, []string{"n0006"}, true},
			{"n0003", 100, 0, []string{"n0001", "n0002", "n0003", "n0004", "n0005", "n0006"}, true},
		} {
			c := window(t, `"around":"`+tc.around+`","limit":`+strconv.Itoa(tc.limit))
			assert.Equal(t, tc.offset, *c.Offset, "around %s limit %d", tc.around, tc.limit)
			assert.Equal(t, tc.ids, c.ID, "around %s limit %d", tc.around, tc.limit)
			assert.Equal(t, full[tc.offset:tc.offset+len(tc.ids)], c.rowsOf(t, full))
			seen := false
			for _, f := range c.Flags {
				seen = seen || f&treeview.RowCursor != 0
			}
			assert.Equal(t, tc.cursorSeen, seen)
		}
	})
	t.Run("without a window field the value has no offset", func(t *testing.T) {
		raw := string(do(t, st, `{"operation":"tree.rows","sessionId":"w"}`).Value)
		assert.NotContains(t, raw, `"offset"`)
		assert.Contains(t, string(do(t, st, `{"operation":"tree.rows","sessionId":"w","offset":0}`).Value), `"count":6,"offset":0,"branches"`)
	})
	t.Run("a node appended or branched after a call is in the next answer at its place", func(t *testing.T) {
		ok[Status](t, st, `{"operation":"create","sessionId":"grow"}`)
		first := ok[Node](t, st, `{"operation":"append","sessionId":"grow","message":{"role":"user","content":"one"}}`)
		ok[Node](t, st, `{"operation":"append","sessionId":"grow","message":{"role":"user","content":"two"}}`)
		assert.Equal(t, 2, ok[windowColumns](t, st, `{"operation":"tree.rows","sessionId":"grow","limit":1}`).Count)
		ok[Status](t, st, `{"operation":"branch","sessionId":"grow","nodeId":"`+first.ID+`","branch":"side"}`)
		side := ok[Node](t, st, `{"operation":"append","sessionId":"grow","branch":"side","message":{"role":"user","content":"three"}}`)
		c := ok[windowColumns](t, st, `{"operation":"tree.rows","sessionId":"grow","around":"`+side.ID+`","limit":1}`)
		assert.Equal(t, 3, c.Count)
		assert.Equal(t, 2, *c.Offset, "the side branch comes after the first child's subtree")
		assert.Equal(t, []string{side.ID}, c.ID)
		assert.Equal(t, []int{0}, c.Parent)
	})
	t.Run("an empty session gives an empty window", func(t *testing.T) {
		ok[Status](t, st, `{"operation":"create","sessionId":"none"}`)
		c := ok[windowColumns](t, st, `{"operation":"tree.rows","sessionId":"none","offset":0,"limit":50}`)
		assert.Equal(t, 0, c.Count)
		assert.Equal(t, 0, *c.Offset)
		assert.Empty(t, c.ID)
	})
	t.Run("bad window values are INVALID_ARGUMENT naming the field", func(t *testing.T) {
		for _, tc := range []struct{ name, fields, field string }{
			{"a negative offset", `"offset":-1`, `"offset"`},
			{"a fractional offset", `"offset":1.5`, `"offset"`},
			{"an offset as a string", `"offset":"2"`, `"offset"`},
			{"an offset past the rows", `"offset":7`, `"offset"`},
			{"a huge offset", `"offset":1e300`, `"offset"`},
			{"a negative limit", `"limit":-3`, `"limit"`},
			{"a limit as a boolean", `"limit":true`, `"limit"`},
			{"a limit too large", `"limit":4294967296`, `"limit"`},
			{"around without a limit", `"around":"n0002"`, `"around"`},
			{"around with an offset", `"around":"n0002","offset":1,"limit":2`, `"around"`},
			{"around as a number", `"around":2,"limit":2`, `"around"`},
			{"an empty around", `"around":"","limit":2`, `"around"`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				msg := fails(t, st, `{"operation":"tree.rows","sessionId":"w",`+tc.fields+`}`, InvalidArgument)
				assert.Contains(t, msg, tc.field)
			})
		}
		t.Run("an unknown node around is NODE_NOT_FOUND", func(t *testing.T) {
			msg := fails(t, st, `{"operation":"tree.rows","sessionId":"w","around":"nope","limit":2}`, NodeNotFound)
			assert.Equal(t, `node "nope" is not in session "w"`, msg)
		})
	})
}
