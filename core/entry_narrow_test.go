package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParseEntryEdgeCasesKeepTheirAnswers holds ParseEntry's answers to
// values at the edges of each field's type (the answers jsonx.Unmarshal
// gave before the narrow readers).
func TestParseEntryEdgeCasesKeepTheirAnswers(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"kind":null}`, `entry.kind "" is not an entry kind (one of: active_tools_change, compaction, custom, custom_message, model_change, session_info, thinking_level_change)`},
		{`{"kind":1}`, `entry.kind must be a string`},
		{`{"kind":"active_tools_change","tools":["a",null]}`, `entry.tools[1] must be a non-empty string`},
		{`{"kind":"active_tools_change","tools":["a",1]}`, `entry.tools must be an array of tool names`},
		{`{"kind":"active_tools_change","tools":null}`, `entry.tools must be an array of tool names`},
		{`{"kind":"active_tools_change","tools":["a"]}`, ``},
		{`{"kind":"compaction","summary":"s","firstKeptNodeId":"n","tokensBefore":-1}`, `entry.tokensBefore must be a non-negative integer`},
		{`{"kind":"compaction","summary":"s","firstKeptNodeId":"n","tokensBefore":1e2}`, `entry.tokensBefore must be a non-negative integer`},
		{`{"kind":"compaction","summary":"s","firstKeptNodeId":"n","tokensBefore":18446744073709551616}`, `entry.tokensBefore must be a non-negative integer`},
		{`{"kind":"compaction","summary":"s","firstKeptNodeId":"n","tokensBefore":"5"}`, `entry.tokensBefore must be a non-negative integer`},
		{`{"kind":"compaction","summary":"s","firstKeptNodeId":"n","tokensBefore":null}`, `entry.tokensBefore must be a non-negative integer`},
		{`{"kind":"compaction","summary":"s","firstKeptNodeId":"n","tokensBefore":18446744073709551615}`, ``},
		{`{"kind":"compaction","summary":null,"firstKeptNodeId":"n"}`, `entry.summary must be a non-empty string`},
		{`{"kind":"session_info","name":2}`, `entry.name must be a string`},
		{`{"kind":"session_info","name":""}`, ``},
		{`{"kind":"custom_message","customType":"c","content":"x","display":null}`, `entry.display must be true or false`},
		{`{"kind":"custom_message","customType":"c","content":"x","display":"yes"}`, `entry.display must be true or false`},
		{`{"kind":"custom_message","customType":"c","content":[1]}`, `entry.content[0] must be an object (a content part)`},
		{`{"kind":"custom_message","customType":"c","content":5}`, `entry.content must be a string or an array of content parts`},
		{`{"kind":"custom_message","customType":"c","content":[{"type":"text","text":"t"}],"display":false}`, ``},
		{`{"kind":"model_change","provider":"p","model":"m"`, `entry is not valid JSON: unexpected end of JSON input at line 1, column 50`},
		{` {"kind" : "model_change", "provider" : "p", "model" : " "} `, `entry.model must be a non-empty string`},
	}
	for _, tc := range cases {
		_, _, err := ParseEntry(RawMessage(tc.in), "entry")
		got := ""
		if err != nil {
			got = err.Message
		}
		assert.Equal(t, tc.want, got, "ParseEntry(%s)", tc.in)
	}
}
