package core

import (
	"fmt"
	"strings"
	"testing"
)

// chainsSnapshot returns a snapshot shaped like bench/perf.mjs millionTab's
// session: n chat messages of about 150 characters in chains of chain
// nodes (every chain's first node a root), the cursor on the last node.
func chainsSnapshot(id string, n, chain int) string {
	// Mostly ASCII words, one in 40 accented or an emoji (the bench's corpus
	// has non-ASCII text in the first 80 characters of about 8% of messages).
	words := strings.Fields("deploy pipeline failed build test release branch merge commit review server client database query index search fuzzy memory cache latency the a to and of in is it you that for")
	rare := strings.Fields("naïve café São Tomé 🚀 佗八垒堂")
	var b strings.Builder
	b.Grow(n * 260)
	fmt.Fprintf(&b, `{"version":1,"sessionId":%q,"cursor":"m%07d","activeBranch":"main","nodes":[`, id, n-1)
	seed := uint32(7)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		parent := "null"
		if i%chain != 0 {
			parent = fmt.Sprintf(`"m%07d"`, i-1)
		}
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		var text strings.Builder
		for text.Len() < 150 {
			seed = seed*1664525 + 1013904223
			if text.Len() > 0 {
				text.WriteByte(' ')
			}
			if seed>>24%40 == 0 {
				text.WriteString(rare[int(seed>>8)%len(rare)])
			} else {
				text.WriteString(words[int(seed>>8)%len(words)])
			}
		}
		fmt.Fprintf(&b, `{"id":"m%07d","parentId":%s,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"%s","content":"%s"}}`, i, parent, role, text.String())
	}
	b.WriteString("]}")
	return b.String()
}

// BenchmarkTreeRowsChains: tree.rows of the bench's 1,000,000-node tab
// (and a tenth of it), first call (previews not yet computed) and warm.
// go test ./core -run '^$' -bench TreeRowsChains -benchtime 1x -cpuprofile cpu.out
func BenchmarkTreeRowsChains(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("%d nodes", n), func(b *testing.B) {
			snap := chainsSnapshot("big", n, 10_000)
			st := testStore(b)
			load := []byte(`{"operation":"snapshot.load","sessionId":"big","snapshot":` + snap + `}`)
			snap = ""
			req := []byte(`{"operation":"tree.rows","sessionId":"big"}`)
			b.Run("first call", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					if env := st.Call(append([]byte(nil), load...)); !strings.HasPrefix(string(env), `{"ok":true`) {
						b.Fatalf("snapshot.load: %.200s", env)
					}
					b.StartTimer()
					treeRowsSink = st.Call(req)
				}
			})
			b.Run("warm", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					treeRowsSink = st.Call(req)
				}
			})
			b.Run("window of 200 rows", func(b *testing.B) {
				wreq := []byte(`{"operation":"tree.rows","sessionId":"big","offset":500000,"limit":200}`)
				for i := 0; i < b.N; i++ {
					treeRowsSink = st.Call(wreq)
				}
			})
		})
	}
}
