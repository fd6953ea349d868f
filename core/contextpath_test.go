package core

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contextPath (the walk a context makes, continued from the last one) must
// give path's answer for any node after any earlier one, and never change
// a path it gave before.
func TestContextPathIsThePathAfterAnyEarlierOne(t *testing.T) {
	st := testStore(t)
	ok[map[string]any](t, st, `{"operation":"create","sessionId":"p"}`)
	s := st.Session("p")
	rng := rand.New(rand.NewPCG(7, 15))
	type given struct {
		path []int32
		want []int32
	}
	var earlier []given
	memo := st.s.PathOf(s)
	for k := 0; k < 600; k++ {
		switch r := rng.IntN(10); {
		case r < 6 || len(s.Nodes) == 0: // a chat turn: an append at the cursor
			ok[map[string]any](t, st, fmt.Sprintf(`{"operation":"append","sessionId":"p","message":{"role":"user","content":"m%d"}}`, k))
		case r < 8: // a jump to any node: a branch, an earlier node, a later one
			id := s.Nodes[rng.IntN(len(s.Nodes))].ID
			ok[map[string]any](t, st, fmt.Sprintf(`{"operation":"jump","sessionId":"p","nodeId":%q}`, id))
		default: // a context asked for twice
		}
		got := s.ContextPath(s.Cursor, memo)
		want := s.Path(s.Cursor)
		require.Equal(t, want, got, "step %d, cursor %d", k, s.Cursor)
		earlier = append(earlier, given{got, slices.Clone(want)})
	}
	for k, g := range earlier {
		assert.Equal(t, g.want, g.path, "the path given at step %d is unchanged", k)
	}
	assert.Nil(t, s.ContextPath(-1, memo))
	assert.Equal(t, s.Path(s.Cursor), s.ContextPath(s.Cursor, nil), "without a memo, the path walked afresh")
}
