package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// seedSession builds the seed README's example: n0001 user "Explore option
// A", n0002 assistant "Baseline answer" (main), n0003 user "Explore option
// B" on branch option-b from n0001.
func seedSession(tb testing.TB, st *Store, id string) {
	tb.Helper()
	ok[Status](tb, st, `{"operation":"create","sessionId":"`+id+`"}`)
	ok[obj](tb, st, `{"operation":"append","sessionId":"`+id+`","message":{"role":"user","content":"Explore option A"}}`)
	ok[obj](tb, st, `{"operation":"append","sessionId":"`+id+`","message":{"role":"assistant","content":"Baseline answer"}}`)
	ok[Status](tb, st, `{"operation":"branch","sessionId":"`+id+`","nodeId":"n0001","branch":"option-b"}`)
	ok[obj](tb, st, `{"operation":"append","sessionId":"`+id+`","message":{"role":"user","content":"Explore option B"},"branch":"option-b"}`)
}

func TestDiff(t *testing.T) {
	st := testStore(t)
	seedSession(t, st, "demo")
	ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"forest","snapshot":{"version":1,"sessionId":"forest","cursor":"b2","activeBranch":"other","nodes":[`+
		`{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-01-02T03:04:05.006Z","message":{"role":"user","content":"one"}},`+
		`{"id":"b","parentId":null,"branch":"other","kind":"message","timestamp":"2026-01-02T03:04:05.007Z","message":{"role":"user","content":"two"}},`+
		`{"id":"b2","parentId":"b","branch":"other","kind":"message","timestamp":"2026-01-02T03:04:05.008Z","message":{"role":"assistant","content":"three"}}]}}`)
	cases := []struct {
		name, session, from, to, want string
	}{
		{"the seed example's two branches part after their common root", "demo", "main", "option-b",
			`{"sessionId":"demo","from":{"ref":"main","nodeId":"n0002","branch":"main"},"to":{"ref":"option-b","nodeId":"n0003","branch":"option-b"},"ancestor":"n0001","common":1,` +
				`"fromOnly":[{"id":"n0002","branch":"main","kind":"message","role":"assistant","text":"Baseline answer"}],` +
				`"toOnly":[{"id":"n0003","branch":"option-b","kind":"message","role":"user","text":"Explore option B"}]}`},
		{"a node and its own ancestor differ by the path between them", "demo", "n0002", "n0001",
			`{"sessionId":"demo","from":{"ref":"n0002","nodeId":"n0002"},"to":{"ref":"n0001","nodeId":"n0001"},"ancestor":"n0001","common":1,` +
				`"fromOnly":[{"id":"n0002","branch":"main","kind":"message","role":"assistant","text":"Baseline answer"}],"toOnly":[]}`},
		{"a node compared with itself has no difference", "demo", "n0003", "option-b",
			`{"sessionId":"demo","from":{"ref":"n0003","nodeId":"n0003"},"to":{"ref":"option-b","nodeId":"n0003","branch":"option-b"},"ancestor":"n0003","common":2,"fromOnly":[],"toOnly":[]}`},
		{"nodes in different roots of a forest share nothing", "forest", "a", "b2",
			`{"sessionId":"forest","from":{"ref":"a","nodeId":"a"},"to":{"ref":"b2","nodeId":"b2"},"ancestor":null,"common":0,` +
				`"fromOnly":[{"id":"a","branch":"main","kind":"message","role":"user","text":"one"}],` +
				`"toOnly":[{"id":"b","branch":"other","kind":"message","role":"user","text":"two"},{"id":"b2","branch":"other","kind":"message","role":"assistant","text":"three"}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := do(t, st, obj{"operation": "diff", "sessionId": c.session, "from": c.from, "to": c.to})
			assert.True(t, env.OK, "%+v", env.Error)
			assert.Equal(t, c.want, string(env.Value))
		})
	}

	t.Run("an unknown reference is NOT_FOUND naming it", func(t *testing.T) {
		assert.Equal(t, `to: "nope" is neither a node nor a branch of session "demo"`,
			fails(t, st, `{"operation":"diff","sessionId":"demo","from":"main","to":"nope"}`, NotFound))
	})
	t.Run("a missing reference is INVALID_ARGUMENT", func(t *testing.T) {
		assert.Equal(t, `field "from" is required for operation "diff"`,
			fails(t, st, `{"operation":"diff","sessionId":"demo","to":"main"}`, InvalidArgument))
	})
}
