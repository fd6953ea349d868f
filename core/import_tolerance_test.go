package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ccLine writes one Claude Code transcript line of session "cc".
func ccLine(typ, uuid, parent, extra string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	if extra == "" {
		extra = `"message":{"role":"` + typ + `","content":"` + uuid + ` text"}`
	}
	return `{"type":"` + typ + `","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"cc","timestamp":"2025-01-01T00:00:0` + uuid[len(uuid)-1:] + `Z",` + extra + "}\n"
}

// assertReimportAddsNothing imports data again into st and checks that it
// succeeds, reports every session as existing with nothing added, and
// changes no session.
func assertReimportAddsNothing(t *testing.T, st *Store, data []byte) {
	t.Helper()
	before := map[string]string{}
	for id := range st.s.ByID {
		before[id] = snapshot(t, st, id)
	}
	res, err := st.Import(data, "auto")
	require.Nil(t, err, "a second import of the same file is not an error")
	require.NotEmpty(t, res.Sessions)
	for _, s := range res.Sessions {
		assert.True(t, s.Existing, "session %q was there", s.SessionID)
		assert.Equal(t, 0, s.Added, "a second import of the same file adds nothing to %q", s.SessionID)
	}
	for id, snap := range before {
		assert.Equal(t, snap, snapshot(t, st, id), "session %q is unchanged", id)
	}
	assert.Len(t, st.s.ByID, len(before))
}

// roleTexts returns the context of a session as role: text lines.
func roleTexts(t *testing.T, st *Store, id string) []string {
	t.Helper()
	ctx := ok[Context](t, st, obj{"operation": "context", "sessionId": id})
	out := make([]string, 0, len(ctx.Messages))
	for _, m := range ctx.Messages {
		_, role, err := tree.ValidateMessage(m, "m")
		require.Nil(t, err)
		out = append(out, role+": "+MessageText(m))
	}
	return out
}

func TestImportClaudeCodeTolerance(t *testing.T) {
	t.Run("two lines repeating a uuid keep the first and warn, the session imports", func(t *testing.T) {
		data := ccLine("user", "u1", "", "") + ccLine("assistant", "a2", "u1", "") + ccLine("assistant", "a2", "u1", "") + ccLine("user", "u3", "a2", "")
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		assert.Equal(t, 3, st.s.ByID["cc"].Len())
		assert.Contains(t, warningTexts(res), `message "a2" appears again (record 3); the first is kept and this one skipped`)
		assert.Equal(t, []string{"user: u1 text", "assistant: a2 text", "user: u3 text"}, roleTexts(t, st, "cc"))
	})
	t.Run("a record whose message.content is missing is kept off the model's context, with a warning naming the line", func(t *testing.T) {
		data := ccLine("user", "u1", "", "") + ccLine("assistant", "a2", "u1", `"message":{"role":"assistant"}`) + ccLine("user", "u3", "a2", "")
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		assert.Equal(t, 3, st.s.ByID["cc"].Len())
		assert.Contains(t, strings.Join(warningTexts(res), "\n"), `line 2: record "a2" has an unusable message (its message.content is missing`)
		assert.Equal(t, []string{"user: u1 text", "user: u3 text"}, roleTexts(t, st, "cc"))
	})
	t.Run("a preserved-segment compaction whose logicalParentUuid is a descendant of the boundary is cut at the logical link", func(t *testing.T) {
		// o1 ← o2 is the history before compaction; b is the boundary
		// (parentUuid null, logicalParentUuid p2), s its summary, p1 ← p2
		// the preserved segment rewritten after it: following b's
		// logical link would close b → p2 → p1 → s → b.
		data := ccLine("user", "o1", "", "") + ccLine("assistant", "o2", "o1", "") +
			ccLine("system", "b3", "", `"subtype":"compact_boundary","logicalParentUuid":"p6","content":"Conversation compacted"`) +
			ccLine("user", "s4", "b3", `"isCompactSummary":true,"message":{"role":"user","content":"summary of o1 o2"}`) +
			ccLine("user", "p5", "s4", "") + ccLine("assistant", "p6", "p5", "")
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		sh := shapeOf(t, st, "cc")
		assert.Equal(t, 6, sh.Nodes, "nothing is lost")
		assert.Equal(t, 2, sh.Roots, "the boundary becomes a root, as the file states")
		assert.Equal(t, "p6", sh.Cursor)
		assert.Contains(t, warningTexts(res), `message "b3": the link to "p6" that the importer inferred would close a cycle; it is cut and it becomes a root`)
		assert.Equal(t, []string{"user: " + CompactionPreamble + "summary of o1 o2" + CompactionClosing, "user: p5 text", "assistant: p6 text"}, roleTexts(t, st, "cc"))
	})
	t.Run("a cycle of stated links is cut at the record written last", func(t *testing.T) {
		data := ccLine("user", "u1", "a3", "") + ccLine("assistant", "a2", "u1", "") + ccLine("user", "a3", "a2", "")
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		assert.Equal(t, treeShape{3, 1, 0, "a2", []string{"main"}}, shapeOf(t, st, "cc"))
		assert.Contains(t, warningTexts(res), `message "a3": its parent "a2" would close a cycle; the link is cut and it becomes a root`)
	})
	t.Run("a file whose every line is broken imports nothing and says why", func(t *testing.T) {
		_, err := testStore(t).Import([]byte("{\"parentUuid\":1}\n{oops}\n"), "claude-code")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "nothing imported")
		assert.Contains(t, err.Message, "line 2 is not valid JSON")
	})
}

func TestImportDamagedFirstLine(t *testing.T) {
	whole := fixture(t, "claude-code/dag_compact_after_rewind.jsonl")
	st := testStore(t)
	intact := mustImport(t, st, whole, "auto")
	first, rest, _ := bytes.Cut(whole, []byte("\n"))
	want := st.s.ByID["s1"].Len() - 1
	for name, line := range map[string]string{
		"cut off":             string(first[:30]),
		"not JSON":            "garbage",
		"an open brace":       "{",
		"an array":            "[1,2,3]",
		"a NUL byte":          "{\"type\":\"user\",\x00}",
		"an object cut short": string(first[:len(first)-2]),
	} {
		t.Run("line 1 "+name+": the other lines import, line 1 is named as skipped", func(t *testing.T) {
			st := testStore(t)
			res := mustImport(t, st, []byte(line+"\n"+string(rest)), "auto")
			assert.Equal(t, intact.Format, res.Format)
			require.NotNil(t, st.s.ByID["s1"])
			assert.Equal(t, want, st.s.ByID["s1"].Len(), "every node but line 1's")
			found := false
			for _, w := range warningTexts(res) {
				// "line 1 is not valid JSON: …; it is skipped", or for a JSON
				// value that is no object, counted with the lines carrying no message.
				found = found || strings.HasPrefix(w, "line 1 ") && strings.HasSuffix(w, "it is skipped") || strings.HasSuffix(w, "skipped (lines 1)")
			}
			assert.True(t, found, "a warning names line 1: %q", warningTexts(res))
		})
	}
	t.Run("a pretty-printed JSON document that is damaged is not taken for lines", func(t *testing.T) {
		_, err := testStore(t).Import([]byte("{\n  \"title\": \"x\",\n  \"mapping\": {\n    \"a\": {\"id\": \"a\"}\n  }\n  oops\n}\n"), "auto")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "not valid JSON")
	})
}

func TestImportOpenWebUIChatsOfTheWrongShapeAreSkipped(t *testing.T) {
	var rows []any
	require.NoError(t, json.Unmarshal(fixture(t, "librechat/openwebui-export.json"), &rows))
	st := testStore(t)
	whole := mustImport(t, st, fixture(t, "librechat/openwebui-export.json"), "auto")
	for bad, why := range map[string]string{
		`{"history":{"messages":5}}`: `its "history.messages" is a number, not an object`,
		`{"history":"x"}`:            `its "history" is a string, not an object`,
		`{"messages":{"a":1}}`:       `its "messages" is an object, not an array`,
	} {
		t.Run(bad, func(t *testing.T) {
			var chat any
			require.NoError(t, json.Unmarshal([]byte(bad), &chat))
			data, err := json.Marshal(append(append([]any{}, rows...), map[string]any{"id": "broken", "title": "Broken", "chat": chat}))
			require.NoError(t, err)
			st := testStore(t)
			res := mustImport(t, st, data, "auto")
			assert.Len(t, res.Sessions, len(whole.Sessions), "the good chats import, the broken one makes no session")
			assert.Nil(t, st.s.ByID["broken"])
			require.NotEmpty(t, res.Skipped)
			last := res.Skipped[len(res.Skipped)-1]
			assert.Equal(t, "broken", last.SessionID)
			assert.Equal(t, `chat "Broken" could not be read (`+why+`); skipped`, last.Reason)
		})
	}
	t.Run("a chat with no messages at all is still an empty session", func(t *testing.T) {
		data, err := json.Marshal([]any{map[string]any{"id": "empty", "title": "Empty", "chat": map[string]any{"history": map[string]any{"messages": map[string]any{}}}}})
		require.NoError(t, err)
		st := testStore(t)
		mustImport(t, st, data, "auto")
		require.NotNil(t, st.s.ByID["empty"])
	})
}

func TestImportPiTolerance(t *testing.T) {
	head := `{"type":"session","version":3,"id":"p","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}` + "\n"
	msg := func(id, parent, role, text string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"` + role + `","content":[{"type":"text","text":"` + text + `"}]}}` + "\n"
	}
	t.Run("a malformed middle line is skipped with a warning naming the line; its children attach to the header", func(t *testing.T) {
		data := head + msg("a", "", "user", "q") + `{"type":"message","id":"b",oops}` + "\n" + msg("c", "a", "assistant", "r")
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		assert.Contains(t, warningTexts(res), `line 3 is not valid JSON: invalid character 'o' looking for an object key at line 3, column 28; it is skipped`)
		assert.Equal(t, 3, st.s.ByID["p"].Len(), "the header, a and c")
		assert.Equal(t, []string{"user: q", "assistant: r"}, roleTexts(t, st, "p"))
	})
}

func TestImportChatGPTInferredLinks(t *testing.T) {
	t.Run("a parent inferred from a children list that would close a cycle is cut before the stated one", func(t *testing.T) {
		data := `[{"id":"g","current_node":"a","mapping":{
			"a":{"id":"a","parent":"b","children":["b"],"message":{"author":{"role":"assistant"},"create_time":2,"content":{"content_type":"text","parts":["r"]}}},
			"b":{"id":"b","children":["a"],"message":{"author":{"role":"user"},"create_time":1,"content":{"content_type":"text","parts":["q"]}}}}}]`
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		assert.Equal(t, treeShape{2, 1, 0, "a", []string{"main"}}, shapeOf(t, st, "g"))
		assert.Contains(t, warningTexts(res), `message "b": the link to "a" that the importer inferred would close a cycle; it is cut and it becomes a root`)
		assert.Equal(t, []string{"user: q", "assistant: r"}, roleTexts(t, st, "g"))
	})
}

func TestImportEmptyJSONLines(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"a Pi session of a header only", `{"type":"session","version":3,"id":"p","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}` + "\n", `session "p": it has no entries; it is an empty session`},
		{"a SillyTavern chat of a header only", `{"user_name":"u","character_name":"c","create_date":"2025-01-01T00:00:00Z","chat_metadata":{}}` + "\n", `it has no messages; it is an empty session`},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is an empty session", func(t *testing.T) {
			st := testStore(t)
			res := mustImport(t, st, []byte(tc.data), "auto")
			require.Len(t, res.Sessions, 1)
			assert.Equal(t, 0, res.Sessions[0].NodeCount)
			assert.Contains(t, strings.Join(warningTexts(res), "\n"), tc.want)
		})
	}
	t.Run("a Claude Code file without message lines imports nothing", func(t *testing.T) {
		_, err := testStore(t).Import([]byte(`{"type":"summary","summary":"s","leafUuid":"u"}`+"\n"), "auto")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "has no messages; skipped")
	})
}

func TestImportWarningsNameTheConversationOnce(t *testing.T) {
	const fineChatGPT = `{"id":"c-2","title":"Fine","mapping":{"a":{"id":"a","parent":null,"children":[],"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}}}}}`
	cases := []struct{ name, data, want string }{
		{"a ChatGPT conversation without mapping is named by its title",
			`[` + fineChatGPT + `,{"id":"c-1","title":"Corrupted entry"}]`,
			`conversation "Corrupted entry" has no messages (its "mapping" is missing); skipped`},
		{"a ChatGPT conversation without a title is named by its id",
			`[` + fineChatGPT + `,{"id":"c-1"}]`,
			`conversation "c-1" has no messages (its "mapping" is missing); skipped`},
		{"an empty Claude.ai conversation is named by its title",
			`[{"uuid":"u1","name":"Plans","chat_messages":[]},{"uuid":"u2","name":"x","chat_messages":[{"uuid":"m","sender":"human","text":"hi","content":[{"type":"text","text":"hi"}]}]}]`,
			`conversation "Plans" has no messages; it is an empty session`},
		{"a Claude.ai conversation whose every message is unusable is named by its title",
			`[{"uuid":"u1","name":"Plans","chat_messages":[{"uuid":"m","sender":"bot","text":"hi"}]},{"uuid":"u2","name":"x","chat_messages":[{"uuid":"m","sender":"human","text":"hi","content":[{"type":"text","text":"hi"}]}]}]`,
			`conversation "Plans": none of its 1 records could be used; skipped`},
		{"an Open WebUI message whose id is not its key says so once",
			`[{"id":"w","title":"Trip","chat":{"history":{"currentId":"k","messages":{"k":{"id":"other","parentId":null,"childrenIds":[],"role":"user","content":"q"}}}}}]`,
			`chat "Trip": message "k" carries another id, "other"; its key is used`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := mustImport(t, testStore(t), []byte(tc.data), "auto")
			assert.Contains(t, warningTexts(res), tc.want)
		})
	}
}

// A Claude Code session is titled by its summary, else its first prompt,
// else (a file without the main line's prompt) the task its Task call
// gave a sub-agent, as Claude Code shows the call, else a sidechain's
// first prompt (a sub-agent's own transcript begins with its task).
func TestImportClaudeCodeTitles(t *testing.T) {
	const (
		prompt = `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"cc","timestamp":"2025-11-19T22:53:00.000Z","message":{"role":"user","content":"Fix the border colours"}}`
		meta   = `{"type":"user","uuid":"u0","parentUuid":null,"isMeta":true,"sessionId":"cc","timestamp":"2025-11-19T22:52:00.000Z","message":{"role":"user","content":"Caveat: local commands"}}`
		task   = `{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"cc","timestamp":"2025-11-19T22:53:34.908Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"subagent_type":"general-purpose","description":"Research data-border-color usage","prompt":"Research how data-border-color is used in the code base and report back."}}]}}`
		agent  = `{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"cc","timestamp":"2025-11-19T22:53:34.908Z","message":{"role":"assistant","content":[{"type":"text","text":"On it."},{"type":"tool_use","id":"t1","name":"Agent","input":{"subagent_type":"Explore","description":"Find the colour tokens","prompt":"List every colour token."}}]}}`
		side1  = `{"type":"user","uuid":"s1","parentUuid":null,"isSidechain":true,"agentId":"e1c84ba5","sessionId":"cc","timestamp":"2025-11-19T22:53:35.000Z","message":{"role":"user","content":"Research how data-border-color is used in the code base and report back."}}`
		side2  = `{"type":"assistant","uuid":"s2","parentUuid":"s1","isSidechain":true,"agentId":"e1c84ba5","sessionId":"cc","timestamp":"2025-11-19T22:53:39.112Z","message":{"role":"assistant","content":[{"type":"text","text":"I'll research it."}]}}`
		result = `{"type":"user","uuid":"s3","parentUuid":"s2","isSidechain":true,"agentId":"e1c84ba5","sessionId":"cc","timestamp":"2025-11-19T22:53:40.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"12 files"}]}}`
	)
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"a transcript with its first prompt is titled by it, not by its sub-agent's task",
			[]string{meta, prompt, task, side1, side2}, "Fix the border colours"},
		{"a transcript without its first prompt is titled by its sub-agent's task",
			[]string{task, side2, result}, "Research data-border-color usage"},
		{"an Agent call (the Task tool's later name) titles it too",
			[]string{agent, side2}, "Find the colour tokens"},
		{"a sub-agent's own transcript is titled by the task it was sent",
			[]string{side2, result, side1}, "Research how data-border-color is used in the code base and r…"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := mustImport(t, testStore(t), []byte(strings.Join(tc.lines, "\n")+"\n"), "claude-code")
			require.Len(t, res.Sessions, 1)
			assert.Equal(t, tc.want, res.Sessions[0].Title)
		})
	}
}

// TestALibreChatMessageThatIsNotAnObjectIsSkippedAlone: an element of the
// messages (or of a message's children) that is not an object, and
// children that are not an array, are passed over with a warning naming
// them; the conversation keeps every message that is one.
func TestALibreChatMessageThatIsNotAnObjectIsSkippedAlone(t *testing.T) {
	msg := func(id, parent, text, children string) string {
		return fmt.Sprintf(`{"messageId":%q,"parentMessageId":%q,"isCreatedByUser":true,"text":%q%s}`, id, parent, text, children)
	}
	data := `{"conversationId":"lc","title":"Mixed","messages":[` +
		msg("a", formats.LibreRoot, "first", `,"children":[[1,2],`+msg("b", "a", "second", `,"children":"none"`)+`]`) + `,7,` +
		msg("c", formats.LibreRoot, "third", "") + `]}`
	st := testStore(t)
	res := mustImport(t, st, []byte(data), "librechat")
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, 3, res.Sessions[0].NodeCount)
	assert.Equal(t, []string{
		`conversation "Mixed": element 0 of the children of message 0 is an array, not a message object; skipped`,
		`conversation "Mixed": the children of message 1 are a string, not an array; skipped`,
		`conversation "Mixed": element 1 of the messages is a number, not a message object; skipped`,
	}, warningTexts(res))

	assert.Equal(t, `nothing imported: conversation "none": none of its messages could be used (element 0 of the messages is a number, not a message object); skipped`,
		fails(t, testStore(t), obj{"operation": "import", "data": `{"conversationId":"none","messages":[1,"x"]}`, "format": "librechat"}, InvalidArgument))
}

// TestAChatbotUIChatWithAFieldOfAnotherType: a name or prompt of another
// type is taken as absent, with a warning, and the chat is kept; an id or
// messages of another type skip the chat, the skip naming the field.
func TestAChatbotUIChatWithAFieldOfAnotherType(t *testing.T) {
	data := `{"version":4,"history":[` +
		`{"id":"named","name":42,"prompt":["p"],"messages":[{"role":"user","content":"kept"}]},` +
		`{"id":7,"name":"Seven","messages":[{"role":"user","content":"x"}]},` +
		`{"id":"m","name":"Broken","messages":"none"}],"folders":[]}`
	st := testStore(t)
	res := mustImport(t, st, []byte(data), "chatbotui")
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, "named", res.Sessions[0].SessionID)
	assert.Equal(t, 1, res.Sessions[0].NodeCount)
	assert.Equal(t, []string{
		`chat "named": its "name" is a number, not a string; taken as absent`,
		`chat "named": its "prompt" is an array, not a string; taken as absent`,
		`chat 2 could not be read: its "id" is a number, not a string; skipped`,
		`chat 3 could not be read: its "messages" is a string, not an array; skipped`,
	}, warningTexts(res))
}

// TestNothingImportedSaysFiveReasonsAndHowManyMore: a file read in a
// format it is not in fails with a reason per line; the message gives the
// first five and how many more, not all of them.
func TestNothingImportedSaysFiveReasonsAndHowManyMore(t *testing.T) {
	data := fixture(t, "librechat/chatgpt-tree.json") // pretty-printed: a line per member
	msg := fails(t, testStore(t), obj{"operation": "import", "data": string(data), "format": "claude-code"}, InvalidArgument)
	assert.Equal(t, 5, strings.Count(msg, "is not valid JSON"), msg)
	assert.Regexp(t, `^nothing imported: line 1 is not valid JSON: .*; and \d+ more$`, msg)
	assert.Less(t, len(msg), 1000)
}

func TestImportWarningsSayWhatAFieldIs(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"an Open WebUI message whose role is a number",
			`[{"id":"w","chat":{"history":{"messages":{"a":{"id":"a","parentId":null,"role":"user","content":"hi"},"b":{"id":"b","parentId":"a","role":3,"content":"yo"}}}}}]`,
			`message "b" has a role that is not a string; skipped (its replies attach to its parent)`},
		{"an Open WebUI message whose role is empty",
			`[{"id":"w","chat":{"history":{"messages":{"a":{"id":"a","parentId":null,"role":"user","content":"hi"},"b":{"id":"b","parentId":"a","role":"","content":"yo"}}}}}]`,
			`message "b" has an empty role; skipped (its replies attach to its parent)`},
		{"a LibreChat message whose messageId is a number",
			`{"conversationId":"r","messages":[{"messageId":"a","parentMessageId":"00000000-0000-0000-0000-000000000000","isCreatedByUser":true,"text":"q"},{"messageId":5,"parentMessageId":"a","isCreatedByUser":false,"text":"r"}]}`,
			`message 1 has a messageId that is not a string; skipped`},
		{"a LibreChat message without isCreatedByUser",
			`{"conversationId":"r","messages":[{"messageId":"a","parentMessageId":"00000000-0000-0000-0000-000000000000","text":"q"}]}`,
			`message "a" has no isCreatedByUser of true or false; it is read as the assistant's`},
		{"a LibreChat message whose text is a number",
			`{"conversationId":"r","messages":[{"messageId":"a","parentMessageId":"00000000-0000-0000-0000-000000000000","isCreatedByUser":true,"text":7}]}`,
			`message "a" has a text that is not a string; its text is read as empty`},
		{"a Gemini CLI message whose type is a number",
			`{"sessionId":"g","projectHash":"h","startTime":"2025-01-01T00:00:00Z","messages":[{"id":"a","type":"user","content":"x"},{"id":"c","type":5,"content":"y"}]}`,
			`message "c" has a type that is not a string; it is kept as a custom entry`},
		{"a Pi header whose id is a number",
			`{"type":"session","version":3,"id":5,"timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}` + "\n" +
				`{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"A"}}` + "\n",
			`line 1 is the session header, but a field of it has another type than Pi writes (id, cwd: strings; version: a whole number); skipped`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := testStore(t).Import([]byte(tc.data), "auto")
			text := ""
			if err != nil {
				text = err.Message
			} else {
				text = strings.Join(warningTexts(res), "\n")
			}
			assert.Contains(t, text, tc.want)
		})
	}
}

func TestImportADocumentWithSomethingAfterItSaysWhere(t *testing.T) {
	doc := "{\n  \"history\": [],\n  \"folders\": []\n}"
	for _, tail := range []string{"\n}garbage\n", "\n\x00\x00\x00\x00"} {
		_, err := testStore(t).Import([]byte(doc+tail), "auto")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "import data is not valid JSON: invalid character", "%q", tail)
		assert.Contains(t, err.Message, "after the top-level value at line 5", "%q", tail)
		assert.NotContains(t, err.Message, "JSON lines", "%q", tail)
	}
	// A JSON lines file whose second line is broken still imports its good lines.
	lines := `{"messages":[{"role":"user","content":"hi"}]}` + "\n" + `{"messages":` + "\n" + `{"messages":[{"role":"user","content":"yo"}]}` + "\n"
	res, err := testStore(t).Import([]byte(lines), "auto")
	require.Nil(t, err)
	assert.Equal(t, "openai", res.Format)
	assert.Len(t, res.Sessions, 2)
}

// An array export cut off (an unfinished download or copy) keeps the whole
// conversations before the cut, and names the one it ends inside.
func TestImportArrayCutShort(t *testing.T) {
	whole := fixture(t, "librechat/openwebui-export.json")
	var chats []json.RawMessage
	require.NoError(t, json.Unmarshal(whole, &chats))
	require.Len(t, chats, 3)
	second := bytes.Index(whole, []byte(`"id": "`+idOf(t, chats[1])+`"`))
	require.Positive(t, second)
	t.Run("inside the second conversation: the first is imported, the second named as skipped", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, whole[:second+20], "auto")
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, idOf(t, chats[0]), res.Sessions[0].SessionID)
		require.Len(t, res.Skipped, 1)
		line := 1 + bytes.Count(whole[:bytes.LastIndexByte(whole[:second], '{')], []byte("\n"))
		assert.Equal(t, fmt.Sprintf("the data ends inside conversation 2 (it begins on line %d): the file is cut off; that conversation and any after it are missing; the 1 before it are read", line), res.Skipped[0].Reason)
		t.Run("the whole file imported after adds the rest", func(t *testing.T) {
			res := mustImport(t, st, whole, "auto")
			assert.Len(t, res.Sessions, 3)
			assert.Empty(t, res.Skipped)
			assert.Len(t, st.s.Order, 3)
		})
	})
	t.Run("without the closing bracket: every conversation is imported, with a warning", func(t *testing.T) {
		cut := bytes.TrimRight(whole, " \n")
		res := mustImport(t, testStore(t), cut[:len(cut)-1], "auto")
		assert.Len(t, res.Sessions, 3)
		assert.Contains(t, warningTexts(res), "the data ends after conversation 3 without the array's closing ']': the file is cut off, so conversations after it may be missing; the 3 before it are read")
	})
	t.Run("ChatGPT's one-pass reader keeps the conversations before the cut too", func(t *testing.T) {
		data := fixture(t, "librechat/chatgpt-modern-export.json")
		res := mustImport(t, testStore(t), data[:len(data)-200], "auto")
		assert.Len(t, res.Sessions, 1, "the first; the second has no mapping")
		require.Len(t, res.Skipped, 2)
		assert.Contains(t, res.Skipped[1].Reason, "the data ends inside conversation 3 (it begins on line")
	})
	t.Run("inside the first conversation: nothing to import, the fault named", func(t *testing.T) {
		_, err := testStore(t).Import(whole[:second/2], "auto")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "import data is not valid JSON: unexpected end of JSON input at line")
	})
	t.Run("garbled, not cut: the array is refused as before", func(t *testing.T) {
		bad := bytes.Clone(whole)
		bad[second] = '#'
		_, err := testStore(t).Import(bad, "auto")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "import data is not valid JSON: invalid character '#'")
	})
}

func idOf(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v struct{ ID string }
	require.NoError(t, json.Unmarshal(raw, &v))
	return v.ID
}

func TestAChatGPTMessageWhoseCreateTimeIsNotANumberIsKeptUndated(t *testing.T) {
	cases := []struct{ raw, want string }{
		{`"2024-01-01T00:00:00Z"`, `its "create_time" is a string, not a number`},
		{`true`, `its "create_time" is a boolean, not a number`},
		{`{}`, `its "create_time" is an object, not a number`},
		{`1e400`, `its "create_time" is 1e400, too large a number`},
	}
	for _, tc := range cases {
		t.Run("create_time "+tc.raw+" is left out with a warning and the message kept", func(t *testing.T) {
			data := `[{"id":"g","current_node":"b","mapping":{` +
				`"a":{"id":"a","parent":null,"children":["b"],"message":{"author":{"role":"user"},"create_time":1700000000,"content":{"content_type":"text","parts":["q"]}}},` +
				`"b":{"id":"b","parent":"a","children":[],"message":{"author":{"role":"assistant"},"create_time":` + tc.raw + `,"content":{"content_type":"text","parts":["r"]}}}}}]`
			st := testStore(t)
			res := mustImport(t, st, []byte(data), "auto")
			assert.Equal(t, []string{"user: q", "assistant: r"}, roleTexts(t, st, "g"))
			assert.Contains(t, warningTexts(res), `conversation "g": message "b": `+tc.want+`; taken as absent`)
			require.NotNil(t, res.Sessions[0].Cursor)
			assert.Equal(t, "b", *res.Sessions[0].Cursor, "the cursor is the file's current node")
		})
	}
}

func TestAClaudeAIMessageWhoseAttachmentsAreOfAnotherShapeIsKept(t *testing.T) {
	for _, attachments := range []string{`"report.pdf"`, `{}`, `[5]`, `[{"file_name":7}]`, `[{"file_name":"f","extracted_content":{}}]`} {
		t.Run("attachments "+attachments+" are left out with a warning and the message kept", func(t *testing.T) {
			data := `[{"uuid":"c","name":"Trip","chat_messages":[` +
				`{"uuid":"m1","sender":"human","text":"q","attachments":` + attachments + `},` +
				`{"uuid":"m2","sender":"assistant","text":"r"}]}]`
			st := testStore(t)
			res := mustImport(t, st, []byte(data), "auto")
			assert.Equal(t, []string{"user: q", "assistant: r"}, roleTexts(t, st, "c"))
			assert.Contains(t, warningTexts(res), `conversation "Trip": message 0 ("m1"): its "attachments" are not an array of objects with a string file_name and extracted_content; they are left out (the node's source keeps them)`)
		})
	}
}
