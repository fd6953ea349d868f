package core

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkImportClaudeCodeIDs imports a Claude Code file of 50,000
// lines (the fixture's first prompt and answer, again and again) naming
// one sessionId, two taking turns line by line, and one a line (50,000
// sessions): the split by id must stay linear in the lines and the ids.
func BenchmarkImportClaudeCodeIDs(b *testing.B) {
	data, err := os.ReadFile("testdata/fixtures/claude-code/dag_compact_after_rewind.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	user := strings.Replace(lines[0], `"parentUuid":null`, `"parentUuid":"PARENT"`, 1)
	answer := strings.Replace(lines[1], `"parentUuid":"u1"`, `"parentUuid":"PARENT"`, 1)
	file := func(n, ids int) []byte {
		var sb strings.Builder
		last := make([]string, ids) // each id's last uuid
		for i := range n {
			line, id, uuid := user, i%ids, "m"+strconv.Itoa(i)
			if i/ids%2 == 1 {
				line = answer
			}
			line = strings.Replace(line, `"PARENT"`, strconv.Quote(last[id]), 1)
			line = strings.Replace(line, `"sessionId":"s1"`, `"sessionId":"s`+strconv.Itoa(id)+`"`, 1)
			line = strings.Replace(strings.Replace(line, `"uuid":"u1"`, `"uuid":"`+uuid+`"`, 1), `"uuid":"a1"`, `"uuid":"`+uuid+`"`, 1)
			sb.WriteString(strings.Replace(line, `"parentUuid":""`, `"parentUuid":null`, 1))
			last[id] = uuid
		}
		return []byte(sb.String())
	}
	for _, c := range []struct {
		name string
		ids  int
	}{{"one id", 1}, {"two ids line by line", 2}, {"an id a line", 50000}} {
		data := file(50000, c.ids)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				res, err := New(Options{}).Import(data, "auto")
				if err != nil || len(res.Sessions) != c.ids {
					b.Fatal(err, len(res.Sessions))
				}
				importSink = res
			}
		})
	}
}
