package core

import (
	"fmt"
	"testing"
)

// sink keeps benchmark results alive.
var sink any

// BenchmarkTreeText: the tree value (rows and compacted text) of linear
// chains; the text stays a few lines whatever the length.
func BenchmarkTreeText(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("chain of %d", n), func(b *testing.B) {
			st := testStore(b)
			ok[Status](b, st, `{"operation":"snapshot.load","sessionId":"c","snapshot":`+chainSnapshot("c", n)+`}`)
			s := st.Session("c")
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				sink = s.Tree()
			}
		})
	}
}

// BenchmarkCommand: a command through Call, parse to reply, on a 10,000-node
// chain.
func BenchmarkCommand(b *testing.B) {
	st := testStore(b)
	ok[Status](b, st, `{"operation":"snapshot.load","sessionId":"c","snapshot":`+chainSnapshot("c", 10_000)+`}`)
	for _, line := range []string{"/tree context", "/tree tree", "/tree diff c9999 c5000", "/tree jump c5000"} {
		req := []byte(`{"operation":"command","sessionId":"c","line":"` + line + `"}`)
		b.Run(line, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink = st.Call(req)
			}
		})
	}
}

// BenchmarkContextWithEntries: context (messages and state) at the end of a
// 10,000-node path with a compaction in the middle and an entry every tenth
// node.
func BenchmarkContextWithEntries(b *testing.B) {
	st := testStore(b)
	ok[Status](b, st, `{"operation":"create","sessionId":"e"}`)
	for i := 0; i < 10_000; i++ {
		req := `{"operation":"append","sessionId":"e","message":{"role":"user","content":"m"}}`
		switch {
		case i == 5_000:
			req = `{"operation":"append","sessionId":"e","entry":{"kind":"compaction","summary":"s","firstKeptNodeId":"n4000"}}`
		case i%10 == 9:
			req = `{"operation":"append","sessionId":"e","entry":{"kind":"model_change","provider":"p","model":"m"}}`
		}
		st.Call([]byte(req))
	}
	s := st.Session("e")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = s.Context()
	}
}

// BenchmarkTreeOperation: the tree operation through Call (rows encoded as
// JSON) on a 10,000-node chain, previews already cached.
func BenchmarkTreeOperation(b *testing.B) {
	st := testStore(b)
	ok[Status](b, st, `{"operation":"snapshot.load","sessionId":"c","snapshot":`+chainSnapshot("c", 10_000)+`}`)
	req := []byte(`{"operation":"tree","sessionId":"c"}`)
	sink = st.Call(req)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = st.Call(req)
	}
}
