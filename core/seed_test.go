package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSeedExample runs the example of the seed plugin's README step by step.
func TestSeedExample(t *testing.T) {
	st := testStore(t)
	status := ok[Status](t, st, `{"operation":"create","sessionId":"demo"}`)
	assert.Equal(t, "demo", status.SessionID)
	assert.Equal(t, "main", status.ActiveBranch)
	assert.Nil(t, status.Cursor)

	a := ok[obj](t, st, `{"operation":"append","sessionId":"demo","message":{"role":"user","content":"Explore option A"}}`)
	assert.Equal(t, "n0001", a["id"])
	assert.Nil(t, a["parentId"])
	assert.Equal(t, "main", a["branch"])
	b := ok[obj](t, st, `{"operation":"append","sessionId":"demo","message":{"role":"assistant","content":"Baseline answer"}}`)
	assert.Equal(t, "n0001", b["parentId"])

	st2 := ok[Status](t, st, `{"operation":"branch","sessionId":"demo","nodeId":"n0001","branch":"option-b"}`)
	assert.Equal(t, "option-b", st2.ActiveBranch)
	assert.Equal(t, "n0001", *st2.Cursor)

	c := ok[obj](t, st, `{"operation":"append","sessionId":"demo","message":{"role":"user","content":"Explore option B"},"branch":"option-b"}`)
	assert.Equal(t, "n0001", c["parentId"])
	assert.Equal(t, "option-b", c["branch"])

	env := do(t, st, `{"operation":"context","sessionId":"demo"}`)
	require.True(t, env.OK)
	assert.JSONEq(t, `{"cursor":"n0003","messages":[{"role":"user","content":"Explore option A"},{"role":"user","content":"Explore option B"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}`, string(env.Value))
	assert.Equal(t, `{"cursor":"n0003","messages":[{"role":"user","content":"Explore option A"},{"role":"user","content":"Explore option B"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}`, string(env.Value))

	branches := ok[[]BranchInfo](t, st, `{"operation":"branches","sessionId":"demo"}`)
	require.Len(t, branches, 2)
	assert.Equal(t, BranchInfo{Name: "main", Tip: ptr("n0002"), Base: nil, NodeCount: 2, Active: false}, branches[0])
	assert.Equal(t, BranchInfo{Name: "option-b", Tip: ptr("n0003"), Base: ptr("n0001"), NodeCount: 1, Active: true}, branches[1])

	snap := ok[obj](t, st, `{"operation":"snapshot.save","sessionId":"demo"}`)
	assert.EqualValues(t, 1, snap["version"])
	assert.Equal(t, "option-b", snap["activeBranch"])
	assert.Equal(t, "n0003", snap["cursor"])
	assert.Len(t, snap["nodes"], 3)

	loaded := ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"demo","snapshot":{"version":1,"sessionId":"demo","cursor":null,"activeBranch":"main","nodes":[]}}`)
	assert.Equal(t, 0, loaded.NodeCount)
	assert.Nil(t, loaded.Cursor)
	env = do(t, st, `{"operation":"context","sessionId":"demo"}`)
	assert.Equal(t, `{"cursor":null,"messages":[],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}`, string(env.Value))
	assert.Equal(t, `{"version":1,"sessionId":"demo","cursor":null,"activeBranch":"main","nodes":[]}`, snapshot(t, st, "demo"))
}

func ptr(s string) *string { return &s }

func TestSnapshotRoundTripIsByteIdentical(t *testing.T) {
	st := testStore(t)
	buildBranchy(t, st, "s")
	first := snapshot(t, st, "s")
	ok[Status](t, st, map[string]any{"operation": "snapshot.load", "sessionId": "s", "snapshot": RawMessage(first)})
	assert.Equal(t, first, snapshot(t, st, "s"))
	other := testStore(t)
	ok[Status](t, other, map[string]any{"operation": "snapshot.load", "sessionId": "s", "snapshot": RawMessage(first)})
	assert.Equal(t, first, snapshot(t, other, "s"))
}

// buildBranchy makes a session with three branches, a summary node and an
// automatically named branch.
func buildBranchy(tb testing.TB, st *Store, id string) {
	tb.Helper()
	ok[Status](tb, st, obj{"operation": "create", "sessionId": id, "title": "Branchy <b>&"})
	root := ok[obj](tb, st, obj{"operation": "append", "sessionId": id, "message": obj{"role": "system", "content": "You are terse."}})
	u := ok[obj](tb, st, obj{"operation": "append", "sessionId": id, "message": obj{"role": "user", "content": "Plan a trip to São Tomé"}})
	ok[obj](tb, st, obj{"operation": "append", "sessionId": id, "message": obj{"role": "assistant", "content": "Day 1: arrive."}})
	ok[Status](tb, st, obj{"operation": "jump", "sessionId": id, "nodeId": u["id"]})
	ok[obj](tb, st, obj{"operation": "append", "sessionId": id, "message": obj{"role": "assistant", "content": "Day 1: rest."}})
	ok[obj](tb, st, obj{"operation": "branch.summary", "sessionId": id, "nodeId": root["id"], "branch": "budget", "summary": "Tried a luxury plan; too costly."})
	ok[obj](tb, st, obj{"operation": "append", "sessionId": id, "message": obj{"role": "user", "content": "Cheaper, please 🙂"}})
}
