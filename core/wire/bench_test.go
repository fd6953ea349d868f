package wire

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// benchWords and perfSnapshot are copies of core's (search_bench_test.go,
// perf_bench_test.go), so the figures here compare with core's
// BenchmarkContextDeep and those measured before the encodings moved.
var benchWords = strings.Fields(`the a to and of in is it you that for on with this be are was have
not can do we will but what if so just your my me at or from by about how like please thanks
deploy deployment pipeline failed build test release branch merge commit review server client
database query index search fuzzy typo memory cache latency request response error warning config
configuration authentication authorization middleware kubernetes cluster container docker image
python javascript golang webassembly browser chromium session snapshot message assistant user
summary context window token model prompt answer question explain example function variable
yesterday tomorrow morning evening weekend meeting schedule calendar project roadmap milestone
performance benchmark optimisation allocation throughput concurrency goroutine channel mutex`)

// perfSnapshot returns the snapshot of one session "perf" holding n chat
// messages of 8 to 30 words as one chain (the path is n deep).
func perfSnapshot(n int) []byte {
	rng := rand.New(rand.NewPCG(4, 4))
	b := []byte(`{"version":1,"sessionId":"perf","cursor":"m` + strconv.Itoa(n-1) + `","activeBranch":"main","nodes":[`)
	var text strings.Builder
	for i := 0; i < n; i++ {
		text.Reset()
		words := 8 + rng.IntN(23)
		for w := 0; w < words; w++ {
			if w > 0 {
				text.WriteByte(' ')
			}
			text.WriteString(benchWords[rng.IntN(len(benchWords))])
		}
		text.WriteString(" item" + strconv.Itoa(i%5000))
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":"m`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `","parentId":`...)
		if i == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, `"m`...)
			b = strconv.AppendInt(b, int64(i-1), 10)
			b = append(b, '"')
		}
		b = append(b, `,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":`...)
		if i%2 == 0 {
			b = append(b, `"user"`...)
		} else {
			b = append(b, `"assistant"`...)
		}
		b = append(b, `,"content":`...)
		b = jsonx.AppendString(b, text.String())
		b = append(b, "}}"...)
	}
	return append(b, "]}"...)
}

// perfLoad is the snapshot.load request of perfSnapshot(n).
func perfLoad(n int) []byte {
	req := append([]byte(`{"operation":"snapshot.load","sessionId":"perf","snapshot":`), perfSnapshot(n)...)
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
