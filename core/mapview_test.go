package core

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// mapSession builds: main u1 → a1 → u2 → a2 (the cursor), a branch "alt"
// at u2 (u3 → a3) and a branch "side" at a1 (a4). Ids: n0001 u1, n0002
// a1, n0003 u2, n0004 a2, n0005 u3, n0006 a3, n0007 a4.
func mapSession(tb testing.TB) *Store {
	tb.Helper()
	st := testStore(tb)
	ok[any](tb, st, obj{"operation": "create", "sessionId": "s"})
	msg := func(role, text string) obj { return obj{"role": role, "content": text} }
	for _, m := range []obj{msg("user", "u1"), msg("assistant", "a1"), msg("user", "u2"), msg("assistant", "a2")} {
		ok[any](tb, st, obj{"operation": "append", "sessionId": "s", "message": m})
	}
	ok[any](tb, st, obj{"operation": "branch", "sessionId": "s", "nodeId": "n0003", "branch": "alt"})
	ok[any](tb, st, obj{"operation": "append", "sessionId": "s", "message": msg("user", "u3")})
	ok[any](tb, st, obj{"operation": "append", "sessionId": "s", "message": msg("assistant", "a3")})
	ok[any](tb, st, obj{"operation": "branch", "sessionId": "s", "nodeId": "n0002", "branch": "side"})
	ok[any](tb, st, obj{"operation": "append", "sessionId": "s", "message": msg("assistant", "a4")})
	ok[any](tb, st, obj{"operation": "jump", "sessionId": "s", "nodeId": "n0004"})
	return st
}

// mapColumns is the value of map as Go reads it back.
type mapColumns struct {
	NodeCount int       `json:"nodeCount"`
	Count     int       `json:"count"`
	Width     float64   `json:"width"`
	Height    int       `json:"height"`
	Branches  []string  `json:"branches"`
	Parent    []int     `json:"parent"`
	X         []float64 `json:"x"`
	Y         []int     `json:"y"`
	Length    []int     `json:"length"`
	First     []string  `json:"first"`
	Last      []string  `json:"last"`
	Branch    []int     `json:"branch"`
	Flags     []int     `json:"flags"`
	Hidden    [][2]int  `json:"hidden"`
	Cursor    *mapMark  `json:"cursor"`
	Preferred *mapMark  `json:"preferred"`
	Labels    [][3]any  `json:"labels"`
	Tips      [][3]int  `json:"tips"`
}

type mapMark struct {
	Segment int    `json:"segment"`
	Offset  int    `json:"offset"`
	NodeID  string `json:"nodeId"`
}

func TestMapCutsRunsAtForksAndLaysThemOut(t *testing.T) {
	st := mapSession(t)
	m := ok[mapColumns](t, st, obj{"operation": "map", "sessionId": "s"})
	// Segments: 0 [u1 a1] main (a1 forks: u2, a4), 1 [u2] main (forks:
	// a2, u3), 2 [a2] main, 3 [u3 a3] alt, 4 [a4] side.
	require.Equal(t, 7, m.NodeCount)
	require.Equal(t, []string{"n0001", "n0003", "n0004", "n0005", "n0007"}, m.First)
	require.Equal(t, []string{"n0002", "n0003", "n0004", "n0006", "n0007"}, m.Last)
	require.Equal(t, []int{2, 1, 1, 2, 1}, m.Length)
	require.Equal(t, []int{-1, 0, 1, 1, 0}, m.Parent)
	require.Equal(t, []int{0, 1, 2, 2, 1}, m.Y)
	require.Equal(t, []float64{1, 0.5, 0, 1, 1.5}, m.X)
	require.Equal(t, 1.5, m.Width)
	require.Equal(t, 2, m.Height)
	require.Equal(t, []string{"main", "alt", "side"}, m.Branches)
	require.Equal(t, []int{0, 0, 0, 1, 2}, m.Branch)
	require.Equal(t, []int{1, 1, 1, 0, 0}, m.Flags)
	require.Equal(t, &mapMark{2, 0, "n0004"}, m.Cursor)
	require.Nil(t, m.Preferred)
	require.Equal(t, [][3]int{{2, 0, 0}, {3, 1, 1}, {4, 0, 2}}, m.Tips)
	require.Empty(t, m.Hidden)

	t.Run("a label, a hidden branch and the preferred path are marked", func(t *testing.T) {
		ok[any](t, st, obj{"operation": "label", "sessionId": "s", "nodeId": "n0005", "label": "idea"})
		ok[any](t, st, obj{"operation": "hide", "sessionId": "s", "nodeId": "n0007", "hidden": true})
		ok[any](t, st, obj{"operation": "prefer", "sessionId": "s", "nodeId": "n0006"})
		m := ok[mapColumns](t, st, obj{"operation": "map", "sessionId": "s"})
		require.Equal(t, [][2]int{{4, 1}}, m.Hidden)
		require.Equal(t, []int{1 | 2, 1 | 2, 1, 2, 4}, m.Flags)
		require.Equal(t, &mapMark{3, 1, "n0006"}, m.Preferred)
		require.Equal(t, [][3]any{{float64(3), float64(0), "idea"}}, m.Labels)
	})

	t.Run("appends that extend a run lengthen its segment and keep the layout", func(t *testing.T) {
		s, _ := st.s.Lookup("s")
		before := st.views.MapOf(s, s.ViewTree())
		for k := 0; k < 3; k++ {
			ok[any](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": fmt.Sprint(k)}})
		}
		require.Same(t, before, st.views.MapOf(s, s.ViewTree()))
		m := ok[mapColumns](t, st, obj{"operation": "map", "sessionId": "s"})
		require.Equal(t, []int{2, 1, 4, 2, 1}, m.Length)
		require.Equal(t, []float64{1, 0.5, 0, 1, 1.5}, m.X)
		require.Equal(t, &mapMark{2, 3, "n0010"}, m.Cursor)
	})

	t.Run("a fork cuts the run again", func(t *testing.T) {
		ok[any](t, st, obj{"operation": "branch", "sessionId": "s", "nodeId": "n0004", "branch": "late"})
		ok[any](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "assistant", "content": "x"}})
		m := ok[mapColumns](t, st, obj{"operation": "map", "sessionId": "s"})
		require.Equal(t, []string{"n0001", "n0003", "n0004", "n0005", "n0007", "n0008", "n0011"}, m.First)
		require.Equal(t, []int{2, 1, 1, 2, 1, 3, 1}, m.Length)
		require.Equal(t, []int{-1, 0, 1, 1, 0, 2, 2}, m.Parent)
	})
}

func TestMapOfADeepChainIsOneSegment(t *testing.T) {
	// The layout of a 1,000,000-deep tree is TestLayoutTidyMillionDeepChain's.
	const n = 100_000
	st := testStore(t)
	ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"deep","snapshot":`+chainSnapshot("deep", n)+`}`)
	m := ok[mapColumns](t, st, obj{"operation": "map", "sessionId": "deep"})
	require.Equal(t, []int{n}, m.Length)
	require.Equal(t, &mapMark{0, n - 1, "c99999"}, m.Cursor)
}

func TestMapOfAnUnknownSessionFails(t *testing.T) {
	st := testStore(t)
	fails(t, st, obj{"operation": "map", "sessionId": "nope"}, SessionNotFound)
	fails(t, st, obj{"operation": "map"}, InvalidArgument)
}
