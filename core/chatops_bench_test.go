package core

import "testing"

// BenchmarkContextIds measures context of a 100,000-deep path through
// Call three ways: plain (the peer: what every chat turn pays), with
// "ids": false (the same path, one field more to read), and with ids
// (node ids and siblings added). The plain request must not pay for ids.
func BenchmarkContextIds(b *testing.B) {
	st := perfStore(b, 100000)
	for _, c := range []struct{ name, req string }{
		{"plain", `{"operation":"context","sessionId":"perf"}`},
		{"ids=false", `{"operation":"context","sessionId":"perf","ids":false}`},
		{"ids=true", `{"operation":"context","sessionId":"perf","ids":true}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := []byte(c.req)
			for i := 0; i < b.N; i++ {
				perfSink = st.Call(req)
			}
			b.SetBytes(int64(len(perfSink)))
		})
	}
}

// BenchmarkAppendMany measures append.many of 1,000 messages into a new
// session beside 1,000 appends of one message (the peer: one call each).
func BenchmarkAppendMany(b *testing.B) {
	msgs := make([]byte, 0, 64<<10)
	msgs = append(msgs, '[')
	for i := 0; i < 1000; i++ {
		if i > 0 {
			msgs = append(msgs, ',')
		}
		msgs = append(msgs, `{"role":"user","content":"a message of a migrated chat"}`...)
	}
	msgs = append(msgs, ']')
	b.Run("append.many", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			st := testStore(b)
			perfSink = st.Call(append(append([]byte(`{"operation":"append.many","sessionId":"m","create":true,"messages":`), msgs...), '}'))
		}
	})
	b.Run("append×1000", func(b *testing.B) {
		one := []byte(`{"operation":"append","sessionId":"m","message":{"role":"user","content":"a message of a migrated chat"}}`)
		for i := 0; i < b.N; i++ {
			st := testStore(b)
			st.Call([]byte(`{"operation":"create","sessionId":"m"}`))
			for k := 0; k < 1000; k++ {
				perfSink = st.Call(one)
			}
		}
	})
}
