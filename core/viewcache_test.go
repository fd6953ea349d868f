package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestViewCachesAreKeptWhileTheSessionStandsAndDroppedWhenItLeaves: the
// row order and the map tree.rows and map keep, and the text cache of
// context in columns, live in the store, by session; an append makes the row order stale (it is made again), and a
// session replaced (snapshot.load), paged out or deleted leaves nothing
// behind.
func TestViewCachesAreKeptWhileTheSessionStandsAndDroppedWhenItLeaves(t *testing.T) {
	st := opsStore(t)
	st.TrackChanges(true)
	views := func() (int, int) { return len(st.views.Rows) + len(st.views.Texts), len(st.views.Maps) }
	rowsAndMap := func() {
		ok[RawMessage](t, st, `{"operation":"tree.rows","sessionId":"s"}`)
		ok[RawMessage](t, st, `{"operation":"map","sessionId":"s"}`)
		cols := st.Run([]byte(`{"operation":"context","sessionId":"s"}`)).Value.(ContextView).Texts()
		require.NotEmpty(t, cols.Rows, "the context laid out over the session's text cache")
	}
	rowsAndMap()
	s, _ := st.s.Lookup("s")
	kept := st.views.RowsOf(s)
	require.NotNil(t, kept)
	texts := st.views.Texts[s]
	require.NotNil(t, texts)
	rowsAndMap()
	assert.Same(t, kept, st.views.RowsOf(s), "a second tree.rows reuses the order")
	assert.Same(t, texts, st.views.Texts[s], "a second context reuses the text cache")
	ok[any](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": "more"}})
	assert.Nil(t, st.views.RowsOf(s), "an append makes the kept order stale")
	rowsAndMap()
	assert.NotSame(t, kept, st.views.RowsOf(s))

	snap := snapshot(t, st, "s")
	ok[Status](t, st, obj{"operation": "snapshot.load", "sessionId": "s", "snapshot": RawMessage(snap)})
	rows, maps := views()
	assert.Equal(t, [2]int{0, 0}, [2]int{rows, maps}, "the replaced session's views are dropped")

	rowsAndMap()
	st.DrainChanges(true)
	ok[obj](t, st, `{"operation":"page.out","sessionId":"s"}`)
	rows, maps = views()
	assert.Equal(t, [2]int{0, 0}, [2]int{rows, maps}, "a paged-out session's views are dropped")
}
