package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tabStore is a test store whose ids carry a prefix, so two "tabs" draw
// different ids the way two random generators would.
func tabStore(tb testing.TB, prefix string) *Store {
	tb.Helper()
	st := testStore(tb)
	seq := 0
	st.s.NewID = func() string {
		seq++
		return fmt.Sprintf("%s%04d", prefix, seq)
	}
	st.TrackChanges(true)
	return st
}

// drainedNodes returns the node lines of one drain of st, as a JSON array.
func drainedNodes(tb testing.TB, st *Store) string {
	tb.Helper()
	var nodes []string
	for _, line := range strings.Split(strings.TrimSpace(string(st.DrainChanges(true))), "\n") {
		if strings.HasPrefix(line, `{"sessionId":`) {
			continue
		}
		nodes = append(nodes, strings.TrimSuffix(line, ","))
	}
	return "[" + strings.Join(nodes, ",") + "]"
}

func TestSyncMerge(t *testing.T) {
	t.Run("nodes another tab appended under the same node make a fork and both tabs keep their cursor", func(t *testing.T) {
		a, b := tabStore(t, "a"), tabStore(t, "b")
		ok[Status](t, a, obj{"operation": "create", "sessionId": "s"})
		root := ok[obj](t, a, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": "hi"}})
		a.DrainChanges(true)
		ok[Status](t, b, obj{"operation": "restore", "snapshot": RawMessage(snapshot(t, a, "s"))})

		ok[obj](t, a, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "assistant", "content": "from a"}})
		fromA := drainedNodes(t, a)
		status := ok[Status](t, b, fmt.Sprintf(`{"operation":"sync.merge","sessionId":"s","nodes":%s}`, fromA))
		assert.Equal(t, 2, status.NodeCount)
		assert.Equal(t, root["id"], *status.Cursor, "tab b keeps its own cursor")

		nb := ok[obj](t, b, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "assistant", "content": "from b"}})
		assert.Equal(t, root["id"], nb["parentId"])
		assert.Equal(t, "main-2", nb["branch"], "the tip of main is a's node, so b forks")
		ok[Status](t, a, fmt.Sprintf(`{"operation":"sync.merge","sessionId":"s","nodes":%s}`, drainedNodes(t, b)))

		assert.Equal(t, snapshotNodes(t, a, "s"), snapshotNodes(t, b, "s"), "both tabs hold the same tree")
		assert.Empty(t, string(a.DrainChanges(true)), "a merge records no change")
	})

	t.Run("a session given the writer's cursor and active branch takes them", func(t *testing.T) {
		st := tabStore(t, "b")
		ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
		st.DrainChanges(true)
		status := ok[Status](t, st, `{"operation":"sync.merge","sessionId":"s","cursor":"x2","activeBranch":"side","updatedAt":"2030-01-01T00:00:00.000Z","title":"T","nodes":[`+
			`{"id":"x1","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"a"}},`+
			`{"id":"x2","parentId":"x1","branch":"side","kind":"message","timestamp":"2026-11-29T12:00:00.001Z","message":{"role":"user","content":"b"}}]}`)
		assert.Equal(t, "x2", *status.Cursor)
		assert.Equal(t, "side", status.ActiveBranch)
		assert.Equal(t, "T", status.Title)
		assert.Equal(t, "2030-01-01T00:00:00.000Z", status.UpdatedAt)
		assert.Equal(t, 2, status.BranchCount)
	})

	t.Run("annotations another tab recorded are merged after its nodes", func(t *testing.T) {
		a, b := tabStore(t, "a"), tabStore(t, "b")
		ok[Status](t, a, obj{"operation": "create", "sessionId": "s"})
		a.DrainChanges(true)
		ok[Status](t, b, obj{"operation": "restore", "snapshot": RawMessage(snapshot(t, a, "s"))})
		n := ok[obj](t, a, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": "hi"}})
		ok[any](t, a, obj{"operation": "label", "sessionId": "s", "nodeId": n["id"], "label": "start"})
		var nodes, annotations []string
		for _, line := range strings.Split(strings.TrimSpace(string(a.DrainChanges(true))), "\n") {
			switch {
			case strings.HasPrefix(line, `{"sessionId":`):
			case strings.HasPrefix(line, `{"kind":"label"`):
				annotations = append(annotations, line)
			default:
				nodes = append(nodes, strings.TrimSuffix(line, ","))
			}
		}
		ok[Status](t, b, fmt.Sprintf(`{"operation":"sync.merge","sessionId":"s","cursor":"a0001","nodes":[%s],"annotations":[%s]}`, strings.Join(nodes, ","), strings.Join(annotations, ",")))
		assert.Equal(t, snapshot(t, a, "s"), snapshot(t, b, "s"))
	})

	const good = `{"id":"x1","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"a"}}`
	faults := []struct {
		name  string
		nodes string
		code  Code
		msg   string
	}{
		{"a repeated id of the session is rejected", `[{"id":"n0001","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"a"}}]`, InvalidSnapshot, `snapshot: nodes[0] repeats the id "n0001"`},
		{"an id repeated inside the list is rejected", "[" + good + "," + good + "]", InvalidSnapshot, `snapshot: nodes[1] repeats the id "x1"`},
		{"an unknown parent is rejected", `[{"id":"x1","parentId":"nope","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"a"}}]`, InvalidSnapshot, `snapshot: node "x1" has parentId "nope", which is not an earlier node`},
		{"a bad kind is rejected", `[{"id":"x1","parentId":null,"branch":"main","kind":"odd","timestamp":"2026-11-29T12:00:00.000Z"}]`, InvalidSnapshot, `snapshot: node "x1" has a bad kind "odd" (known: message, summary, active_tools_change, compaction, custom, custom_message, model_change, session_info, thinking_level_change)`},
		{"a bad node after good ones takes the good ones back", "[" + good + `,{"id":"x2","parentId":"x1","branch":"side","kind":"message","timestamp":"bad","message":{"role":"user","content":"b"}}]`, InvalidSnapshot, `snapshot: node "x2" has a bad timestamp: it must be an RFC 3339 string`},
		{"an annotation naming an unknown node takes the nodes back", "[" + good + `],"annotations":[{"kind":"label","nodeId":"zz","label":"L","timestamp":"2026-11-29T12:00:00.000Z"}]`, InvalidSnapshot, `snapshot: annotations[0] names node "zz", which is not in the snapshot`},
		{"nodes that are not an array are rejected", `{}`, InvalidArgument, `field "nodes" must be an array of nodes for operation "sync.merge"`},
	}
	for _, tc := range faults {
		t.Run(tc.name+" and nothing changes", func(t *testing.T) {
			st := tabStore(t, "n")
			ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
			ok[obj](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": "hi"}})
			before := snapshot(t, st, "s")
			msg := fails(t, st, fmt.Sprintf(`{"operation":"sync.merge","sessionId":"s","nodes":%s}`, tc.nodes), tc.code)
			assert.Equal(t, tc.msg, msg)
			assert.Equal(t, before, snapshot(t, st, "s"))
		})
	}

	t.Run("a failed merge leaves no search hit for the nodes it took back", func(t *testing.T) {
		st := tabStore(t, "n")
		ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
		fails(t, st, `{"operation":"sync.merge","sessionId":"s","nodes":[`+
			`{"id":"x1","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"zebra"}},`+
			`{"id":"x2","parentId":"nope","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"b"}}]}`, InvalidSnapshot)
		env := do(t, st, `{"operation":"search","query":"zebra"}`)
		require.True(t, env.OK)
		assert.Contains(t, string(env.Value), `"total":0`)
	})

	t.Run("an unknown session is SESSION_NOT_FOUND", func(t *testing.T) {
		fails(t, testStore(t), `{"operation":"sync.merge","sessionId":"zz","nodes":[]}`, SessionNotFound)
	})
}

func TestSyncForget(t *testing.T) {
	t.Run("a forgotten session is gone from memory and from the pending changes", func(t *testing.T) {
		st := tabStore(t, "n")
		ok[Status](t, st, obj{"operation": "create", "sessionId": "a"})
		ok[Status](t, st, obj{"operation": "create", "sessionId": "b"})
		assert.Equal(t, map[string]string{"sessionId": "a"}, ok[map[string]string](t, st, `{"operation":"sync.forget","sessionId":"a"}`))
		fails(t, st, `{"operation":"session","sessionId":"a"}`, SessionNotFound)
		list := ok[[]SessionSummary](t, st, `{"operation":"sessions"}`)
		require.Len(t, list, 1)
		assert.Equal(t, "b", list[0].SessionID)
		changes := string(st.DrainChanges(false))
		assert.NotContains(t, changes, `"sessionId":"a"`)
		assert.Contains(t, changes, `"sessionId":"b"`)
	})
}

// snapshotNodes returns the nodes of a session's snapshot as decoded JSON.
func snapshotNodes(tb testing.TB, st *Store, id string) []any {
	tb.Helper()
	var snap struct {
		Nodes []any `json:"nodes"`
	}
	require.NoError(tb, json.Unmarshal([]byte(snapshot(tb, st, id)), &snap))
	return snap.Nodes
}

func TestDrainedNodeLinesAreChunkRecordsAsTheyStand(t *testing.T) {
	st := testStore(t)
	st.TrackChanges(true)
	ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":"c","activeBranch":"main","nodes":[`+
		`{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"one"}},`+
		`{"id":"b","parentId":"a","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"assistant","content":"two, with a comma"}},`+
		`{"id":"c","parentId":"b","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"three"}}]}}`)
	out := string(st.DrainChanges(true))
	head, body, found := strings.Cut(out, "}\n")
	require.True(t, found, out)
	assert.Contains(t, head, `"reset":true,"from":0,"count":3,`)
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	require.Len(t, lines, 3)
	assert.True(t, strings.HasSuffix(lines[0], ",") && strings.HasSuffix(lines[1], ",") && !strings.HasSuffix(lines[2], ","), "every node line but the last ends in a comma: %q", lines)
	// Lines 0 and 1, less the last ",\n", are nodes a and b joined by ",\n":
	// what the shim stores as a chunk record.
	var pair []map[string]any
	require.NoError(t, json.Unmarshal([]byte("["+strings.TrimSuffix(lines[0]+"\n"+lines[1], ",")+"]"), &pair))
	require.Len(t, pair, 2)
	assert.Equal(t, "a", pair[0]["id"])
	assert.Equal(t, "two, with a comma", pair[1]["message"].(map[string]any)["content"])
}

func TestDrainIsSizedOnceAndNotFarOver(t *testing.T) {
	st := perfStore(t, 2000) // chat messages of the benchmark corpus
	st.TrackChanges(true)
	st.Call(append(append([]byte(`{"operation":"snapshot.load","sessionId":"perf","snapshot":`), perfSnapshot(2000)...), '}'))
	est := st.s.DrainSize()
	out := st.DrainChanges(true)
	assert.GreaterOrEqual(t, est, len(out), "the estimate covers the drain: no regrowth")
	assert.Less(t, est, len(out)*3/2, "the estimate is not far over")
}
