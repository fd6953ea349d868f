package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chainSnapshot returns a snapshot of one linear chain of n message nodes.
func chainSnapshot(id string, n int) string {
	var b strings.Builder
	b.WriteString(`{"version":1,"sessionId":"` + id + `","cursor":"c` + fmt.Sprint(n-1) + `","activeBranch":"main","nodes":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		parent := "null"
		if i > 0 {
			parent = fmt.Sprintf(`"c%d"`, i-1)
		}
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		fmt.Fprintf(&b, `{"id":"c%d","parentId":%s,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"%s","content":"message %d"}}`, i, parent, role, i)
	}
	b.WriteString("]}")
	return b.String()
}

// TestDeepChain: a 100,000-deep chain answers context, tree, list and
// snapshot save/load without recursion (no stack growth to blow up, here
// or in wasm).
func TestDeepChain(t *testing.T) {
	const n = 100_000
	st := testStore(t)
	text := chainSnapshot("deep", n)
	status := ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"deep","snapshot":`+text+`}`)
	assert.Equal(t, n, status.NodeCount)
	assert.Equal(t, n, status.Depth)
	assert.Equal(t, 1, status.LeafCount)

	ctx := ok[Context](t, st, `{"operation":"context","sessionId":"deep"}`)
	require.Len(t, ctx.Messages, n)
	assert.Equal(t, `{"role":"user","content":"message 0"}`, string(ctx.Messages[0]))
	assert.Equal(t, `{"role":"assistant","content":"message 99999"}`, string(ctx.Messages[n-1]))

	tree := ok[Tree](t, st, `{"operation":"tree","sessionId":"deep"}`)
	require.Len(t, tree.Rows, n)
	assert.Equal(t, n, tree.Rows[n-1].Depth)
	assert.Equal(t, 0, tree.Rows[n-1].Indent, "a linear run stays at one indent")
	assert.True(t, tree.Rows[n-1].Cursor)

	list := ok[[]ListItem](t, st, `{"operation":"list","sessionId":"deep"}`)
	require.Len(t, list, n)
	assert.Equal(t, "message 12345", list[12345].Preview)

	assert.Equal(t, text, snapshot(t, st, "deep"))

	// Appending and branching at the bottom of the chain still work.
	ok[Status](t, st, `{"operation":"jump","sessionId":"deep","nodeId":"c50000"}`)
	node := ok[obj](t, st, `{"operation":"append","sessionId":"deep","message":{"role":"user","content":"a fork deep down"}}`)
	assert.Equal(t, "c50000", node["parentId"])
	assert.Equal(t, "main-2", node["branch"])
	ctx = ok[Context](t, st, `{"operation":"context","sessionId":"deep"}`)
	assert.Len(t, ctx.Messages, 50_002)
}

// TestDeepChainByAppend builds a long chain with append itself.
func TestDeepChainByAppend(t *testing.T) {
	n := 20_000
	if testing.Short() {
		n = 2_000
	}
	st := testStore(t)
	ok[Status](t, st, `{"operation":"create","sessionId":"a"}`)
	for i := 0; i < n; i++ {
		st.Call([]byte(`{"operation":"append","sessionId":"a","message":{"role":"user","content":"x"}}`))
	}
	status := ok[Status](t, st, `{"operation":"session","sessionId":"a"}`)
	assert.Equal(t, n, status.NodeCount)
	assert.Equal(t, n, status.Depth)
	assert.Equal(t, 1, status.BranchCount)
}
