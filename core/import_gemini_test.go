package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	geminiSampleLines = "gemini/session-2026-03-02T10-00-7c1b2f0e.jsonl"
	geminiSampleJSON  = "gemini/session-2025-09-14T08-00-3d9a7e21.json"
)

func TestImportGemini(t *testing.T) {
	const id = "7c1b2f0e-5a44-4d2b-9c8e-2f6a1d3b9e70"
	t.Run("the jsonl sample: a record seen again replaces it, a rewind leaves a branch, $set titles", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, sample(t, geminiSampleLines), "auto")
		assert.Equal(t, "gemini", res.Format)
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, id, res.Sessions[0].SessionID)
		assert.Equal(t, "Debug the failing npm test", res.Sessions[0].Title)
		assert.Equal(t, treeShape{14, 1, 1, "w1", []string{"main", "main-2"}}, shapeOf(t, st, id))
		assert.Equal(t, []string{
			"user: Why does npm test fail?",
			"assistant: **Running tests** I should run npm test first.\nLet me run the tests.\n[tool use: run_shell_command] {\"command\":\"npm test\"}",
			"user: 1 failing: expected 3 to equal 4",
			"assistant: The sum test expects 4; add() returns 3.",
			"user: Only explain, do not fix",
			"assistant: add() returns a - b; it should return a + b.",
		}, roleTexts(t, st, id), "info, warning and the /stats command do not reach the model")
		assert.Equal(t, []string{`session "Debug the failing npm test": 2 $set line(s) only move lastUpdated; skipped (lines 3, 5)`}, warningTexts(res))
		parents, kinds := snapParents(t, st, id)
		assert.Equal(t, "u2", parents["u3"], "the rewound prompt stays, a branch the cursor left")
		assert.Equal(t, "u2", parents["L14"])
		assert.Equal(t, "g1", parents["g1_response"])
		assert.Equal(t, map[string]string{"session": "custom", "i1": "custom", "u2": "custom", "L14": "custom", "L17": "custom", "w1": "custom", "g1": "message"},
			map[string]string{"session": kinds["session"], "i1": kinds["i1"], "u2": kinds["u2"], "L14": kinds["L14"], "L17": kinds["L17"], "w1": kinds["w1"], "g1": kinds["g1"]})
	})
	t.Run("the json sample: an older record with toolCalls beside its content", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, sample(t, geminiSampleJSON), "auto")
		assert.Equal(t, "gemini", res.Format)
		sid := "3d9a7e21-0b6c-4f15-a2e4-8c7d5b1f0a93"
		assert.Equal(t, "List the files in src", res.Sessions[0].Title)
		assert.Equal(t, treeShape{6, 1, 0, "a4", []string{"main"}}, shapeOf(t, st, sid))
		assert.Equal(t, []string{
			"user: List the files in src",
			"assistant: **Listing** Use the ls tool.\n[tool use: list_directory] {\"path\":\"src\"}",
			"user: index.ts\nutil.ts",
			"assistant: src holds index.ts and util.ts.",
		}, roleTexts(t, st, sid))
		assert.Empty(t, warningTexts(res))
	})
	t.Run("importing again adds nothing; the file grown adds only its new records", func(t *testing.T) {
		data := sample(t, geminiSampleLines)
		st := testStore(t)
		mustImport(t, st, data, "auto")
		assert.Equal(t, 0, mustImport(t, st, data, "auto").Sessions[0].Added)
		grown := testStore(t)
		first := mustImport(t, grown, data[:nthLineEnd(data, 13)], "auto")
		assert.Equal(t, 9, first.Sessions[0].NodeCount)
		rest := mustImport(t, grown, data, "auto")
		assert.Equal(t, 5, rest.Sessions[0].Added)
		ok[obj](t, grown, obj{"operation": "jump", "sessionId": id, "nodeId": "w1"})
		assert.Equal(t, roleTexts(t, st, id), roleTexts(t, grown, id))
	})
}

func FuzzImportGemini(f *testing.F) {
	fuzzImport(f, "gemini", string(sample(f, geminiSampleLines)), string(sample(f, geminiSampleJSON)),
		"{\"sessionId\":\"s\",\"projectHash\":\"h\"}\n{\"$set\":{\"messages\":[{\"id\":\"a\",\"type\":\"user\",\"content\":\"x\"},{\"id\":\"a\",\"type\":\"gemini\",\"content\":[{\"text\":\"y\",\"thought\":true}]}]}}\n{\"$rewindTo\":\"zz\"}\n")
}

func TestAGeminiMessageWithoutAnIdGetsAStableOne(t *testing.T) {
	msgs := `{"id":"a","type":"user","content":"q","timestamp":"2025-01-01T00:00:00Z"},` +
		`{"type":"gemini","content":"r","timestamp":"2025-01-01T00:00:01Z"},` +
		`{"id":"c","type":"user","content":"more","timestamp":"2025-01-01T00:00:02Z"}`
	file := func(extra string) []byte {
		return []byte(`{"sessionId":"g","projectHash":"h","startTime":"2025-01-01T00:00:00Z","messages":[` + msgs + extra + `]}`)
	}
	st := testStore(t)
	res := mustImport(t, st, file(""), "auto")
	assert.Equal(t, []string{"user: q", "assistant: r", "user: more"}, roleTexts(t, st, "g"), "the message without an id is kept, in its place")
	require.Len(t, res.Warnings, 1)
	assert.Regexp(t, `message 2 has no id \(or one that is not a string\); it is given "gemini-msg-[0-9a-f]{16}", derived from its place and content`, res.Warnings[0].Message)
	again := mustImport(t, st, file(""), "auto")
	assert.Equal(t, 0, again.Sessions[0].Added, "the same file again adds nothing: the derived id is stable")
	grown := mustImport(t, st, file(`,{"id":"d","type":"gemini","content":"done","timestamp":"2025-01-01T00:00:03Z"}`), "auto")
	assert.Equal(t, 1, grown.Sessions[0].Added, "a file that grew adds only its new message")
	assert.Equal(t, []string{"user: q", "assistant: r", "user: more", "assistant: done"}, roleTexts(t, st, "g"))
}

func TestAGeminiSessionWhoseMessagesAreNotAnArraySaysSo(t *testing.T) {
	head := `{"sessionId":"g","projectHash":"h","startTime":"2025-01-01T00:00:00Z"`
	for _, c := range []struct{ name, messages, want string }{
		{"an object", `,"messages":{"x":[{"id":"a","type":"user","content":"q"}]}`, "the session's messages are not an array; none is imported, only its metadata"},
		{"a string", `,"messages":"hello"`, "the session's messages are not an array; none is imported, only its metadata"},
		{"a number", `,"messages":5`, "the session's messages are not an array; none is imported, only its metadata"},
		{"null", `,"messages":null`, "the session has no messages array; only its metadata is imported"},
		{"missing", ``, "the session has no messages array; only its metadata is imported"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := testStore(t)
			res := mustImport(t, st, []byte(head+c.messages+`}`), "gemini")
			require.Len(t, res.Sessions, 1)
			assert.Equal(t, 1, res.Sessions[0].NodeCount, "the metadata entry alone")
			require.Len(t, res.Warnings, 1)
			assert.Contains(t, res.Warnings[0].Message, c.want)
		})
	}
	t.Run("an empty array is no fault", func(t *testing.T) {
		res := mustImport(t, testStore(t), []byte(head+`,"messages":[]}`), "gemini")
		assert.NotContains(t, warningTexts(res), "the session has no messages array; only its metadata is imported")
	})
}
