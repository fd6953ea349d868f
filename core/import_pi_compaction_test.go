package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Pi compaction that names no first kept entry keeps nothing before it,
// as Pi's buildSessionContext does (it keeps the path from the entry whose
// id is firstKeptEntryId, and none matches).
func TestAPiCompactionWithoutAFirstKeptEntryKeepsNothingBeforeIt(t *testing.T) {
	head := `{"type":"session","version":3,"id":"pk","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/p"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-02T03:04:06.000Z","message":{"role":"user","content":"one"}}
{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-02T03:04:07.000Z","message":{"role":"assistant","content":"two"}}
`
	tail := `{"type":"message","id":"m3","parentId":"k1","timestamp":"2026-01-02T03:04:09.000Z","message":{"role":"user","content":"three"}}
`
	cases := []struct{ name, compaction string }{
		{"without the field", `{"type":"compaction","id":"k1","parentId":"m2","timestamp":"2026-01-02T03:04:08.000Z","summary":"S","tokensBefore":9}`},
		{"with the field null", `{"type":"compaction","id":"k1","parentId":"m2","timestamp":"2026-01-02T03:04:08.000Z","summary":"S","firstKeptEntryId":null,"tokensBefore":9}`},
	}
	for _, tc := range cases {
		t.Run("a compaction "+tc.name+" leaves only its summary and what follows in the context", func(t *testing.T) {
			st := testStore(t)
			res := mustImport(t, st, []byte(head+tc.compaction+"\n"+tail), "pi")
			require.Len(t, res.Sessions, 1)
			assert.Empty(t, warningTexts(res))
			assert.Equal(t, `{"cursor":"m3","messages":[`+
				`{"role":"user","content":"The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>"},`+
				`{"role":"user","content":"three"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}`, contextOf(t, st, "pk"))
			other := testStore(t)
			env := do(t, other, obj{"operation": "snapshot.load", "sessionId": "pk", "snapshot": json.RawMessage(snapshot(t, st, "pk"))})
			require.True(t, env.OK, "the snapshot, whose compaction names itself, loads back: %+v", env.Error)
			assert.Equal(t, contextOf(t, st, "pk"), contextOf(t, other, "pk"))
		})
	}
}
