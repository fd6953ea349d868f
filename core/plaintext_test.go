package core

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestPlainTextPreview(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"emphasis is taken out", "Here are **bold words** and _these_ and *that*", "Here are bold words and these and that"},
		{"a code fence after text keeps its code", "Code: ```js\nconsole.log(1)\n```", "Code: console.log(1)"},
		{"a fence on its own line is dropped", "Code:\n```js\nconsole.log(1)\n```\ndone", "Code: console.log(1) done"},
		{"inline code loses its backticks", "run `go test ./...` now", "run go test ./... now"},
		{"links and images keep their text", "see [the docs](https://example.com/x) and ![a cat](cat.png)", "see the docs and a cat"},
		{"headings, quotes and list markers are dropped", "# Title\n> quoted\n- one\n* two\n1. three\n- [x] done", "Title quoted one two three done"},
		{"tables lose their pipes and rule rows", "| a | b |\n|---|:-:|\n| 1 | 2 |", "a b 1 2"},
		{"a star between spaces and snake_case stay", "2 * 3 = 6 in my_var_name", "2 * 3 = 6 in my_var_name"},
		{"an unmatched run of underscores or stars is text", "Set window.__debug = true first; 2*3 = 6 and a *star", "Set window.__debug = true first; 2*3 = 6 and a *star"},
		{"matched runs go, unmatched ones stay", "call obj.__init__ with **kwargs and *args", "call obj.init with **kwargs and *args"},
		{"bold and italic at once", "***both*** and __strong__", "both and strong"},
		{"strikethrough and escapes", "~~old~~ new \\*not emphasis\\*", "old new *not emphasis*"},
		{"a thematic break is dropped", "above\n\n---\n\nbelow", "above below"},
		{"citation markers are taken out", "Paris. \ue200cite\ue202turn0search3\ue201 More.", "Paris. More."},
		{"plain text is unchanged", "just words, nothing else", "just words, nothing else"},
		{"tool-call text in brackets stays", "[tool call: search] {\"q\":\"x\"}", "[tool call: search] {\"q\":\"x\"}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Preview(PlainText(tt.text), PreviewLength), "PlainText(%q)", tt.text)
		})
	}
}

func FuzzPlainText(f *testing.F) {
	f.Add("**a** [b](c) `d` # e\n```\nf\n```\n| g |")
	f.Add("\\*x\\* ![](y) [z][w] ~~v~~ 1. u")
	f.Fuzz(func(t *testing.T, text string) {
		got := PlainText(text)
		// A byte that is not UTF-8 may come out as U+FFFD (3 bytes; see cite.Resolve).
		bad := 0
		for i := 0; i < len(text); {
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError && size == 1 {
				bad++
			}
			i += size
		}
		if len(got) > len(text)+strings.Count(text, "\n")+1+2*bad {
			t.Fatalf("PlainText(%q) = %q grew", text, got)
		}
	})
}

func TestListSaysWhichPreviewsDescribeAMessage(t *testing.T) {
	st := testStore(t)
	call := func(req string) string { return string(st.Call([]byte(req))) }
	call(`{"operation":"create","sessionId":"s"}`)
	call(`{"operation":"append","sessionId":"s","message":{"role":"assistant","content":"**Hi** there"}}`)
	call(`{"operation":"append","sessionId":"s","message":{"role":"tool","name":"web","content":""}}`)
	out := call(`{"operation":"list","sessionId":"s"}`)
	assert.Contains(t, out, `"preview":"Hi there","hidden":false,"preferred":false}`)
	assert.Contains(t, out, `"preview":"tool result: web","hidden":false,"preferred":false,"described":true}`)
	assert.Contains(t, call(`{"operation":"tree.rows","sessionId":"s"}`), `"flags":[1,35]`)
}

func TestMessageTextNamesTheToolOfACall(t *testing.T) {
	tests := []struct{ name, message, want string }{
		{"a Codex function call", `{"role":"assistant","content":[{"type":"function_call","name":"shell","arguments":"{}","call_id":"c"}]}`, "[function call: shell]"},
		{"a Codex custom tool call", `{"role":"assistant","content":[{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch"}]}`, "[custom tool call: apply_patch]"},
		{"an item without a name keeps its type", `{"role":"assistant","content":[{"type":"web_search_call","action":{"query":"q"}}]}`, "[web search call]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, MessageText(RawMessage(tt.message)))
		})
	}
}
