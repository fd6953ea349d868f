package core

import (
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// apiFixture is the store both sides of TestTypedMethodsAnswerAsCall start
// from: session "s" with n0001 → n0002 → n0003 on main, n0004 under n0001
// on main-2 (the cursor), a label on n0002.
func apiFixture(t *testing.T) *Store {
	st := testStore(t)
	st.TrackChanges(true)
	for _, req := range []string{
		`{"operation":"create","sessionId":"s","title":"S"}`,
		`{"operation":"append","sessionId":"s","message":{"role":"user","content":"one fish"}}`,
		`{"operation":"append","sessionId":"s","message":{"role":"assistant","content":"two fish"}}`,
		`{"operation":"append","sessionId":"s","message":{"role":"user","content":"red fish"}}`,
		`{"operation":"jump","sessionId":"s","nodeId":"n0001"}`,
		`{"operation":"append","sessionId":"s","message":{"role":"assistant","content":"blue fish"}}`,
		`{"operation":"label","sessionId":"s","nodeId":"n0002","label":"keep"}`,
	} {
		require.True(t, do(t, st, req).OK, req)
	}
	st.DrainChanges(true)
	return st
}

// TestTypedMethodsAnswerAsCall runs each typed method and the request of
// the same operation on two copies of one store: the same value (encoded)
// or the same error code and message, and the same stores afterwards
// (every session's snapshot, the changes recorded).
func TestTypedMethodsAnswerAsCall(t *testing.T) {
	msg := RawMessage(`{"role":"user","content":"green fish"}`)
	cases := []struct {
		name  string
		req   string
		typed func(st *Store) (any, error)
	}{
		{"create", `{"operation":"create","sessionId":"t","title":"T"}`,
			func(st *Store) (any, error) { return st.Create("t", "T") }},
		{"create taken", `{"operation":"create","sessionId":"s"}`,
			func(st *Store) (any, error) { return st.Create("s", "") }},
		{"create bad id", `{"operation":"create","sessionId":" "}`,
			func(st *Store) (any, error) { return st.Create(" ", "") }},
		{"append", `{"operation":"append","sessionId":"s","message":{"role":"user","content":"green fish"}}`,
			func(st *Store) (any, error) { return st.Append("s", msg, AppendOptions{}) }},
		{"append to a branch", `{"operation":"append","sessionId":"s","branch":"main","message":{"role":"user","content":"green fish"}}`,
			func(st *Store) (any, error) { return st.Append("s", msg, AppendOptions{Branch: "main"}) }},
		{"append to no branch", `{"operation":"append","sessionId":"s","branch":"zzz","message":{"role":"user","content":"green fish"}}`,
			func(st *Store) (any, error) { return st.Append("s", msg, AppendOptions{Branch: "zzz"}) }},
		{"append a bad message", `{"operation":"append","sessionId":"s","message":{"role":"","content":"x"}}`,
			func(st *Store) (any, error) {
				return st.Append("s", RawMessage(`{"role":"","content":"x"}`), AppendOptions{})
			}},
		{"append to no session", `{"operation":"append","sessionId":"x","message":{"role":"user","content":"green fish"}}`,
			func(st *Store) (any, error) { return st.Append("x", msg, AppendOptions{}) }},
		{"append an entry", `{"operation":"append","sessionId":"s","entry":{"kind":"model_change","provider":"p","model":"m"}}`,
			func(st *Store) (any, error) {
				return st.AppendEntry("s", RawMessage(`{"kind":"model_change","provider":"p","model":"m"}`), AppendOptions{})
			}},
		{"append a compaction off the path", `{"operation":"append","sessionId":"s","entry":{"kind":"compaction","summary":"x","firstKeptNodeId":"n0003"}}`,
			func(st *Store) (any, error) {
				return st.AppendEntry("s", RawMessage(`{"kind":"compaction","summary":"x","firstKeptNodeId":"n0003"}`), AppendOptions{})
			}},
		{"jump", `{"operation":"jump","sessionId":"s","nodeId":"n0003"}`,
			func(st *Store) (any, error) { return st.Jump("s", "n0003") }},
		{"jump nowhere", `{"operation":"jump","sessionId":"s","nodeId":"n9"}`,
			func(st *Store) (any, error) { return st.Jump("s", "n9") }},
		{"branch", `{"operation":"branch","sessionId":"s","nodeId":"n0002","branch":"alt"}`,
			func(st *Store) (any, error) { return st.Branch("s", "n0002", "alt") }},
		{"branch on a name in use", `{"operation":"branch","sessionId":"s","nodeId":"n0002","branch":"main-2"}`,
			func(st *Store) (any, error) { return st.Branch("s", "n0002", "main-2") }},
		{"fork", `{"operation":"fork","sessionId":"s","nodeId":"n0002","newSessionId":"f"}`,
			func(st *Store) (any, error) { return st.Fork("s", "n0002", ForkOptions{NewSessionID: "f"}) }},
		{"fork with a branch and a drawn id", `{"operation":"fork","sessionId":"s","nodeId":"n0003","branch":"mine"}`,
			func(st *Store) (any, error) { return st.Fork("s", "n0003", ForkOptions{Branch: "mine"}) }},
		{"fork onto a taken id", `{"operation":"fork","sessionId":"s","nodeId":"n0002","newSessionId":"s"}`,
			func(st *Store) (any, error) { return st.Fork("s", "n0002", ForkOptions{NewSessionID: "s"}) }},
		{"clone", `{"operation":"clone","sessionId":"s","newSessionId":"c"}`,
			func(st *Store) (any, error) { return st.Clone("s", "c") }},
		{"context", `{"operation":"context","sessionId":"s"}`,
			func(st *Store) (any, error) { return st.Context("s") }},
		{"session", `{"operation":"session","sessionId":"s"}`,
			func(st *Store) (any, error) { return st.Status("s") }},
		{"sessions", `{"operation":"sessions"}`,
			func(st *Store) (any, error) { return st.Sessions(), nil }},
		{"branches", `{"operation":"branches","sessionId":"s"}`,
			func(st *Store) (any, error) { return st.Branches("s") }},
		{"label", `{"operation":"label","sessionId":"s","nodeId":"n0003","label":"best"}`,
			func(st *Store) (any, error) { return st.Label("s", "n0003", "best") }},
		{"label with a control character", `{"operation":"label","sessionId":"s","nodeId":"n0003","label":"a\u0007"}`,
			func(st *Store) (any, error) { return st.Label("s", "n0003", "a\a") }},
		{"hide", `{"operation":"hide","sessionId":"s","nodeId":"n0002","hidden":true}`,
			func(st *Store) (any, error) { return st.Hide("s", "n0002", true) }},
		{"prefer", `{"operation":"prefer","sessionId":"s","nodeId":"n0003"}`,
			func(st *Store) (any, error) { return st.Prefer("s", "n0003") }},
		{"prefer nothing", `{"operation":"prefer","sessionId":"s","nodeId":null}`,
			func(st *Store) (any, error) { return st.Prefer("s", "") }},
		{"rename", `{"operation":"rename","sessionId":"s","title":"Fish"}`,
			func(st *Store) (any, error) { return st.Rename("s", "Fish") }},
		{"search", `{"operation":"search","query":"fsh","roles":["assistant"],"limit":1}`,
			func(st *Store) (any, error) {
				return st.Search("fsh", SearchOptions{Roles: []string{"assistant"}, Limit: 1})
			}},
		{"search an empty query", `{"operation":"search","query":" "}`,
			func(st *Store) (any, error) { return st.Search(" ", SearchOptions{}) }},
		{"search a branch the session lacks", `{"operation":"search","query":"fish","sessionId":"s","branch":"nope"}`,
			func(st *Store) (any, error) { return st.Search("fish", SearchOptions{SessionID: "s", Branch: "nope"}) }},
		{"snapshot.save", `{"operation":"snapshot.save","sessionId":"s"}`,
			func(st *Store) (any, error) {
				b, err := st.SaveSnapshot("s")
				return RawMessage(b), err
			}},
		{"snapshot.load", `{"operation":"snapshot.load","sessionId":"l","snapshot":{"version":1,"sessionId":"x","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi"}}]}}`,
			func(st *Store) (any, error) {
				return st.LoadSnapshot("l", []byte(`{"version":1,"sessionId":"x","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi"}}]}`))
			}},
		{"snapshot.load of a bad snapshot", `{"operation":"snapshot.load","sessionId":"l","snapshot":{"version":2}}`,
			func(st *Store) (any, error) { return st.LoadSnapshot("l", []byte(`{"version":2}`)) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			byCall, typed := apiFixture(t), apiFixture(t)
			env := do(t, byCall, tc.req)
			v, err := tc.typed(typed)
			if env.OK {
				require.NoError(t, err)
				raw, merr := jsonx.Marshal(v)
				require.NoError(t, merr)
				assert.JSONEq(t, string(env.Value), string(raw))
			} else {
				require.Error(t, err)
				var e *Error
				require.ErrorAs(t, err, &e)
				assert.Equal(t, env.Error.Code, e.Code)
				assert.Equal(t, env.Error.Message, e.Message)
			}
			assert.Equal(t, storeState(t, byCall), storeState(t, typed), "the stores after the call")
		})
	}
}

// storeState is every session's snapshot and the changes recorded since
// the fixture was drained, for comparing two stores.
func storeState(t *testing.T, st *Store) []string {
	var out []string
	for _, s := range st.Sessions() {
		out = append(out, string(do(t, st, `{"operation":"snapshot.save","sessionId":"`+s.SessionID+`"}`).Value))
	}
	return append(out, string(st.DrainChanges(true)))
}
