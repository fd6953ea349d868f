package core

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/benchdata"
	"github.com/sessiontree/sessiontree/core/internal/search"
	"github.com/sessiontree/sessiontree/core/internal/store"
)

// benchCorpus returns n deterministic chat-like messages of 8 to 30 words
// (benchdata.Corpus).
func benchCorpus(n int) []string { return benchdata.Corpus(n) }

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
	indexMB, textMB := float64(st.s.Index.Docs.SizeBytes())/1e6, float64(text)/1e6
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
	b.ResetTimer()
	for b.Loop() {
		st.s.Index = store.SearchIndex{}
		st.WarmSearch(-1)
	}
}

// BenchmarkSearchIndexLoad: a fresh page taking the search index an
// earlier one kept (100,000 documents), its bytes reported.
func BenchmarkSearchIndexLoad(b *testing.B) {
	st, _ := benchStore(b, 100_000)
	st.WarmSearch(-1)
	data := st.s.SearchIndexBytes()
	if data == nil {
		b.Fatal("no index bytes")
	}
	for b.Loop() {
		if _, err := st.s.LoadSearchIndex(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data))/1e6, "MB")
}

// BenchmarkSearchIndexDecode: reading back the kept index of 1,000 sessions of 100
// messages (benchdata's corpus, a minute apart), its bytes reported.
func BenchmarkSearchIndexDecode(b *testing.B) {
	corpus := benchdata.Corpus(100_000)
	ix := search.NewIndex()
	for d, text := range corpus {
		ix.Add(uint32(d/100+1), int32(d%100), text, 1767225600000+int64(d)*60_000)
	}
	data := ix.Encode(nil, func(o uint32) uint32 { return o })
	for b.Loop() {
		if _, err := search.Decode(data, 1000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data))/1e6, "MB")
}

// BenchmarkSearchPaged: searches across 10,000 sessions of 100 messages
// (~260 characters, bench/paging.mjs's text), all paged out with their
// documents kept but the ten of the hits, which stay loaded and indexed,
// as in a tab after its first search.
func BenchmarkSearchPaged(b *testing.B) {
	const sessions = 10_000
	words := []string{"branch", "context", "model", "answer", "question", "session", "append", "cursor", "snapshot", "token", "prompt", "reply"}
	st := New(Options{})
	var sb strings.Builder
	for i := range sessions {
		sb.Reset()
		fmt.Fprintf(&sb, `{"operation":"snapshot.load","sessionId":"s%d","snapshot":{"version":1,"sessionId":"s%d","cursor":null,"activeBranch":"main","nodes":[`, i, i)
		parent := "null"
		// Session i written at minute i, as bench/paging.mjs writes them: the
		// sessions are indexed oldest first.
		at := time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC).Format("2006-01-02T15:04:05.000Z")
		for k := range 100 {
			if k > 0 {
				sb.WriteByte(',')
			}
			text := fmt.Sprintf("session %d message %d:", i, k)
			for w := (i*7 + k) % 12; len(text) < 260; w = (w*5 + 3) % 12 {
				text += " " + words[w]
			}
			fmt.Fprintf(&sb, `{"id":"s%dn%d","parentId":%s,"branch":"main","kind":"message","timestamp":%q,"message":{"role":"user","content":%q}}`, i, k, parent, at, text)
			parent = fmt.Sprintf(`"s%dn%d"`, i, k)
		}
		sb.WriteString(`]}}`)
		if out := st.Call([]byte(sb.String())); !strings.HasPrefix(string(out), `{"ok":true`) {
			b.Fatalf("%.200s", out)
		}
	}
	st.WarmSearch(0) // the index their documents stay in
	for i := range sessions {
		if i%1000 != 7 {
			if _, err := st.s.PageOut(fmt.Sprintf("s%d", i)); err != nil {
				b.Fatal(err)
			}
		}
	}
	st.WarmSearch(-1)
	for _, q := range []string{"zzzz", "session 5007 message 3", "branch cursor", "snapshto"} {
		req := []byte(fmt.Sprintf(`{"operation":"search","query":%q,"limit":20}`, q))
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				searchSink = st.Call(req)
			}
		})
	}
}
