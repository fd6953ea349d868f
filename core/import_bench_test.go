package core

import (
	"fmt"
	"strings"
	"testing"
)

// bigOpenWebUI writes an Open WebUI export of chats × msgs messages with
// about 400 bytes of text each (400 × 60 ≈ 12.9 MB).
func bigOpenWebUI(chats, msgs int) []byte {
	var all []owuiChat
	for c := 0; c < chats; c++ {
		var recs []rec
		for m := 0; m < msgs; m++ {
			r := rec{id: fmt.Sprintf("c%dm%d", c, m), text: fmt.Sprintf("message %d %s", m, strings.Repeat("x", 400)), t: m}
			if m > 0 {
				r.parent = fmt.Sprintf("c%dm%d", c, m-1)
			}
			recs = append(recs, r)
		}
		all = append(all, owuiChat{fmt.Sprintf("chat%d", c), fmt.Sprintf("c%dm%d", c, msgs-1), recs})
	}
	return writeOpenWebUI(all...)
}

// bigClaudeCode writes a Claude Code transcript of n lines in one chain.
func bigClaudeCode(n int) []byte {
	recs := make([]rec, n)
	for i := range recs {
		recs[i] = rec{id: fmt.Sprintf("u%07d", i), text: strings.Repeat("y", 400), t: i}
		if i > 0 {
			recs[i].parent = recs[i-1].id
		}
	}
	return writeClaudeCode("big", recs)
}

var importSink *ImportResult

func BenchmarkImport(b *testing.B) {
	cases := []struct {
		name string
		data []byte
	}{
		{"openwebui-400x60", bigOpenWebUI(400, 60)},
		{"claude-code-20000-lines", bigClaudeCode(20000)},
		{"claude-code-100000-lines", bigClaudeCode(100000)}, // ~50 MB: the same MB/s shows linear work
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.data)))
			for i := 0; i < b.N; i++ {
				st := New(Options{})
				res, err := st.Import(tc.data, "auto")
				if err != nil {
					b.Fatal(err)
				}
				importSink = res
			}
		})
	}
}
