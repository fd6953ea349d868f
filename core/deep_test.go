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
// or in wasm). Replies are checked as bytes and through the session's own
// methods, so the test does not spend its time decoding 10 MB of JSON.
func TestDeepChain(t *testing.T) {
	const n = 100_000
	st := testStore(t)
	text := chainSnapshot("deep", n)
	status := ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"deep","snapshot":`+text+`}`)
	assert.Equal(t, n, status.NodeCount)
	assert.Equal(t, n, status.Depth)
	assert.Equal(t, 1, status.LeafCount)
	s := st.Session("deep")

	out := string(st.Call([]byte(`{"operation":"context","sessionId":"deep"}`)))
	assert.True(t, strings.HasPrefix(out, `{"ok":true,"value":{"cursor":"c99999","messages":[{"role":"user","content":"message 0"},{"role":"assistant","content":"message 1"},`))
	assert.True(t, strings.HasSuffix(out, `{"role":"assistant","content":"message 99999"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}}`))
	assert.Equal(t, n, strings.Count(out, `{"role":`))

	out = string(st.Call([]byte(`{"operation":"tree","sessionId":"deep"}`)))
	assert.True(t, strings.HasPrefix(out, `{"ok":true,"value":{"sessionId":"deep","cursor":"c99999","activeBranch":"main","roots":["c0"],"rows":[`))
	assert.Equal(t, n, strings.Count(out, `"indent":0,`), "a linear run stays at one indent")
	tree := s.Tree()
	require.Len(t, tree.Rows, n)
	assert.Equal(t, n, tree.Rows[n-1].Depth)
	assert.True(t, tree.Rows[n-1].Cursor)
	assert.Equal(t, "c99999 assistant: message 99999  [main*]  ← cursor", lastLine(tree.Text))
	assert.Less(t, strings.Count(tree.Text, "\n"), 20, "a linear run is compacted in the text")

	out = string(st.Call([]byte(`{"operation":"list","sessionId":"deep"}`)))
	assert.Equal(t, n, strings.Count(out, `"preview":"message `))
	assert.True(t, strings.Contains(out, `{"id":"c12345","parentId":"c12344","branch":"main","kind":"message","role":"assistant","timestamp":"2026-11-29T12:00:00.000Z","depth":12346,"preview":"message 12345","hidden":false,"preferred":false}`))

	assert.Equal(t, text, snapshot(t, st, "deep"))

	// Appending and branching at the middle of the chain still work.
	ok[Status](t, st, `{"operation":"jump","sessionId":"deep","nodeId":"c50000"}`)
	node := ok[obj](t, st, `{"operation":"append","sessionId":"deep","message":{"role":"user","content":"a fork deep down"}}`)
	assert.Equal(t, "c50000", node["parentId"])
	assert.Equal(t, "main-2", node["branch"])
	assert.Len(t, s.Context().Messages, 50_002)
}

func lastLine(text string) string {
	text = strings.TrimSuffix(text, "\n")
	return text[strings.LastIndexByte(text, '\n')+1:]
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
