package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
func (c treeColumns) rows(tb testing.TB) []TreeRow {
	tb.Helper()
	out := make([]TreeRow, c.Count)
	for i := range out {
		var parent *string
		if c.Parent[i] >= 0 {
			parent = &c.ID[c.Parent[i]]
		}
		f := c.Flags[i]
		out[i] = TreeRow{
			ID: c.ID[i], ParentID: parent, Branch: c.Branches[c.Branch[i]], Kind: c.Kinds[c.Kind[i]], Role: c.Roles[c.Role[i]],
			Preview: c.Preview[i], Depth: c.Depth[i], ChildCount: c.ChildCount[i],
			OnPath: f&rowOnPath != 0, Cursor: f&rowCursor != 0, Hidden: f&rowHidden != 0, HiddenRoot: f&rowHiddenRoot != 0, Preferred: f&rowPreferred != 0,
		}
	}
	for _, t := range c.TipOf {
		out[t[0]].TipOf = c.Branches[t[1]]
	}
	for _, raw := range c.Label {
		var pair [2]RawMessage
		require.NoError(tb, unmarshal(raw, &pair))
		var i int
		require.NoError(tb, unmarshal(pair[0], &i))
		require.NoError(tb, unmarshal(pair[1], &out[i].Label))
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
