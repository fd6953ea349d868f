package core

import (
	"strconv"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/benchdata"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// perfSnapshot returns the snapshot of one session "perf" holding n chat
// messages as one chain (so the cursor's path is n deep): the corpus of
// issue 8 (100,000 messages ≈ 22 MB; benchdata.PerfSnapshot).
func perfSnapshot(n int) []byte { return benchdata.PerfSnapshot(n) }

// perfStore returns a store holding the perf session of n nodes.
func perfStore(tb testing.TB, n int) *Store {
	tb.Helper()
	st := testStore(tb)
	req := append([]byte(`{"operation":"snapshot.load","sessionId":"perf","snapshot":`), perfSnapshot(n)...)
	req = append(req, '}')
	if out := st.Call(req); string(out[:10]) != `{"ok":true` {
		tb.Fatalf("snapshot.load: %s", out)
	}
	return st
}

var perfSink []byte

// BenchmarkSnapshotLoad measures snapshot.load of 100,000 chat messages
// (about 22 MB) through Call, request scanning included.
func BenchmarkSnapshotLoad(b *testing.B) {
	req := append([]byte(`{"operation":"snapshot.load","sessionId":"perf","snapshot":`), perfSnapshot(100000)...)
	req = append(req, '}')
	b.SetBytes(int64(len(req)))
	st := testStore(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		perfSink = st.Call(req)
	}
}

// BenchmarkSnapshotSave measures snapshot.save of 100,000 chat messages
// through Call.
func BenchmarkSnapshotSave(b *testing.B) {
	st := perfStore(b, 100000)
	req := []byte(`{"operation":"snapshot.save","sessionId":"perf"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		perfSink = st.Call(req)
	}
	b.SetBytes(int64(len(perfSink)))
}

// BenchmarkContextDeep measures context of a 100,000-deep path through Call.
func BenchmarkContextDeep(b *testing.B) {
	st := perfStore(b, 100000)
	req := []byte(`{"operation":"context","sessionId":"perf"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		perfSink = st.Call(req)
	}
	b.SetBytes(int64(len(perfSink)))
}

// BenchmarkList measures list (previews) of 100,000 nodes through Call,
// previews computed afresh each time.
func BenchmarkList(b *testing.B) {
	st := perfStore(b, 100000)
	s := st.Session("perf")
	req := []byte(`{"operation":"list","sessionId":"perf"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, n := range s.Nodes {
			n.HasPreview = false
		}
		perfSink = st.Call(req)
	}
}

// BenchmarkAppend measures one append and the drain of its change block
// (what the shim does per durable append) in a session of 1,000 and of
// 100,000 nodes: the cost must not grow with the session.
func BenchmarkAppend(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			st := perfStore(b, n)
			st.TrackChanges(true)
			st.DrainChanges(true)
			req := []byte(`{"operation":"append","sessionId":"perf","message":{"role":"user","content":"appended in the benchmark"}}`)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if out := st.Call(req); string(out[:10]) != `{"ok":true` {
					b.Fatalf("append: %s", out)
				}
				perfSink = st.DrainChanges(true)
			}
		})
	}
}

// BenchmarkContextTexts measures context of a 100,000-deep path laid out
// over the text cache (Run and ContextView.Texts: what wire.CallColumns
// adds only the head to), the cache filled.
func BenchmarkContextTexts(b *testing.B) {
	st := perfStore(b, 100000)
	req := []byte(`{"operation":"context","sessionId":"perf"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		perfSink = st.Run(req).Value.(ContextView).Texts().ASCII
	}
}

// BenchmarkContextTextsFirst measures the first layout of a 100,000-deep
// path, which fills the session's text cache.
func BenchmarkContextTextsFirst(b *testing.B) {
	st := perfStore(b, 100000)
	req := []byte(`{"operation":"context","sessionId":"perf"}`)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.views.Forget(st.s.ByID["perf"])
		perfSink = st.Run(req).Value.(ContextView).Texts().ASCII
	}
}

// BenchmarkScans measures the word-at-a-time scans over a snapshot of
// 20,000 chat messages (about 5 MB): the UTF-8 check of a request and the
// string scan of the parser.
func BenchmarkScans(b *testing.B) {
	data := perfSnapshot(20000)
	b.Run("validUTF8", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			if !jsonx.ValidUTF8(data) {
				b.Fatal("not UTF-8")
			}
		}
	})
	b.Run("value", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			s := jsonx.Scanner{Data: data}
			if _, _, err := s.Value(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
