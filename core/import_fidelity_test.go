package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestImportPiFidelity(t *testing.T) {
	head := `{"type":"session","version":3,"id":"p","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}` + "\n"
	t.Run("a bashExecution message reaches the model as user text; an excluded one is a custom entry that does not", func(t *testing.T) {
		data := head +
			`{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"bashExecution","command":"ls","output":"x y","exitCode":2,"cancelled":false,"truncated":true,"fullOutputPath":"/tmp/o","timestamp":1}}` + "\n" +
			`{"type":"message","id":"b","parentId":"a","timestamp":"2025-01-01T00:00:02Z","message":{"role":"bashExecution","command":"pwd","output":"","exitCode":0,"cancelled":false,"truncated":false,"excludeFromContext":true,"timestamp":2}}` + "\n" +
			`{"type":"message","id":"c","parentId":"b","timestamp":"2025-01-01T00:00:03Z","message":{"role":"bashExecution","command":"sleep 9","output":"","cancelled":true,"truncated":false,"timestamp":3}}` + "\n"
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		assert.Empty(t, res.Warnings)
		assert.Equal(t, []string{
			"user: Ran `ls`\n```\nx y\n```\n\nCommand exited with code 2\n\n[Output truncated. Full output: /tmp/o]",
			"user: Ran `sleep 9`\n(no output)\n\n(command cancelled)",
		}, roleTexts(t, st, "p"))
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": "p", "nodeId": "b"})
		assert.Equal(t, "custom", n["kind"])
		assert.Equal(t, "pi/bashExecution", n["entry"].(obj)["customType"])
		assert.Equal(t, "pwd", n["entry"].(obj)["data"].(obj)["command"])
		assert.Equal(t, "bashExecution", n["source"].(obj)["message"].(obj)["role"], "the line is kept as written")
	})
	entries := func(compaction string) string {
		return `{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"old"}}` + "\n" +
			`{"type":"message","id":"b","parentId":"a","timestamp":"2025-01-01T00:00:02Z","message":{"role":"assistant","content":"kept"}}` + "\n" +
			`{"type":"compaction","id":"k","parentId":"b","timestamp":"2025-01-01T00:00:03Z","summary":"S",` + compaction + `,"tokensBefore":9}` + "\n" +
			`{"type":"message","id":"c","parentId":"k","timestamp":"2025-01-01T00:00:04Z","message":{"role":"user","content":"new"}}` + "\n"
	}
	want := []string{"user: " + CompactionPreamble + "S" + CompactionClosing, "assistant: kept", "user: new"}
	for _, tc := range []struct{ name, data string }{
		{"a compaction naming its first kept entry by id", head + entries(`"firstKeptEntryId":"b"`)},
		{"a compaction naming its first kept entry by index (header first), in a file with ids", head + entries(`"firstKeptEntryIndex":2`)},
		{"a version 1 compaction naming its first kept entry by index", `{"type":"session","id":"p","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}` + "\n" +
			`{"type":"message","timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"old"}}` + "\n" +
			`{"type":"message","timestamp":"2025-01-01T00:00:02Z","message":{"role":"assistant","content":"kept"}}` + "\n" +
			`{"type":"compaction","timestamp":"2025-01-01T00:00:03Z","summary":"S","firstKeptEntryIndex":2,"tokensBefore":9}` + "\n" +
			`{"type":"message","timestamp":"2025-01-01T00:00:04Z","message":{"role":"user","content":"new"}}` + "\n"},
	} {
		t.Run(tc.name+" is honoured: context is the summary, then the kept entries", func(t *testing.T) {
			st := testStore(t)
			res := mustImport(t, st, []byte(tc.data), "auto")
			assert.Empty(t, res.Warnings)
			assert.Equal(t, want, roleTexts(t, st, "p"))
		})
	}
}

func TestImportClaudeCodeTitle(t *testing.T) {
	data := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"cc","timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"<command-message>init is analyzing your codebase…</command-message>\n<command-name>/init</command-name>"}}` + "\n"
	st := testStore(t)
	res := mustImport(t, st, []byte(data), "auto")
	assert.Equal(t, "/init", res.Sessions[0].Title, "a slash command is titled by its name")
	assert.True(t, strings.HasPrefix(roleTexts(t, st, "cc")[0], "user: <command-message>"), "the message itself is kept as sent")
	require.Len(t, res.Sessions, 1)
	data = `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"c2","timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"<local-command-stdout>ok</local-command-stdout> then <b>fix</b> it"}}` + "\n"
	res = mustImport(t, st, []byte(data), "auto")
	assert.Equal(t, "ok then <b>fix</b> it", res.Sessions[0].Title, "only Claude Code's own tags are removed")
}

func TestImportOpenWebUIBlocks(t *testing.T) {
	cases := []struct {
		name, content string
		want          []any
	}{
		{"a block before the answer", `<details type=\"reasoning\" done=\"true\" duration=\"2\">\n<summary>Thought for 2 seconds</summary>\n&gt; a &lt; b &amp;&amp; c\n&gt; \n&gt; so &#x27;yes&#39; &quot;ok&quot; &eacute;\n</details>\nYes.`,
			[]any{obj{"type": "thinking", "thinking": "a < b && c\n\nso 'yes' \"ok\" &eacute;"}, obj{"type": "text", "text": "Yes."}}},
		{"two blocks around text", `pre<details type=\"reasoning\"><summary>s</summary>one</details>mid<details type=\"reasoning\"><summary>s</summary>two</details>`,
			[]any{obj{"type": "text", "text": "pre"}, obj{"type": "thinking", "thinking": "one"}, obj{"type": "text", "text": "mid"}, obj{"type": "thinking", "thinking": "two"}}},
		{"an unclosed block stays text", `<details type=\"reasoning\"><summary>s</summary>half`,
			[]any{obj{"type": "text", "text": `<details type="reasoning"><summary>s</summary>half`}}},
		{"a tool call with its result in attributes, between reasoning and text", `<details type=\"reasoning\"><summary>s</summary>look it up</details>\n<details type=\"tool_calls\" done=\"true\" id=\"c9\" name=\"search\" arguments=\"{&quot;q&quot;: &quot;a &amp; b&quot;}\" result=\"&quot;found &lt;3&gt;&quot;\" files=\"\" embeds=\"\">\n<summary>Tool Executed</summary>\n</details>\nDone.`,
			[]any{obj{"type": "thinking", "thinking": "look it up"},
				obj{"type": "tool_use", "id": "c9", "name": "search", "input": obj{"q": "a & b"}},
				obj{"type": "tool_result", "tool_use_id": "c9", "name": "search", "content": "found <3>"},
				obj{"type": "text", "text": "Done."}}},
		{"a failed call, a result that is not a JSON string, arguments that are not JSON, and a call with no result", `<details type=\"tool_calls\" done=\"true\" name=\"run\" arguments=\"ls -l\" result=\"{&quot;n&quot;:1}\" error=\"true\"><summary>Tool Error</summary></details><details type=\"tool_calls\" done=\"false\" name=\"wait\"><summary>Executing</summary>\n</details>`,
			[]any{obj{"type": "tool_use", "id": "call_1", "name": "run", "input": "ls -l"},
				obj{"type": "tool_result", "tool_use_id": "call_1", "name": "run", "content": `{"n":1}`, "is_error": true},
				obj{"type": "tool_use", "id": "call_2", "name": "wait", "input": obj{}}}},
		{"a tool-call block left unclosed stays text", `a<details type=\"tool_calls\" name=\"x\"><summary>s</summary>`,
			[]any{obj{"type": "text", "text": `a<details type="tool_calls" name="x"><summary>s</summary>`}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := `[{"id":"w","title":"w","chat":{"history":{"currentId":"b","messages":{
				"a":{"id":"a","parentId":null,"role":"user","content":"q","timestamp":1700000000},
				"b":{"id":"b","parentId":"a","role":"assistant","content":"` + tc.content + `","timestamp":1700000001}}}}}]`
			st := testStore(t)
			mustImport(t, st, []byte(data), "auto")
			n := ok[obj](t, st, obj{"operation": "node", "sessionId": "w", "nodeId": "b"})
			assert.Equal(t, tc.want, n["message"].(obj)["content"])
		})
	}
}

func TestImportChatGPTCustomInstructions(t *testing.T) {
	st := testStore(t)
	mustImport(t, st, fixture(t, "librechat/chatgpt-modern-export.json"), "auto")
	var roles []string
	var system string
	for _, line := range roleTexts(t, st, "6b0f0d9c-0000-4000-8000-000000000001") {
		role, text, _ := strings.Cut(line, ": ")
		roles = append(roles, role)
		if strings.Contains(text, "The user is an SRE.") {
			system = role
		}
	}
	assert.Equal(t, "system", system, "custom instructions are system context, as ChatGPT sends them")
	assert.NotContains(t, roles[1:], "system", "and come before the conversation")
}
