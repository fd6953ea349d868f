package core

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sample reads a public-format sample of core/testdata/imports.
func sample(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "imports", name))
	require.NoError(tb, err)
	return data
}

func TestImportClaudeAI(t *testing.T) {
	// Context texts join a thinking part's text before the answer's (MessageText).
	t.Run("the sample: retries and edits become branches, the cursor is current_leaf_message_uuid", func(t *testing.T) {
		st := testStore(t)
		data := sample(t, "claudeai/conversations.json")
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, "claudeai", res.Format)
		require.Len(t, res.Sessions, 3)
		id := "5f0c7a52-1b8e-4c1e-9a63-0d2b5e8f4a11"
		assert.Equal(t, "Packing list for a rainy weekend", res.Sessions[0].Title)
		assert.Equal(t, treeShape{6, 1, 2, "a4000000-0000-4000-8000-000000000004", []string{"main", "main-2", "main-3"}}, shapeOf(t, st, id))
		assert.Equal(t, []string{
			"user: Attachment forecast.txt:\n\nSat: rain, 9 C, wind 30 km/h. Sun: showers, 11 C.\nWhat should I pack for two rainy days in Bergen?",
			"assistant: Rain and wind, around 10 C: layers and a shell.\nA waterproof shell, a warm mid-layer, quick-dry trousers and waterproof shoes.",
			"user: And for dinner out?",
			"assistant: A wool sweater and one pair of dry shoes kept for the evening.",
		}, roleTexts(t, st, id))
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": id, "nodeId": "a2000000-0000-4000-8000-000000000002"})
		assert.Equal(t, obj{"type": "thinking", "thinking": "Rain and wind, around 10 C: layers and a shell."}, n["message"].(obj)["content"].([]any)[0])
		assert.Equal(t, treeShape{2, 1, 0, "b2000000-0000-4000-8000-000000000002", []string{"main"}}, shapeOf(t, st, "6a1d8b63-2c9f-4d2f-8b74-1e3c6f905b22"), "without parent links: one chain")
		assert.Equal(t, 0, res.Sessions[2].NodeCount, "an empty conversation is an empty session")
		assertReimportAddsNothing(t, st, data)
	})
	cases := []struct {
		name, data, warning string
		nodes               int
	}{
		{"a message with an unknown sender is skipped, named", `[{"uuid":"c","chat_messages":[{"uuid":"m1","sender":"human","text":"a"},{"uuid":"m2","sender":"robot","text":"b"}]}]`,
			`message 1 ("m2") has sender "robot", which is neither human nor assistant; skipped`, 1},
		{"a repeated uuid keeps the first", `[{"uuid":"c","chat_messages":[{"uuid":"m1","sender":"human","text":"a"},{"uuid":"m1","sender":"assistant","text":"b"}]}]`,
			`message "m1" appears again (record 2); the first is kept and this one skipped`, 1},
		{"a parent cycle is cut", `[{"uuid":"c","chat_messages":[{"uuid":"m1","sender":"human","text":"a","parent_message_uuid":"m2"},{"uuid":"m2","sender":"assistant","text":"b","parent_message_uuid":"m1"}]}]`,
			`would close a cycle`, 2},
		{"a message that is not an object is skipped", `[{"uuid":"c","chat_messages":[7,{"uuid":"m1","sender":"human","text":"a"}]}]`,
			`message 0 is not a JSON object; skipped`, 1},
		{"a message whose text is not a string is skipped, the field named", `[{"uuid":"c","chat_messages":[{"uuid":"m0","sender":"human","text":7},{"uuid":"m1","sender":"human","text":"a"}]}]`,
			`message 0 could not be read (its "text" must be a string); skipped`, 1},
		{"a message whose content is not an array is skipped, the field named", `[{"uuid":"c","chat_messages":[{"uuid":"m0","sender":"human","content":{}},{"uuid":"m1","sender":"human","text":"a"}]}]`,
			`message 0 could not be read (its "content" must be an array); skipped`, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := testStore(t)
			res := mustImport(t, st, []byte(tc.data), "auto")
			assert.Contains(t, strings.Join(warningTexts(res), "\n"), tc.warning)
			assert.Equal(t, tc.nodes, st.s.ByID["c"].Len())
		})
	}
	t.Run("a conversation without a uuid gets a stable id; its grown file adds the new turns", func(t *testing.T) {
		old := `{"name":"n","created_at":"2025-01-01T00:00:00Z","chat_messages":[{"sender":"human","text":"a"},{"sender":"assistant","text":"b"}]}`
		grown := strings.Replace(old, `]}`, `,{"sender":"human","text":"c"}]}`, 1)
		st := testStore(t)
		first := mustImport(t, st, []byte(old), "claudeai")
		res := mustImport(t, st, []byte(grown), "claudeai")
		assert.Regexp(t, `^claudeai-[0-9a-f]{16}$`, first.Sessions[0].SessionID)
		assert.Equal(t, first.Sessions[0].SessionID, res.Sessions[0].SessionID)
		assert.Equal(t, 1, res.Sessions[0].Added)
	})
	t.Run("the export wrapped with its account, and one conversation alone, import the same", func(t *testing.T) {
		conv := `{"uuid":"c","name":"n","chat_messages":[{"uuid":"m1","sender":"human","content":[{"type":"text","text":"a"}]},{"uuid":"m2","sender":"assistant","text":"b"}]}`
		for _, data := range []string{`{"account":{"uuid":"x"},"conversations":[` + conv + `]}`, conv, "[" + conv + "]"} {
			st := testStore(t)
			res := mustImport(t, st, []byte(data), "auto")
			assert.Equal(t, "claudeai", res.Format)
			assert.Equal(t, []string{"user: a", "assistant: b"}, roleTexts(t, st, "c"))
		}
	})
	t.Run("a conversation whose every message is unusable is rejected", func(t *testing.T) {
		_, err := testStore(t).Import([]byte(`[{"uuid":"c","chat_messages":[{"uuid":"m","sender":"x"}]}]`), "auto")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "none of its 1 records could be used")
	})
}

func TestImportSillyTavern(t *testing.T) {
	t.Run("the sample: every swipe a sibling, the chosen one on the path, hidden messages off the context", func(t *testing.T) {
		st := testStore(t)
		data := sample(t, "sillytavern/chat.jsonl")
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, "sillytavern", res.Format)
		require.Len(t, res.Sessions, 1)
		s := res.Sessions[0]
		assert.Equal(t, "Seraphina", s.Title)
		sh := shapeOf(t, st, s.SessionID)
		assert.Equal(t, 9, sh.Nodes, "2 + 1 + 3 swipes and messages, the hidden note, the narrator, the last message")
		assert.Equal(t, 2, sh.Roots, "the greeting's two swipes")
		assert.Equal(t, 1, sh.BranchPoints)
		assert.Equal(t, []string{
			"assistant: Greetings, traveler. The forest is quiet tonight.",
			"user: Is there a path to the river?",
			"assistant: Birches grow by water; east.\nFollow the birches east; the path bends down to the water.",
			"system: The wind picks up.",
			"user: Thank you. I will go at dawn.",
		}, roleTexts(t, st, s.SessionID))
		assert.Contains(t, snapshot(t, st, s.SessionID), `{"type":"thinking","thinking":"Birches grow by water; east."}`)
		assert.Contains(t, snapshot(t, st, s.SessionID), `"customType":"sillytavern/hidden"`)
		assertReimportAddsNothing(t, st, data)
	})
	t.Run("a grown chat (a new swipe, a new message) adds only those", func(t *testing.T) {
		data := string(sample(t, "sillytavern/chat.jsonl"))
		st := testStore(t)
		first := mustImport(t, st, []byte(data), "auto")
		grown := data + `{"name":"Seraphina","is_user":false,"mes":"Safe travels.","swipes":["Safe travels.","Mind the roots."],"swipe_id":0}` + "\n"
		res := mustImport(t, st, []byte(grown), "auto")
		assert.Equal(t, first.Sessions[0].SessionID, res.Sessions[0].SessionID)
		assert.Equal(t, 2, res.Sessions[0].Added)
		assert.Equal(t, "assistant: Safe travels.", roleTexts(t, st, res.Sessions[0].SessionID)[5])
	})
	t.Run("a malformed middle line is skipped with a warning naming the line", func(t *testing.T) {
		lines := strings.Split(string(sample(t, "sillytavern/chat.jsonl")), "\n")
		lines[2] = `{"name":"Alex",oops}`
		st := testStore(t)
		res := mustImport(t, st, []byte(strings.Join(lines, "\n")), "auto")
		assert.Contains(t, strings.Join(warningTexts(res), "\n"), "line 3 is not valid JSON")
		assert.Equal(t, 8, res.Sessions[0].NodeCount)
	})
	t.Run("a line without mes is skipped, named; a bad swipe_id chooses the swipe equal to mes", func(t *testing.T) {
		data := `{"user_name":"u","character_name":"c","create_date":"2025-01-01T00:00:00Z"}` + "\n" +
			`{"name":"u","is_user":true,"text":"no mes"}` + "\n" +
			`{"name":"c","is_user":false,"mes":"b","swipes":["a","b"],"swipe_id":7}` + "\n"
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		texts := strings.Join(warningTexts(res), "\n")
		assert.Contains(t, texts, "line 2 is not a SillyTavern message (it has no mes); skipped")
		assert.Contains(t, texts, "line 3: swipe_id does not name one of its 2 swipes; the swipe equal to mes is chosen")
		assert.Equal(t, []string{"assistant: b"}, roleTexts(t, st, res.Sessions[0].SessionID))
	})
	t.Run("an optional field of another type is left out, named, the message kept; mes or is_user of another type skips the line, named", func(t *testing.T) {
		data := `{"user_name":"u","character_name":"c","create_date":"2025-01-01T00:00:00Z"}` + "\n" +
			`{"name":"u","is_user":true,"mes":"hello","extra":"x"}` + "\n" +
			`{"name":"c","is_user":false,"mes":"b","swipes":"ab","swipe_id":"1"}` + "\n" +
			`{"name":"u","is_user":"yes","mes":"whose?"}` + "\n" +
			`{"name":"u","is_user":true,"mes":7}` + "\n"
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		assert.Equal(t, []string{
			`session "c": line 2: its "extra" must be an object; it is left out`,
			`session "c": line 3: its "swipes" must be an array; it is left out`,
			`session "c": line 3: its "swipe_id" must be a whole number; it is left out`,
			`session "c": line 4: its "is_user" must be true or false; skipped`,
			`session "c": line 5: its "mes" must be a string; skipped`,
		}, warningTexts(res))
		assert.Equal(t, []string{"user: hello", "assistant: b"}, roleTexts(t, st, res.Sessions[0].SessionID))
	})
}

func TestImportSillyTavernDates(t *testing.T) {
	data := `{"user_name":"You","character_name":"Aqua","create_date":1674559896839}` + "\n" +
		`{"name":"Aqua","is_user":false,"send_date":1674563371558,"mes":"hi"}` + "\n" +
		`{"name":"You","is_user":true,"send_date":"2023-4-21 @20h 03m 06s 446ms","mes":"yo"}` + "\n"
	st := testStore(t)
	res := mustImport(t, st, []byte(data), "auto")
	assert.Equal(t, "Aqua", res.Sessions[0].Title)
	snap := snapshot(t, st, res.Sessions[0].SessionID)
	assert.Contains(t, snap, `"timestamp":"2023-01-24T12:29:31.558Z"`, "Unix milliseconds")
	assert.Contains(t, snap, `"timestamp":"2023-04-21T20:03:06.446Z"`, "SillyTavern's humanized date, read as UTC")
	status := ok[obj](t, st, obj{"operation": "session", "sessionId": res.Sessions[0].SessionID})
	assert.Equal(t, "2023-01-24T11:31:36.839Z", status["createdAt"], "create_date in Unix milliseconds, to the millisecond")
}
