package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cursor after a refresh (import_merge.go followImport): it follows
// the file's cursor when the user did not move it since the last import of
// the file, also past a Codex compaction or rollback (the file's new cursor
// on another branch); a cursor the user moved stays.
func TestARefreshMovesTheCursorWhereTheToolsIs(t *testing.T) {
	const id = "0199a213-81c0-7800-8aa1-bbab2a035a53"
	data := sample(t, codexSample)
	lines := func(n int) []byte { return data[:nthLineEnd(data, n)] }
	head := []string{
		"system: You are Codex, a coding agent running in the Codex CLI.",
		"developer: <permissions instructions>\nFilesystem sandboxing: workspace-write.\n</permissions instructions>",
		"user: <environment_context>\n  <cwd>/home/dev/bookshop</cwd>\n  <shell>bash</shell>\n</environment_context>",
		"user: Add a test for the price parser",
		"assistant: [reasoning]",
		"assistant: [function call: shell]",
		"tool: [function call output]",
		"assistant: [custom tool call: apply_patch]",
		"tool: [custom tool call output]",
		"assistant: I added tests/price_test.py.",
	}
	t.Run("a thread_rolled_back: the cursor leaves the dropped turn for the rollback's branch", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, lines(20), "auto")
		assert.Equal(t, append(append([]string(nil), head...), "user: Also run it", "assistant: [local shell call]", "tool: [function call output]", "assistant: 1 test passed."), roleTexts(t, st, id))
		res := mustImport(t, st, lines(24), "auto")
		assert.Equal(t, 4, res.Sessions[0].Added, "the rollback marker and the turn after it")
		assert.Equal(t, "L24", *res.Sessions[0].Cursor)
		assert.Equal(t, "L24", shapeOf(t, st, id).Cursor)
		assert.Equal(t, append(append([]string(nil), head...), "user: Instead, search the docs for price formats", "assistant: [web search call]", "assistant: The docs write prices as 1,234.56."),
			roleTexts(t, st, id), "the dropped turn is out of the context, as Codex sent it")
		assert.Equal(t, "main-2", ok[Status](t, st, obj{"operation": "session", "sessionId": id}).ActiveBranch, "the branch of the new cursor is active")
	})
	t.Run("a compacted replacement_history: the context is the replacement history and the turns after it", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, lines(24), "auto")
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, 7, res.Sessions[0].Added, "the compaction, its 4 items, 2 more")
		assert.Equal(t, "L28", shapeOf(t, st, id).Cursor)
		assert.Equal(t, codexSampleContext, roleTexts(t, st, id))
		assertReimportAddsNothing(t, st, data)
	})
	t.Run("a cursor the user jumped elsewhere after the import stays, past a rollback or a compaction", func(t *testing.T) {
		for _, c := range []struct {
			name        string
			first, then int
			jump        string
		}{{"a rollback follows", 20, 24, "L17"}, {"a compaction follows", 24, 28, "L14"}} {
			st := testStore(t)
			mustImport(t, st, lines(c.first), "auto")
			ok[Status](t, st, obj{"operation": "jump", "sessionId": id, "nodeId": c.jump})
			before := roleTexts(t, st, id)
			res := mustImport(t, st, lines(c.then), "auto")
			assert.Positive(t, res.Sessions[0].Added, c.name)
			assert.Equal(t, c.jump, shapeOf(t, st, id).Cursor, c.name)
			assert.Equal(t, before, roleTexts(t, st, id), c.name)
		}
	})
	t.Run("a cursor the user moved up the path stays when the file did not change, follows when it went on", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, lines(20), "auto")
		ok[Status](t, st, obj{"operation": "jump", "sessionId": id, "nodeId": "L14"})
		assertReimportAddsNothing(t, st, lines(20))
		assert.Equal(t, "L14", shapeOf(t, st, id).Cursor, "the file's cursor did not move: nothing to follow")
		mustImport(t, st, lines(24), "auto")
		assert.Equal(t, "L24", shapeOf(t, st, id).Cursor, "the file went on from the user's node: the cursor goes with it")
	})
	t.Run("a cursor the user moved on by appending stays", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, lines(20), "auto")
		ok[obj](t, st, obj{"operation": "append", "sessionId": id, "message": obj{"role": "user", "content": "my own question"}})
		mustImport(t, st, data, "auto")
		got := roleTexts(t, st, id)
		assert.Equal(t, "user: my own question", got[len(got)-1])
	})
	t.Run("a session stored before import records were kept follows only a file that went on from its cursor, then has one", func(t *testing.T) {
		old := testStore(t)
		mustImport(t, old, lines(20), "auto")
		snap := withoutImportRecords(t, snapshot(t, old, id))
		require.NotContains(t, snap, `"annotations"`)
		st := testStore(t)
		ok[Status](t, st, obj{"operation": "snapshot.load", "sessionId": id, "snapshot": RawMessage(snap)})
		mustImport(t, st, lines(24), "auto")
		assert.Equal(t, "L20", shapeOf(t, st, id).Cursor, "not known to be the import's: it stays")
		assert.Contains(t, snapshot(t, st, id), `{"kind":"import","nodeId":"L24",`)
		ok[Status](t, st, obj{"operation": "jump", "sessionId": id, "nodeId": "L24"})
		mustImport(t, st, data, "auto")
		assert.Equal(t, codexSampleContext, roleTexts(t, st, id), "the next refresh follows")
	})
}

func TestAnImportRecordRoundTripsThroughASnapshot(t *testing.T) {
	st := testStore(t)
	mustImport(t, st, sample(t, codexSample), "auto")
	snap := snapshot(t, st, "0199a213-81c0-7800-8aa1-bbab2a035a53")
	assert.Contains(t, snap, `"annotations":[{"kind":"import","nodeId":"L28","timestamp":"2025-10-06T09:15:25.127Z"}]`, "the node's time: an import is the same whenever it runs")
	other := testStore(t)
	reply := string(other.Call([]byte(`{"operation":"snapshot.load","sessionId":"0199a213-81c0-7800-8aa1-bbab2a035a53","snapshot":` + snap + `}`)))
	require.Contains(t, reply, `{"ok":true,`)
	assert.Equal(t, snap, snapshot(t, other, "0199a213-81c0-7800-8aa1-bbab2a035a53"))
	for _, c := range []struct{ name, annotations, want string }{
		{"without a node", `[{"kind":"import","nodeId":null,"timestamp":"2026-01-01T00:00:00Z"}]`, `snapshot: annotations[0] needs a nodeId`},
		{"naming no node of the session", `[{"kind":"import","nodeId":"zz","timestamp":"2026-01-01T00:00:00Z"}]`, `snapshot: annotations[0] names node "zz", which is not in the snapshot`},
		{"with a label", `[{"kind":"import","nodeId":"a","label":"x","timestamp":"2026-01-01T00:00:00Z"}]`, `snapshot: annotations[0] has a field that a import annotation does not have`},
	} {
		bad := `{"version":1,"sessionId":"s","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"x"}}],"annotations":` + c.annotations + `}`
		msg := fails(t, testStore(t), `{"operation":"snapshot.load","sessionId":"s","snapshot":`+bad+`}`, InvalidSnapshot)
		assert.Equal(t, c.want, msg, c.name)
	}
}

func TestARefreshPastAGeminiRewindFollowsTheFile(t *testing.T) {
	const id = "7c1b2f0e-5a44-4d2b-9c8e-2f6a1d3b9e70"
	data := sample(t, geminiSampleLines)
	whole := testStore(t)
	mustImport(t, whole, data, "auto")
	st := testStore(t)
	mustImport(t, st, data[:nthLineEnd(data, 13)], "auto")
	before := shapeOf(t, st, id).Cursor
	res := mustImport(t, st, data, "auto")
	assert.Positive(t, res.Sessions[0].Added)
	assert.Equal(t, "g3", before, "the reply the rewind drops")
	assert.Equal(t, "w1", shapeOf(t, st, id).Cursor, "the $rewindTo moved Gemini's path: the cursor goes with it")
	assert.Equal(t, roleTexts(t, whole, id), roleTexts(t, st, id))
}
