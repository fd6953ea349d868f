package msgtext

import (
	"testing"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
)

// partsTextCases are content shapes partsText reads itself or leaves to
// the decoder; either way MessageText must give what the decoder gives.
var partsTextCases = []string{
	`{"role":"user","content":[{"type":"text","text":"one"},{"type":"text","text":"two é"}]}`,
	`{"role":"assistant","content":[{"type":"thinking","thinking":"hmm","signature":"x"},{"type":"text","text":"so"}]}`,
	`{"role":"user","content":["a string part",{"type":"text","text":""},{"text":"no type"}]}`,
	`{"role":"user","content":[{"type":"text","text":"a\nb \u00e9 \ud83c\udf89"}]}`,
	`{"role":"user","content":[{"type":"text","text":"both","thinking":"t"}]}`,
	`{"role":"user","content":[{"type":"thinking","thinking":""}]}`,
	`{"role":"user","content":[{"type":"image","source":{"data":"..."}}]}`,
	`{"role":"assistant","content":[{"type":"tool_use","name":"bash","input":{"cmd":"ls"}}]}`,
	`{"role":"user","content":[{"type":"tool_result","content":[{"type":"text","text":"out"}]}]}`,
	`{"role":"user","content":[{"type":"text","Text":"case folded"}]}`,
	`{"role":"user","content":[{"type":"text","text":"first","text":"again"}]}`,
	`{"role":"user","content":[{"type":5,"text":"a number type"}]}`,
	`{"role":"user","content":[{"type":"text","thinking":7,"text":"x"}]}`,
	`{"role":"user","content":[{"type":"text","text":7}]}`,
	`{"role":"user","content":[{"t\u0065xt":"escaped key"}]}`,
	`{"role":"user","content":[1,null,[]]}`,
	`{"role":"user","content":[]}`,
	`{"role":"assistant","content":[{"type":"text","text":"x"}],"tool_calls":[{"function":{"name":"f","arguments":"{}"}}]}`,
}

func TestPartsTextIsWhatTheDecoderGives(t *testing.T) {
	read := 0
	for _, m := range partsTextCases {
		want := Decoded([]byte(m))
		assert.Equal(t, want, MessageText([]byte(m)), m)
		if _, ok := plainMessageText([]byte(m)); ok {
			read++
		}
	}
	assert.Equal(t, 6, read, "the text and thinking parts are read in one pass, the rest decoded")
}

func FuzzPartsText(f *testing.F) {
	for _, m := range partsTextCases {
		f.Add(m)
	}
	f.Fuzz(func(t *testing.T, m string) {
		if !jsonx.Valid([]byte(m)) || !utf8.ValidString(m) {
			return // a message is valid JSON and UTF-8 where it is held (a request of other bytes is refused, an import's are replaced)
		}
		if got, ok := plainMessageText([]byte(m)); ok {
			if want := Decoded([]byte(m)); got != want {
				t.Fatalf("%s: one pass %q, decoder %q", m, got, want)
			}
		}
	})
}

func TestToolCallsOfEveryShapeAreRead(t *testing.T) {
	cases := []struct{ name, message, want string }{
		{"string arguments", `{"role":"assistant","content":null,"tool_calls":[{"id":"1","type":"function","function":{"name":"search_web","arguments":"{\"q\":\"zebra\"}"}}]}`,
			`[tool call: search_web] {"q":"zebra"}`},
		{"object arguments (Ollama) beside string ones", `{"role":"assistant","content":null,"tool_calls":[{"function":{"name":"search_web","arguments":"{\"q\":\"zebra\"}"}},{"function":{"name":"read_file","arguments":{ "path" : "/etc/hosts" }}}]}`,
			"[tool call: search_web] {\"q\":\"zebra\"}\n[tool call: read_file] {\"path\":\"/etc/hosts\"}"},
		{"a number, null and missing arguments", `{"role":"assistant","tool_calls":[{"function":{"name":"a","arguments":42}},{"function":{"name":"b","arguments":null}},{"function":{"name":"c"}}]}`,
			"[tool call: a] 42\n[tool call: b] \n[tool call: c] "},
		{"a call that is not an object, and a name that is not a string, hide nothing else", `{"role":"assistant","content":"text","tool_calls":[7,{"function":{"name":5,"arguments":"{}"}},{"function":null},{"function":{"name":"ok","arguments":"x"}}]}`,
			"text\n[tool call: ] {}\n[tool call: ok] x"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, MessageText([]byte(tc.message)))
		})
	}
}
