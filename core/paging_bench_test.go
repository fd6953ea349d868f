package core

import (
	"fmt"
	"strings"
	"testing"
)

// stubRequestOf is a page.stub request for n sessions shaped as the
// shim's stubRequest (js/store/pager.js) sends them: title, times, node
// count, cursor, active branch, tool and project.
func stubRequestOf(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"operation":"page.stub","sessions":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"sessionId":"session-%05d","title":"Conversation number %d about paging","createdAt":"2026-01-02T03:04:05.000Z","updatedAt":"2026-01-02T03:%02d:05.000Z","nodeCount":100,"tool":"chatgpt","project":"","cursor":"n%04d","activeBranch":"main"}`, i, i, i%60, 100)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkPageStub times page.stub of 10,000 stored summaries into an
// empty store (what a fresh page's Worker does once at start-up), then
// the sessions list it answers.
func BenchmarkPageStub(b *testing.B) {
	req := stubRequestOf(10000)
	b.SetBytes(int64(len(req)))
	b.Run("stub", func(b *testing.B) {
		for b.Loop() {
			st := New(Options{})
			if env := st.CallInternal(req); !strings.HasPrefix(string(env), `{"ok":true`) {
				b.Fatal(string(env[:min(len(env), 200)]))
			}
		}
	})
	b.Run("stub+sessions", func(b *testing.B) {
		for b.Loop() {
			st := New(Options{})
			st.CallInternal(req)
			st.Call([]byte(`{"operation":"sessions"}`))
		}
	})
}
