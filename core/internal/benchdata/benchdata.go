// Package benchdata makes the deterministic corpora that core's and
// core/wire's benchmarks and tests load (only test files import it): chat-
// like messages (Corpus) and the snapshot of one deep chain of them
// (PerfSnapshot), the same on every run so figures compare across
// packages and commits. It imports only jsonx.
package benchdata

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Words is a small chat vocabulary for the corpus.
var Words = strings.Fields(`the a to and of in is it you that for on with this be are was have
not can do we will but what if so just your my me at or from by about how like please thanks
deploy deployment pipeline failed build test release branch merge commit review server client
database query index search fuzzy typo memory cache latency request response error warning config
configuration authentication authorization middleware kubernetes cluster container docker image
python javascript golang webassembly browser chromium session snapshot message assistant user
summary context window token model prompt answer question explain example function variable
yesterday tomorrow morning evening weekend meeting schedule calendar project roadmap milestone
performance benchmark optimisation allocation throughput concurrency goroutine channel mutex`)

// Corpus returns n deterministic chat-like messages of 8 to 30 words of
// Words, each ending in " item" and its index modulo 5,000.
func Corpus(n int) []string {
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
			b.WriteString(Words[rng.IntN(len(Words))])
		}
		b.WriteString(" item")
		b.WriteString(strconv.Itoa(i % 5000))
		out[i] = b.String()
	}
	return out
}

// PerfSnapshot returns the snapshot of one session "perf" holding the n
// messages of Corpus(n) as one chain, users and assistants in turn, the
// cursor at the last (so the cursor's path is n deep): the corpus of
// issue 8 (100,000 messages ≈ 22 MB).
func PerfSnapshot(n int) []byte {
	texts := Corpus(n)
	b := []byte(`{"version":1,"sessionId":"perf","cursor":"m` + strconv.Itoa(n-1) + `","activeBranch":"main","nodes":[`)
	for i := 0; i < n; i++ {
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
		b = jsonx.AppendString(b, texts[i])
		b = append(b, "}}"...)
	}
	return append(b, "]}"...)
}
