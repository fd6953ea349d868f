package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const codexSample = "codex/rollout-2025-10-06T09-15-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl"

// snapParents returns each node's parent id ("" for a root) and kind, by
// id, from a session's snapshot.
func snapParents(t *testing.T, st *Store, id string) (parents, kinds map[string]string) {
	t.Helper()
	var snap struct {
		Nodes []struct {
			ID, Kind string
			ParentID *string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(snapshot(t, st, id)), &snap))
	parents, kinds = map[string]string{}, map[string]string{}
	for _, n := range snap.Nodes {
		parents[n.ID], kinds[n.ID] = "", n.Kind
		if n.ParentID != nil {
			parents[n.ID] = *n.ParentID
		}
	}
	return parents, kinds
}

// codexSampleContext is the context at the cursor of codexSample: its
// compaction's replacement history, under the instructions, and the turn
// after it.
var codexSampleContext = []string{
	"system: You are Codex, a coding agent running in the Codex CLI.",
	"developer: <permissions instructions>\nFilesystem sandboxing: workspace-write.\n</permissions instructions>",
	"user: Add a test for the price parser",
	"user: Instead, search the docs for price formats",
	"assistant: [compaction]",
	"user: Thanks; now format prices that way",
	"assistant: Done: prices print as 1,234.56.",
}

func TestImportCodex(t *testing.T) {
	const id = "0199a213-81c0-7800-8aa1-bbab2a035a53"
	t.Run("the sample: a rollback leaves a branch, a compaction starts the context again", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, sample(t, codexSample), "auto")
		assert.Equal(t, "codex", res.Format)
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, id, res.Sessions[0].SessionID)
		assert.Equal(t, "Add a test for the price parser", res.Sessions[0].Title, "the first prompt, not the environment context")
		assert.Equal(t, "/home/dev/bookshop", res.Sessions[0].Project, "the project is the session_meta's cwd")
		assert.Equal(t, treeShape{29, 1, 2, "L28", []string{"main", "main-2", "main-3"}}, shapeOf(t, st, id))
		assert.Equal(t, codexSampleContext, roleTexts(t, st, id), "the replacement history, under the instructions")
		// Its task_started, user_message, agent_message, token_count and unchanged
		// turn_context lines are routine: left out without a warning.
		assert.Empty(t, warningTexts(res))
		parents, kinds := snapParents(t, st, id)
		assert.Equal(t, "L14", parents["L17"], "the rolled-back turn stays, a branch the cursor left")
		assert.Equal(t, "L14", parents["L21"], "the rollback marker hangs where the history went on")
		assert.Equal(t, "L21", parents["L22"])
		assert.Equal(t, "L1.instructions", parents["L25"], "the replacement history hangs off the instructions")
		assert.Equal(t, map[string]string{"L1": "custom", "L4": "model_change", "L4.effort": "thinking_level_change", "L9": "custom", "L21": "custom", "L25": "custom"},
			map[string]string{"L1": kinds["L1"], "L4": kinds["L4"], "L4.effort": kinds["L4.effort"], "L9": kinds["L9"], "L21": kinds["L21"], "L25": kinds["L25"]})
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": id, "nodeId": "L12"})
		assert.Equal(t, "apply_patch", n["message"].(obj)["content"].([]any)[0].(obj)["name"], "a tool call is the item itself, as a content part")
		meta := ok[obj](t, st, obj{"operation": "node", "sessionId": id, "nodeId": "L1"})
		data := meta["entry"].(obj)["data"].(obj)
		assert.Equal(t, "/home/dev/bookshop", data["cwd"])
		assert.Nil(t, data["base_instructions"], "the instructions are the system message under it")
	})
	t.Run("importing the sample again adds nothing; the file cut short then grown adds only its new lines", func(t *testing.T) {
		st := testStore(t)
		data := sample(t, codexSample)
		mustImport(t, st, data, "auto")
		again := mustImport(t, st, data, "auto")
		assert.Equal(t, 0, again.Sessions[0].Added)
		grown := testStore(t)
		cut := data[:nthLineEnd(data, 20)]
		first := mustImport(t, grown, cut, "auto")
		assert.Equal(t, 18, first.Sessions[0].NodeCount)
		rest := mustImport(t, grown, data, "auto")
		assert.Equal(t, 11, rest.Sessions[0].Added, "the rollback marker, 3 nodes after it, the compaction and its 4 items, 2 more")
		assert.Equal(t, "L28", shapeOf(t, grown, id).Cursor, "the cursor follows the file's past the rollback and the compaction (nobody moved it)")
		assert.Equal(t, roleTexts(t, st, id), roleTexts(t, grown, id), "the context is the one importing the whole file gives")
	})
	t.Run("a compaction without replacement history keeps the summary and what follows", func(t *testing.T) {
		st := testStore(t)
		data := `{"timestamp":"2025-09-01T10:00:00.000Z","type":"session_meta","payload":{"id":"old","timestamp":"2025-09-01T10:00:00.000Z","cwd":"/w"}}
{"timestamp":"2025-09-01T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}
{"timestamp":"2025-09-01T10:00:02.000Z","type":"compacted","payload":{"message":"They said hi."}}
{"timestamp":"2025-09-01T10:00:03.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"again"}]}}
`
		res := mustImport(t, st, []byte(data), "auto")
		assert.Len(t, res.Warnings, 1)
		assert.Equal(t, []string{
			"user: The conversation history before this point was compacted into the following summary:\n\n<summary>\nThey said hi.\n</summary>",
			"user: again",
		}, roleTexts(t, st, "old"))
		assert.Equal(t, "/w", res.Sessions[0].Project)
	})
	t.Run("a session_meta without cwd takes the project from the first turn_context", func(t *testing.T) {
		st := testStore(t)
		data := `{"timestamp":"2025-09-01T10:00:00.000Z","type":"session_meta","payload":{"id":"nocwd","timestamp":"2025-09-01T10:00:00.000Z"}}
{"timestamp":"2025-09-01T10:00:01.000Z","type":"turn_context","payload":{"cwd":"/home/a/first","model":"gpt-5"}}
{"timestamp":"2025-09-01T10:00:02.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}
{"timestamp":"2025-09-01T10:00:03.000Z","type":"turn_context","payload":{"cwd":"/home/a/second","model":"gpt-5"}}
`
		res := mustImport(t, st, []byte(data), "auto")
		assert.Equal(t, "/home/a/first", res.Sessions[0].Project)
		list := ok[[]any](t, st, obj{"operation": "sessions"})
		assert.Equal(t, "/home/a/first", list[0].(obj)["project"], "the sessions answer carries it")
	})
}

// nthLineEnd returns the offset just after the n-th line of data.
func nthLineEnd(data []byte, n int) int {
	at := 0
	for k := 0; k < n; k++ {
		at += bytes.IndexByte(data[at:], '\n') + 1
	}
	return at
}

func FuzzImportCodex(f *testing.F) {
	fuzzImport(f, "codex", string(sample(f, codexSample)),
		`{"timestamp":"x","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":3}}`,
		"{\"id\":\"a\",\"timestamp\":\"t\",\"instructions\":null}\n{\"record_type\":\"state\"}\n{\"type\":\"message\",\"role\":\"user\",\"content\":[]}\n",
		`{"timestamp":"2025-01-01T00:00:00Z","type":"compacted","payload":{"message":"s","replacement_history":[1,{"type":"message","role":"user","content":[]}]}}`)
}

func TestImportCodexMid2025(t *testing.T) {
	// codex-rs of May 2025 (recorder.rs then): a first line {id, timestamp,
	// instructions}, {"record_type":"state"} lines, bare response items.
	data := `{"id":"5973b6c0-94b8-487b-a530-2aeb6098ae0e","timestamp":"2025-05-07T17:24:21.123Z","instructions":null}
{"record_type":"state"}
{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"<environment_context>cwd</environment_context>"}]}
{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"hello"}]}
{"record_type":"state"}
{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"hi"}]}
`
	st := testStore(t)
	res := mustImport(t, st, []byte(data), "auto")
	assert.Equal(t, "codex", res.Format)
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, "hello", res.Sessions[0].Title)
	assert.Equal(t, []string{"user: <environment_context>cwd</environment_context>", "user: hello", "assistant: hi"}, roleTexts(t, st, "5973b6c0-94b8-487b-a530-2aeb6098ae0e"))
	assert.Empty(t, warningTexts(res), "its state lines are routine")
}

func TestImportCodexWarnsOfAnEventItDoesNotKnow(t *testing.T) {
	data := sample(t, codexSample)
	lines := bytes.Count(data, []byte("\n"))
	data = append(data, `{"timestamp":"2025-10-01T10:09:00.000Z","type":"event_msg","payload":{"type":"brand_new_event","x":1}}`+"\n"...)
	res := mustImport(t, testStore(t), data, "auto")
	assert.Equal(t, []string{fmt.Sprintf(`session "Add a test for the price parser": 1 event_msg brand_new_event line(s): the model does not see them; skipped (lines %d)`, lines+1)}, warningTexts(res))
}
