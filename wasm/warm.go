//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/sessiontree/sessiontree/core"
	"github.com/sessiontree/sessiontree/core/wire"
)

// V8 compiles a wasm function the first time it is called (lazy
// compilation), on the thread that calls it: the first load of a stored
// session and its first context paid ~60–80 ms of compiling (Chromium,
// 1,000 nodes: 64–98 ms and 32–43 ms against 40–42 ms and 4–11 ms with
// --no-wasm-lazy-compilation). warmLoad runs those calls on a scratch
// store of a few nodes, so that the shim can have their code compiled
// while the Worker waits for IndexedDB to read the session anyway, not
// after (a first context of 1,000 nodes, medians of 8 fresh pages: 82 and
// 106 ms against 132 and 122 without). Tried and not kept: the same for a
// first search (no difference beyond the runs' noise).

// warmedLoad says whether warmLoad has run (it runs once a program).
var warmedLoad = false

// warmSnapshot is the scratch session: a fork, non-ASCII text, a tool call.
const warmSnapshot = `{"version":1,"sessionId":"warm","cursor":"w3","activeBranch":"main","nodes":[` +
	`{"id":"w1","parentId":null,"branch":"main","kind":"message","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"How do I branch a session? Ünïcode ✓"}},` +
	`{"id":"w2","parentId":"w1","branch":"main","kind":"message","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":"Fork at any node; the snapshot keeps the cursor.","tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\":\"x\"}"}}]}},` +
	`{"id":"w3","parentId":"w2","branch":"main","kind":"message","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"tool","tool_call_id":"c1","content":"context messages"}},` +
	`{"id":"w4","parentId":"w1","branch":"side","kind":"message","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"assistant","content":"Another answer"}}]}`

// warmLoad(): run, once, what a stub's first context runs (its PAGED_OUT
// answer, page.faults, the restore of its snapshot, the context in
// columns) on a scratch store, dropped after. Answers true when it ran,
// false when it had run before. The store's own sessions and changes are
// not touched.
func (h *handle) warmLoad([]js.Value) any {
	if warmedLoad {
		return false
	}
	warmedLoad = true
	warmLoadOn(core.New(core.Options{MemoryBudget: core.DefaultMemoryBudget}))
	return true
}

// warmLoadOn runs warmLoad's calls on st and returns their answers, in
// order (the columns header stands for a context answered in columns).
func warmLoadOn(st *core.Store) []string {
	st.TrackChanges(true)
	context := []byte(`{"operation":"context","sessionId":"warm"}`)
	columns := func() string {
		out, cols := wire.CallColumns(st, context)
		if cols != nil {
			return columnsHeader(cols)
		}
		return string(out)
	}
	var answers []string
	answers = append(answers, string(st.CallInternal([]byte(`{"operation":"page.stub","sessions":[{"sessionId":"warm","nodeCount":4}]}`))))
	answers = append(answers, columns())
	answers = append(answers, string(st.CallInternal([]byte(`{"operation":"page.faults"}`))))
	answers = append(answers, string(st.CallInternal([]byte(`{"operation":"restore","title":"warm","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:03.000Z","snapshot":`+warmSnapshot+`}`))))
	answers = append(answers, columns())
	answers = append(answers, string(wire.CallParsed(st, []byte(`{"operation":"session","sessionId":"warm"}`))))
	st.DrainChanges(true)
	return answers
}
