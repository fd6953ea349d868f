package core

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchWords is a small chat vocabulary for the benchmark corpus.
var benchWords = strings.Fields(`the a to and of in is it you that for on with this be are was have
not can do we will but what if so just your my me at or from by about how like please thanks
deploy deployment pipeline failed build test release branch merge commit review server client
database query index search fuzzy typo memory cache latency request response error warning config
configuration authentication authorization middleware kubernetes cluster container docker image
python javascript golang webassembly browser chromium session snapshot message assistant user
summary context window token model prompt answer question explain example function variable
yesterday tomorrow morning evening weekend meeting schedule calendar project roadmap milestone
performance benchmark optimisation allocation throughput concurrency goroutine channel mutex`)

// benchCorpus returns n deterministic chat-like messages of 8 to 30 words.
func benchCorpus(n int) []string {
	rng := rand.New(rand.NewPCG(4, 4))
	out := make([]string, n)
	var b strings.Builder
	for i := range out {
		b.Reset()
		words := 8 + rng.IntN(23)
		for w := 0; w < words; w++ {
			if w > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(benchWords[rng.IntN(len(benchWords))])
		}
		fmt.Fprintf(&b, " item%d", i%5000)
		out[i] = b.String()
	}
	return out
}

// benchStore loads n corpus messages into one session through snapshot.load.
func benchStore(tb testing.TB, n int) (*Store, []byte) {
	tb.Helper()
	var b strings.Builder
	b.WriteString(`{"operation":"snapshot.load","sessionId":"bench","snapshot":{"version":1,"sessionId":"bench","cursor":null,"activeBranch":"main","nodes":[`)
	for i, text := range benchCorpus(n) {
		if i > 0 {
			b.WriteByte(',')
		}
		parent := "null"
		if i > 0 {
			parent = fmt.Sprintf(`"m%d"`, i-1)
		}
		fmt.Fprintf(&b, `{"id":"m%d","parentId":%s,"branch":"main","kind":"message","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":%q}}`, i, parent, text)
	}
	b.WriteString(`]}}`)
	req := []byte(b.String())
	st := New(Options{})
	out := st.Call(req)
	if !strings.HasPrefix(string(out), `{"ok":true`) {
		tb.Fatalf("load failed: %.200s", out)
	}
	return st, req
}

var searchSink []byte

func BenchmarkSearch(b *testing.B) {
	st, _ := benchStore(b, 100_000)
	st.WarmSearch(-1) // the index is built on the first search
	text := 0
	for _, t := range benchCorpus(100_000) {
		text += len(t)
	}
	indexMB, textMB := float64(st.search.SizeBytes())/1e6, float64(text)/1e6
	for _, q := range []string{"deployment", "depolyment", "authentcaiton", "kubernetes cluster", "deplo", "item4242", "a"} {
		req := []byte(fmt.Sprintf(`{"operation":"search","query":%q,"limit":20}`, q))
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				searchSink = st.Call(req)
			}
			b.ReportMetric(indexMB, "index-MB")
			b.ReportMetric(textMB, "text-MB")
		})
	}
}

func BenchmarkSearchIndexBuild(b *testing.B) {
	st, _ := benchStore(b, 100_000)
	s := st.Session("bench")
	b.ResetTimer()
	for b.Loop() {
		st.search, s.search, s.warming, s.warmed = nil, nil, nil, 0
		st.WarmSearch(-1)
	}
}
