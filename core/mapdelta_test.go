package core

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// mapDeltaColumns is a delta answer of map as Go reads it back.
type mapDeltaColumns struct {
	NodeCount int        `json:"nodeCount"`
	Revision  string     `json:"revision"`
	Delta     bool       `json:"delta"`
	Count     int        `json:"count"`
	Changed   [][3]any   `json:"changed"`
	Branches  []string   `json:"branches"`
	Flags     []int      `json:"flags"`
	Cursor    *mapMark   `json:"cursor"`
	Tips      [][3]int   `json:"tips"`
	X         []float64  `json:"x"` // never sent in a delta
	First     []string   `json:"first"`
	Labels    [][3]any   `json:"labels"`
	Preferred *mapMark   `json:"preferred"`
	Extra     [][2]int32 `json:"hidden"` // never sent in a delta
}

// revisionOf is the revision of the whole map of session "s".
func revisionOf(t *testing.T, st *Store) string {
	t.Helper()
	v := ok[map[string]any](t, st, obj{"operation": "map", "sessionId": "s"})
	require.IsType(t, "", v["revision"])
	require.Nil(t, v["delta"], "a map without a revision is the whole map")
	return v["revision"].(string)
}

func TestMapGivenItsRevisionAnswersWhatGrew(t *testing.T) {
	st := mapSession(t)
	rev := revisionOf(t, st)
	// The cursor is on a2 (segment 2, main): two appends extend its run.
	for k := 0; k < 2; k++ {
		ok[any](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": fmt.Sprint(k)}})
	}
	d := ok[mapDeltaColumns](t, st, obj{"operation": "map", "sessionId": "s", "revision": rev})
	require.True(t, d.Delta)
	require.Equal(t, 9, d.NodeCount)
	require.Equal(t, 5, d.Count)
	require.Equal(t, [][3]any{{float64(2), float64(3), "n0009"}}, d.Changed)
	require.Equal(t, []string{"main", "alt", "side"}, d.Branches)
	require.Equal(t, []int{1, 1, 1, 0, 0}, d.Flags)
	require.Equal(t, &mapMark{2, 2, "n0009"}, d.Cursor)
	require.Equal(t, [][3]int{{2, 2, 0}, {3, 1, 1}, {4, 0, 2}}, d.Tips)
	require.Nil(t, d.X, "the layout is not sent again")
	require.Nil(t, d.First)
	require.Empty(t, d.Labels)
	require.NotEqual(t, rev, d.Revision)

	// The whole map at the same moment agrees with the earlier map plus the delta.
	whole := ok[mapColumns](t, st, obj{"operation": "map", "sessionId": "s"})
	require.Equal(t, []int{2, 1, 3, 2, 1}, whole.Length)
	require.Equal(t, "n0009", whole.Last[2])
	require.Equal(t, d.Flags, whole.Flags)
	require.Equal(t, d.Tips, whole.Tips)

	t.Run("nothing new: an empty change list, the marks again", func(t *testing.T) {
		d2 := ok[mapDeltaColumns](t, st, obj{"operation": "map", "sessionId": "s", "revision": d.Revision})
		require.True(t, d2.Delta)
		require.Empty(t, d2.Changed)
		require.Equal(t, d.Revision, d2.Revision)
	})

	t.Run("a jump changes the flags only", func(t *testing.T) {
		ok[any](t, st, obj{"operation": "jump", "sessionId": "s", "nodeId": "n0006"})
		d3 := ok[mapDeltaColumns](t, st, obj{"operation": "map", "sessionId": "s", "revision": d.Revision})
		require.True(t, d3.Delta)
		require.Empty(t, d3.Changed)
		require.Equal(t, []int{1, 1, 0, 1, 0}, d3.Flags)
		require.Equal(t, &mapMark{3, 1, "n0006"}, d3.Cursor)
	})

	t.Run("after a fork the revision is stale: the whole map", func(t *testing.T) {
		ok[any](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": "on alt"}})
		ok[any](t, st, obj{"operation": "branch", "sessionId": "s", "nodeId": "n0005", "branch": "mid"})
		ok[any](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": "fork"}})
		v := ok[map[string]any](t, st, obj{"operation": "map", "sessionId": "s", "revision": d.Revision})
		require.Nil(t, v["delta"])
		require.Len(t, v["x"], 7)
	})
}

func TestMapRevisionsThatAreNotCurrentAnswerTheWholeMap(t *testing.T) {
	st := mapSession(t)
	rev := revisionOf(t, st)
	layout, _, _ := cutRevision(rev)
	for _, r := range []string{"", "x", "1", "1.2", layout + ".-1", layout + ".2", layout + ".999", layout + ".7.1", "99999999999999999999.7", " " + rev} {
		v := ok[map[string]any](t, st, obj{"operation": "map", "sessionId": "s", "revision": r})
		require.Nil(t, v["delta"], "revision %q", r)
		require.Len(t, v["x"], 5, "revision %q", r)
	}
	fails(t, st, obj{"operation": "map", "sessionId": "s", "revision": 7}, InvalidArgument)
	v := ok[map[string]any](t, st, obj{"operation": "map", "sessionId": "s", "revision": nil})
	require.Nil(t, v["delta"])
}

// cutRevision splits a revision into its layout and node count.
func cutRevision(rev string) (string, string, bool) {
	for i := range rev {
		if rev[i] == '.' {
			return rev[:i], rev[i+1:], true
		}
	}
	return rev, "", false
}

func TestMapPlacesItsForksAndItsSource(t *testing.T) {
	st := mapSession(t)
	ok[any](t, st, obj{"operation": "fork", "sessionId": "s", "nodeId": "n0002", "newSessionId": "f"})
	ok[any](t, st, obj{"operation": "append", "sessionId": "f", "message": obj{"role": "user", "content": "on the fork"}})
	ok[any](t, st, obj{"operation": "clone", "sessionId": "s", "newSessionId": "c"})
	type family struct {
		Forks  [][4]any `json:"forks"`
		Source *struct {
			SessionID string `json:"sessionId"`
			NodeID    string `json:"nodeId"`
			Segment   int    `json:"segment"`
			Offset    int    `json:"offset"`
			Kind      string `json:"kind"`
		} `json:"source"`
		Length []int `json:"length"`
	}
	// On s: the fork hangs off a1 (segment 0, its 2nd node), the clone off the cursor a2 (segment 2).
	m := ok[family](t, st, obj{"operation": "map", "sessionId": "s"})
	require.Equal(t, [][4]any{{float64(0), float64(1), "f", "fork"}, {float64(2), float64(0), "c", "clone"}}, m.Forks)
	require.Nil(t, m.Source)
	// On f: one run u1 a1 x; it left s at a1, its 2nd node.
	f := ok[family](t, st, obj{"operation": "map", "sessionId": "f"})
	require.Equal(t, []int{3}, f.Length)
	require.Empty(t, f.Forks)
	require.NotNil(t, f.Source)
	require.Equal(t, "s", f.Source.SessionID)
	require.Equal(t, "n0002", f.Source.NodeID)
	require.Equal(t, [2]int{0, 1}, [2]int{f.Source.Segment, f.Source.Offset})
	require.Equal(t, "fork", f.Source.Kind)

	t.Run("a delta carries them too, and a fork made after the layout", func(t *testing.T) {
		rev := revisionOf(t, st)
		ok[any](t, st, obj{"operation": "fork", "sessionId": "s", "nodeId": "n0005", "newSessionId": "g"})
		d := ok[family](t, st, obj{"operation": "map", "sessionId": "s", "revision": rev})
		require.Len(t, d.Forks, 3)
		require.Equal(t, []any{float64(3), float64(0), "g", "fork"}, d.Forks[2][:])
	})

	t.Run("a source that is deleted leaves the fork's mark of it", func(t *testing.T) {
		ok[any](t, st, obj{"operation": "delete", "sessionId": "s", "permanent": true})
		f := ok[family](t, st, obj{"operation": "map", "sessionId": "f"})
		require.NotNil(t, f.Source, "the node is named by the fork's own record")
		require.Equal(t, "s", f.Source.SessionID)
	})
}
