package wire

import (
	"encoding/json"
	"testing"

	"github.com/sessiontree/sessiontree/core"
	"github.com/sessiontree/sessiontree/core/internal/benchdata"
)

// perfLoad is the snapshot.load request of benchdata.PerfSnapshot(n), the
// corpus of core's context benchmarks.
func perfLoad(n int) []byte {
	req := append([]byte(`{"operation":"snapshot.load","sessionId":"perf","snapshot":`), benchdata.PerfSnapshot(n)...)
	return append(req, '}')
}

// perfStore returns a store holding the perf session of n nodes.
func perfStore(tb testing.TB, n int) *core.Store {
	tb.Helper()
	st := newStore(tb)
	if out := st.Call(perfLoad(n)); string(out[:10]) != `{"ok":true` {
		tb.Fatalf("snapshot.load: %s", out)
	}
	return st
}

var sink []byte

// BenchmarkContextColumns measures context of a 100,000-deep path through
// CallColumns (the JS shim's call), the text cache filled.
func BenchmarkContextColumns(b *testing.B) {
	st := perfStore(b, 100000)
	req := []byte(`{"operation":"context","sessionId":"perf"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, cols := CallColumns(st, req)
		sink = cols.ASCII
	}
}

// BenchmarkContextColumnsFirst measures the first context in columns of a
// 100,000-deep path, which fills the session's text cache (a new session
// each time: the load is not measured).
func BenchmarkContextColumnsFirst(b *testing.B) {
	st := perfStore(b, 100000)
	load := perfLoad(100000)
	req := []byte(`{"operation":"context","sessionId":"perf"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		st.Call(load)
		b.StartTimer()
		_, cols := CallColumns(st, req)
		sink = cols.ASCII
	}
}

// BenchmarkContextParsed measures context of a 100,000-deep path through
// CallParsed (ASCII JSON).
func BenchmarkContextParsed(b *testing.B) {
	st := perfStore(b, 100000)
	req := []byte(`{"operation":"context","sessionId":"perf"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = CallParsed(st, req)
	}
}

// BenchmarkChatTurnColumns measures a chat turn on a 100,000-deep path as
// the shim runs it: an append, then the context through CallColumns with
// the last answer's layout held (so only the new message is handed over).
func BenchmarkChatTurnColumns(b *testing.B) {
	st := perfStore(b, 100000)
	req := []byte(`{"operation":"context","sessionId":"perf"}`)
	appendReq := []byte(`{"operation":"append","sessionId":"perf","message":{"role":"user","content":"one more turn"}}`)
	_, cols := CallColumns(st, req)
	held := Layout{cols.Cache, 0}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.Call(appendReq)
		var h struct{ Layout uint64 }
		_, cols = CallColumns(st, req, held)
		_ = json.Unmarshal(cols.Head, &h)
		held.Layout = h.Layout
		sink = cols.ASCII
	}
}
