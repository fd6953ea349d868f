package core

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// drainBlock is one block of a drain: its header and its lines.
type drainBlock struct {
	head  map[string]any
	nodes []string // node lines, the trailing "," taken off
	notes []string // annotation lines
}

// parseDrain splits drained bytes into blocks, as the shim's
// parseChangeBytes does.
func parseDrain(tb testing.TB, b []byte) []drainBlock {
	tb.Helper()
	var out []drainBlock
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i := 0; i < len(lines) && lines[0] != ""; {
		var blk drainBlock
		require.NoError(tb, json.Unmarshal([]byte(lines[i]), &blk.head), lines[i])
		i++
		n, a := int(blk.head["count"].(float64)), int(blk.head["annotationCount"].(float64))
		for k := 0; k < n; k++ {
			if k < n-1 {
				require.True(tb, strings.HasSuffix(lines[i], ","), "node line %d of %d ends in a comma", k, n)
			}
			blk.nodes = append(blk.nodes, strings.TrimSuffix(lines[i], ","))
			i++
		}
		blk.notes = append(blk.notes, lines[i:i+a]...)
		i += a
		out = append(out, blk)
	}
	return out
}

// labelled returns the perf store of n nodes with a label on its node m1,
// changes tracked from before the load.
func labelled(tb testing.TB, n int) *Store {
	tb.Helper()
	st := testStore(tb)
	st.TrackChanges(true)
	req := append([]byte(`{"operation":"snapshot.load","sessionId":"perf","snapshot":`), perfSnapshot(n)...)
	require.Contains(tb, string(st.Call(append(req, '}'))), `{"ok":true`)
	ok[any](tb, st, `{"operation":"label","sessionId":"perf","nodeId":"m1","label":"second"}`)
	return st
}

func TestDrainInPiecesCutsSessionsAtWholeGroups(t *testing.T) {
	whole := parseDrain(t, labelled(t, 2500).DrainChanges(true))
	require.Len(t, whole, 1)
	st := labelled(t, 2500)
	var blocks []drainBlock
	for {
		piece, more := st.DrainChangesUpTo(1) // a byte: every piece is one group
		if len(piece) == 0 {
			require.False(t, more)
			break
		}
		blocks = append(blocks, parseDrain(t, piece)...)
	}
	require.Len(t, blocks, 3)
	type shape struct {
		Reset             bool
		From, Count, Nota int
		More              bool
	}
	var got []shape
	var nodes []string
	for _, b := range blocks {
		got = append(got, shape{b.head["reset"].(bool), int(b.head["from"].(float64)), int(b.head["count"].(float64)), len(b.notes), b.head["more"] == true})
		nodes = append(nodes, b.nodes...)
		meta := b.head["meta"].(map[string]any)
		assert.Equal(t, 2500.0, meta["nodeCount"], "every block's meta is the session's once drained")
	}
	assert.Equal(t, []shape{{true, 0, 1000, 0, true}, {false, 1000, 1000, 0, true}, {false, 2000, 500, 1, false}}, got,
		"a reset, then blocks that continue it at multiples of 1000; the annotations come with the last")
	assert.Equal(t, whole[0].nodes, nodes, "the pieces hold the nodes of the whole drain, in order")
	assert.Equal(t, whole[0].notes, blocks[2].notes)
	assert.Equal(t, 0.0, blocks[2].head["annotationFrom"], "a reset's annotations start at 0")
	piece, more := st.DrainChangesUpTo(1)
	assert.Empty(t, piece, "drained: nothing is left")
	assert.False(t, more)
}

func TestDrainInPiecesOfALimit(t *testing.T) {
	for _, c := range []struct {
		name   string
		limit  int
		pieces int
	}{
		{"a limit above the whole drain gives one piece", 64 << 20, 1},
		{"a limit of about two groups cuts every other group", 2 * 1000 * 200, 3},
		{"no limit gives one piece", 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := labelled(t, 5000)
			ok[any](t, st, `{"operation":"create","sessionId":"other","title":"Other"}`)
			var n, pieces int
			sessions := map[string]bool{}
			for {
				piece, more := st.DrainChangesUpTo(c.limit)
				if len(piece) == 0 {
					break
				}
				pieces++
				for _, b := range parseDrain(t, piece) {
					n += len(b.nodes)
					sessions[b.head["sessionId"].(string)] = true
				}
				if !more {
					break
				}
			}
			assert.Equal(t, 5000, n)
			assert.Equal(t, map[string]bool{"perf": true, "other": true}, sessions)
			assert.Equal(t, c.pieces, pieces)
		})
	}
}

func TestDrainInPiecesOfAppendsStartsWhereTheLastDrainEnded(t *testing.T) {
	st := labelled(t, 300)
	st.DrainChanges(true)
	for i := 0; i < 1500; i++ {
		ok[any](t, st, `{"operation":"append","sessionId":"perf","message":{"role":"user","content":"n`+strconv.Itoa(i)+`"}}`)
	}
	var got [][3]int
	for {
		piece, _ := st.DrainChangesUpTo(1)
		if len(piece) == 0 {
			break
		}
		for _, b := range parseDrain(t, piece) {
			more := 0
			if b.head["more"] == true {
				more = 1
			}
			got = append(got, [3]int{int(b.head["from"].(float64)), len(b.nodes), more})
			assert.Equal(t, false, b.head["reset"])
		}
	}
	assert.Equal(t, [][3]int{{300, 700, 1}, {1000, 800, 0}}, got, "the first cut is at the next multiple of 1000")
}

// TestChangeMarksStayOnePerSession marks sessions, changes the list of
// marks in each way it changes (a drain in pieces, an erase, a sync
// removal) and marks them again: every drained session appears in one
// block only, with every node since its last drain (the marks are found
// by an index, rebuilt after each such change).
func TestChangeMarksStayOnePerSession(t *testing.T) {
	st := testStore(t)
	st.TrackChanges(true)
	ids := make([]string, 40)
	for i := range ids {
		ids[i] = "s" + strconv.Itoa(i)
		ok[any](t, st, `{"operation":"create","sessionId":"`+ids[i]+`"}`)
		ok[any](t, st, `{"operation":"append","sessionId":"`+ids[i]+`","message":{"role":"user","content":"a"}}`)
	}
	// A small limit drains a few sessions a piece: the rest keep their marks.
	piece, more := st.DrainChangesUpTo(1)
	require.True(t, more)
	first := parseDrain(t, piece)
	require.Len(t, first, 1)
	// Marked again: the drained session gets a new mark, the others keep theirs.
	for _, id := range []string{ids[0], ids[1], ids[39]} {
		ok[any](t, st, `{"operation":"append","sessionId":"`+id+`","message":{"role":"assistant","content":"b"}}`)
	}
	ok[any](t, st, `{"operation":"delete","sessionId":"s5","permanent":true}`)
	ok[any](t, st, `{"operation":"append","sessionId":"s6","message":{"role":"assistant","content":"c"}}`)
	blocks := map[string]int{}
	nodes := map[string]int{}
	for _, b := range parseDrain(t, st.DrainChanges(true)) {
		id := b.head["sessionId"].(string)
		blocks[id]++
		nodes[id] += len(b.nodes)
	}
	for id, n := range blocks {
		assert.Equal(t, 1, n, "session %s drained in one block", id)
	}
	assert.Len(t, blocks, 40, "every session not drained before, and the one drained and changed again")
	assert.Equal(t, 1, nodes[first[0].head["sessionId"].(string)], "the session drained first gives only its new node")
	assert.Equal(t, 2, nodes[ids[39]], "a session marked twice gives both its nodes once")
	assert.Equal(t, 2, nodes["s6"])
	assert.Equal(t, 0, nodes["s5"], "an erased session's block has no nodes")
}
