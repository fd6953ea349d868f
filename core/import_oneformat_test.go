package core

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestImportToleranceOneFormat(t *testing.T) {
	t.Run("open webui: childrenIds that disagree with parentId are warned and parentId wins", func(t *testing.T) {
		data := []byte(`[{"id":"w","title":"w","chat":{"history":{"currentId":"b","messages":{
			"a":{"id":"a","parentId":null,"childrenIds":["x","c"],"role":"user","content":"q","timestamp":1700000000},
			"b":{"id":"b","parentId":"a","childrenIds":[],"role":"assistant","content":"r","timestamp":1700000001},
			"c":{"id":"c","parentId":null,"childrenIds":[],"role":"user","content":"s","timestamp":1700000002}}}}}]`)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, []string{
			`chat "w": message "a" lists child "x", which is not in the chat; ignored`,
			`chat "w": message "a" lists child "c", whose parentId is null; parentId wins: the child stays a root`,
		}, warningTexts(res))
		sh := shapeOf(t, st, "w")
		assert.Equal(t, treeShape{3, 2, 0, "b", []string{"main", "main-2"}}, sh)
	})
	t.Run("open webui: a dangling currentId puts the cursor on the newest leaf with a warning", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, writeOpenWebUI(owuiChat{"c1", "nope", branchy}), "auto")
		assert.Equal(t, "d2", shapeOf(t, st, "c1").Cursor)
		assert.Equal(t, []string{`current message "nope" is not in the conversation; the cursor is on the newest leaf`}, warningTexts(res))
	})
	t.Run("open webui: duplicate ids in the older message list keep the first and warn", func(t *testing.T) {
		data := []byte(`[{"id":"dup","chat":{"messages":[
			{"id":"m1","parentId":null,"role":"user","content":"a"},
			{"id":"m1","parentId":null,"role":"user","content":"b"}]}},
			{"id":"fine","chat":{"messages":[{"id":"m1","parentId":null,"role":"user","content":"a"}]}}]`)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		require.Len(t, res.Sessions, 2)
		assert.Empty(t, res.Skipped)
		assert.Equal(t, 1, st.s.ByID["dup"].Len())
		assert.Contains(t, warningTexts(res), `message "m1" appears again (record 2); the first is kept and this one skipped`)
	})
	t.Run("librechat: several conversations in an array import each, a cycle in one is cut", func(t *testing.T) {
		cyc := withRec(branchy, 0, func(r *rec) { r.parent = "d1" })
		data := []byte("[" + string(writeLibreChat("good", branchy)) + "," + string(writeLibreChat("bad", cyc)) + "]")
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		require.Len(t, res.Sessions, 2)
		assert.Equal(t, 6, st.s.ByID["bad"].Len())
		assert.Empty(t, res.Skipped)
	})
	t.Run("librechat: the recursive form with nesting and no parentMessageId uses the nesting", func(t *testing.T) {
		data := []byte(`{"conversationId":"r","recursive":true,"messagesTree":[
			{"messageId":"a","isCreatedByUser":true,"text":"q","children":[
				{"messageId":"b","text":"r1","children":[]},
				{"messageId":"c","parentMessageId":"a","text":"r2","createdAt":"2024-01-01T00:00:00Z"}]}]}`)
		st := testStore(t)
		mustImport(t, st, data, "auto")
		assert.Equal(t, treeShape{3, 1, 1, "c", []string{"main", "main-2"}}, shapeOf(t, st, "r"))
	})
	t.Run("claude code: a cut-off last line keeps every good line and names the line", func(t *testing.T) {
		data := writeClaudeCode("c1", branchy)
		data = append(data, `{"type":"user","uuid":"e1","parentUuid":"d2","message":{"role":"us`...)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, 6, st.s.ByID["c1"].Len())
		assert.Contains(t, warningTexts(res)[0], "line 7 is cut off")
	})
	t.Run("claude code: a broken line in the middle is skipped with a warning naming line and column", func(t *testing.T) {
		lines := strings.Split(string(writeClaudeCode("c1", branchy)), "\n")
		lines[2] = `{"type":"user",,}`
		st := testStore(t)
		res, err := st.Import([]byte(strings.Join(lines, "\n")), "auto")
		require.Nil(t, err)
		assert.Equal(t, `line 3 is not valid JSON: invalid character ',' looking for an object key at line 3, column 16; it is skipped`, warningTexts(res)[0])
		assert.Equal(t, 5, st.s.ByID["c1"].Len())
	})
	t.Run("claude code: summary lines title the session and lines without messages are counted", func(t *testing.T) {
		data := append([]byte(`{"type":"summary","summary":"Old title","leafUuid":"d1"}`+"\n"+
			`{"type":"summary","summary":"Plan the trip","leafUuid":"d2"}`+"\n"+
			`{"type":"file-history-snapshot","messageId":"x"}`+"\n"), writeClaudeCode("c1", branchy)...)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, "Plan the trip", res.Sessions[0].Title)
		assert.Equal(t, []string{
			`session "Plan the trip": 1 file-history-snapshot line(s) carry no message; skipped (lines 3)`,
			`session "Plan the trip": summary line 1 ("Old title", for leaf "d1") is not the title; only one title is kept`,
		}, warningTexts(res))
	})
	t.Run("claude code: the newest leaf chosen for the cursor is never a sidechain while a main leaf exists", func(t *testing.T) {
		data := writeClaudeCode("c1", branchy[:4])
		data = append(data, `{"type":"assistant","uuid":"s1","parentUuid":null,"isSidechain":true,"sessionId":"c1","timestamp":"2030-01-01T00:00:00Z","message":{"role":"assistant","content":"side"}}`+"\n"...)
		st := testStore(t)
		mustImport(t, st, data, "auto")
		sh := shapeOf(t, st, "c1")
		assert.Equal(t, "d1", sh.Cursor)
		assert.Equal(t, []string{"main", "sidechain"}, sh.Branches)
	})
	t.Run("chatbot ui: chats without ids get generated node ids and stand at their last message", func(t *testing.T) {
		data := []byte(`[{"id":"x","name":"n","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"content":"no role"}]}]`)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, "chatbotui", res.Format)
		sh := shapeOf(t, st, "x")
		assert.Equal(t, treeShape{2, 1, 0, sh.Cursor, []string{"main"}}, sh)
		assert.Regexp(t, `^m[0-9a-f]{8}$`, sh.Cursor, "an id derived from the chat, position and message")
		assert.Equal(t, []string{`chat "n": message 2 has no role; skipped`}, warningTexts(res))
	})
	t.Run("chatbot ui: a chat without an id gets one derived from its content, so a second import finds it", func(t *testing.T) {
		data := []byte(`{"version":4,"history":[{"name":"n","messages":[{"role":"user","content":"a"}]}],"folders":[]}`)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.True(t, strings.HasPrefix(res.Sessions[0].SessionID, "chatbotui-"))
		assertReimportAddsNothing(t, st, data)
		assert.Len(t, st.s.ByID, 1)
	})
	t.Run("chatbot ui: a lone surrogate escape is reported naming the generated message id", func(t *testing.T) {
		data := []byte(`{"version":4,"history":[{"id":"s","name":"n","messages":[{"role":"user","content":"a \udc00 b"}]}]}`)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, []string{`message "m3c0544f7" holds a lone surrogate escape \udc00 (byte 28 of its record), which is not a character: the record keeps it as written, text shows U+FFFD`}, warningTexts(res))
	})
	t.Run("chatbot ui: a broken export is an error naming line and column", func(t *testing.T) {
		_, err := testStore(t).Import([]byte("{\"version\":4,\n\"history\":[{\"name\":\"n\",\"messages\":[}]}"), "chatbotui")
		require.NotNil(t, err)
		assert.Equal(t, `import data is not valid JSON: invalid character '}' looking for a value at line 2, column 36`, err.Message)
	})
	t.Run("an import that yields nothing is an error listing the reasons", func(t *testing.T) {
		_, err := testStore(t).Import([]byte(`[{"id":"e","chat":{"history":{"messages":{"a":{"id":"a"}}}}}]`), "auto")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, `nothing imported: `)
		assert.Contains(t, err.Message, `chat "e" has no usable messages; skipped`)
	})
	for _, tc := range []struct{ format, data string }{
		{"chatbotui", `{"version":4,"history":[{"id":"e","name":"Empty","messages":[]}]}`},
		{"openwebui", `[{"id":"e","title":"Empty","chat":{"history":{"messages":{}}}}]`},
		{"librechat", `{"conversationId":"e","title":"Empty","messages":[]}`},
		{"chatgpt", `[{"id":"e","title":"Empty","mapping":{"root":{"id":"root","message":null,"children":[]}}}]`},
	} {
		t.Run(tc.format+": an empty conversation imports as an empty session, with a warning", func(t *testing.T) {
			st := testStore(t)
			res := mustImport(t, st, []byte(tc.data), "auto")
			assert.Equal(t, tc.format, res.Format)
			require.Len(t, res.Sessions, 1)
			assert.Equal(t, "e", res.Sessions[0].SessionID)
			assert.Equal(t, "Empty", res.Sessions[0].Title)
			assert.Equal(t, 0, res.Sessions[0].NodeCount)
			assert.Nil(t, res.Sessions[0].Cursor)
			assert.Contains(t, strings.Join(warningTexts(res), "\n"), "has no messages; it is an empty session")
		})
	}
}

func TestImportDetectionExplainsItself(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"an array of unknown objects names the first element's keys", `[{"zeta":1,"alpha":2},{"b":3}]`, `it is a JSON array whose first element has the keys "alpha", "zeta"; tried: snapshot (`},
		{"JSON lines name the first line's keys", "{\"k\":1}\n{\"j\":2}", `it is JSON lines (2 read) whose first line has the keys "k"; tried: snapshot (`},
		{"many keys are cut at 12", `{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1,"k":1,"l":1,"m":1,"n":1}`, `"l" and 2 more; tried`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := testStore(t).Import([]byte(tc.data), "auto")
			require.NotNil(t, err)
			assert.Contains(t, err.Message, tc.want)
			assert.Contains(t, err.Message, "claude-code (lines with")
		})
	}
}

func TestImportDetection(t *testing.T) {
	// Nested past jsonx's limit: said as such, as an array is, not as an object of unknown keys.
	deepObject := strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001)
	errs := []struct{ name, data, want string }{
		{"an object nested deeper than the limit", deepObject, `import data is not valid JSON: nesting deeper than 10000 arrays and objects at line 1, column 50001`},
		{"garbage after a document", "{\"a\":1} x", `import data is not valid JSON: invalid character 'x' after the top-level value at line 1, column 9`},
		{"an unknown shape", `{"a":1}`, `could not detect the format of the import data: it is a JSON object with the keys "a"; tried: snapshot (a JSON object with "version", "sessionId" and "nodes"); chatgpt (objects with "mapping"); openwebui (objects with a "chat" holding "history" or "messages", or with a "history" object); librechat (objects with "conversationId" and "messages" or "messagesTree"); chatbotui (an object with a "history" array, or an array of objects with "name" and "messages"); claudeai (objects with a "chat_messages" array, or an object whose "conversations" holds them); pi (a first line {"type":"session","id":…}); sillytavern (a first line with "user_name" and "character_name" or "chat_metadata", or with "mes" and "is_user"); claude-code (lines with "parentUuid", "leafUuid", or "uuid" and "sessionId"); aider (Markdown text starting "# aider chat started at"); gemini (an object, or a first line, with "sessionId" and "projectHash"); codex (lines {"timestamp","type","payload"} of type session_meta, response_item, event_msg, turn_context or compacted); lobechat (an object with "exportType", "state" and "version"); cline (an array of Anthropic messages whose first user message holds <task> or <environment_details>, or has "ts"); openai (an array of messages with "role", an object with a "messages" array, or lines of such objects)`},
		{"an empty array", `[]`, `import data is an empty array or holds no object: nothing to import`},
		{"an array cut inside its first element", `[{"mapping":{},`, `import data is not valid JSON: unexpected end of JSON input at line 1, column 16`},
		{"an array cut off inside its first object", "[{\"title\":\"Plan\",\n\"mapping\":{\"a\":{\"id\":\"a\",\"mess", `import data is not valid JSON: unexpected end of JSON input at line 2, column 31`},
		{"a single string", `"chat"`, `import data must be a JSON object, an array or JSON lines`},
		{"a Markdown note", "# Notes\r\nMeeting at noon", `import data is not JSON, JSON lines or an Aider chat history: it begins "# Notes" (as JSON: invalid character '#' looking for a value at line 1, column 1)`},
		{"a bare word", `chat`, `import data is not JSON, JSON lines or an Aider chat history: it begins "chat" (as JSON: invalid character 'c' looking for a value at line 1, column 1)`},
		{"a JSON-lines file named as a JSON format", "{\"mapping\":{}}\n{\"mapping\":{}}", `chatgpt import: the data is JSON lines, but chatgpt exports are one JSON document`},
	}
	for _, tc := range errs {
		t.Run(tc.name+" is an error", func(t *testing.T) {
			format := "auto"
			if strings.Contains(tc.name, "named") {
				format = "chatgpt"
			}
			_, err := testStore(t).Import([]byte(tc.data), format)
			require.NotNil(t, err)
			assert.Equal(t, tc.want, err.Message)
		})
	}
}

// TestImportJobSteps checks the sliced import the wasm binding uses: the
// same result as one call, progress rising to the total, nothing added
// while reading, the sessions added over several steps after it.
func TestImportJobSteps(t *testing.T) {
	var chats []owuiChat
	for k := 0; k < 50; k++ {
		chats = append(chats, owuiChat{fmt.Sprintf("chat%02d", k), "d2", branchy})
	}
	data := writeOpenWebUI(chats...)
	st := testStore(t)
	job, err := st.StartImport(data, "auto")
	require.Nil(t, err)
	var seen []int
	sessionsSeen := map[int]bool{}
	for !job.Step(1000) {
		done, total := job.Progress()
		seen = append(seen, done)
		assert.Equal(t, 2*len(data), total)
		if done <= len(data) {
			assert.Empty(t, st.s.ByID, "nothing is added while reading")
		}
		sessionsSeen[len(st.s.ByID)] = true
	}
	assert.Greater(t, len(seen), 10)
	assert.True(t, sort.IntsAreSorted(seen))
	assert.Greater(t, len(sessionsSeen), 3, "the sessions are added over several steps")
	done, total := job.Progress()
	assert.Equal(t, total, done)
	res, err := job.Finish()
	require.Nil(t, err)
	assert.Len(t, res.Sessions, 50)
	other := testStore(t)
	mustImport(t, other, data, "auto")
	assert.Equal(t, snapshot(t, other, "chat49"), snapshot(t, st, "chat49"))
}

func TestImportJobMeetsASessionCreatedMeanwhile(t *testing.T) {
	data := writeOpenWebUI(owuiChat{"a", "d2", branchy}, owuiChat{"b", "d2", branchy})
	st := testStore(t)
	job, err := st.StartImport(data, "auto")
	require.Nil(t, err)
	for done, _ := job.Progress(); done < len(data); done, _ = job.Progress() {
		job.Step(1)
	}
	ok[Status](t, st, obj{"operation": "create", "sessionId": "b"})
	res, err := job.Finish()
	require.Nil(t, err)
	require.Len(t, res.Sessions, 2)
	assert.Equal(t, ImportedSession{SessionID: "a", Title: "chat a", Added: 6, NodeCount: 6, Cursor: res.Sessions[0].Cursor, BranchCount: 2, RootCount: 1}, res.Sessions[0])
	assert.True(t, res.Sessions[1].Existing, "the session created meanwhile takes the conversation's nodes, as an earlier import would")
	assert.Equal(t, 6, res.Sessions[1].Added)
	assert.Equal(t, treeShape{6, 1, 1, "d2", []string{"main", "main-2"}}, shapeOf(t, st, "b"))
}
