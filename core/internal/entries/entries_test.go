package entries

import (
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
)

// TestParseEdgeCasesKeepTheirAnswers holds Parse's answers to
// values at the edges of each field's type (the answers jsonx.Unmarshal
// gave before the narrow readers).
func TestParseEdgeCasesKeepTheirAnswers(t *testing.T) {
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
		_, _, err := Parse(jsonx.RawMessage(tc.in), "entry")
		got := ""
		if err != nil {
			got = err.Error()
		}
		assert.Equal(t, tc.want, got, "Parse(%s)", tc.in)
	}
}

// FuzzParse: any entry object is accepted or refused with an
// error naming a field, and an accepted entry re-encodes to
// JSON that parses back to the same bytes.
func FuzzParse(f *testing.F) {
	for _, e := range []string{
		`{"kind":"model_change","provider":"p","model":"m"}`, `{"kind":"active_tools_change","tools":[]}`,
		`{"kind":"compaction","summary":"s","firstKeptNodeId":"x","tokensBefore":0}`,
		`{"kind":"custom","customType":"t","data":{"a":[1,2.5e3]}}`, `{"kind":"custom_message","customType":"t","content":[{"type":"text","text":"x"}],"display":false,"details":null}`,
		`{"kind":"session_info","name":""}`, `{"kind":"thinking_level_change","level":"high"}`, `{}`, `[]`, `{"kind":1}`,
	} {
		f.Add(e)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		kind, e, err := Parse(jsonx.RawMessage(raw), "entry")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "entry") {
				t.Fatalf("Parse(%q) = %v, want an error naming entry", raw, err)
			}
			return
		}
		wire := AppendJSON(nil, e, kind)
		again, err := ParseBody(kind, wire, "entry")
		if err != nil {
			t.Fatalf("re-encoded entry %s does not parse: %v", wire, err)
		}
		if got := string(AppendJSON(nil, again, kind)); got != string(wire) {
			t.Fatalf("entry round trip: %s != %s", got, wire)
		}
	})
}

func TestStateTakesTheNewestSettingAndDescribesIt(t *testing.T) {
	var st State
	assert.Equal(t, "(defaults)", st.Describe())
	st.Apply(formats.KindModelChange, &formats.Entry{Provider: "openai", Model: "gpt-4o"})
	st.Apply(formats.KindThinkingLevelChange, &formats.Entry{Level: "high"})
	st.Apply(formats.KindActiveToolsChange, &formats.Entry{Tools: []string{"read", "bash"}})
	st.Apply(formats.KindSessionInfo, &formats.Entry{Name: "Trip"})
	st.Apply(formats.KindMessage, nil)
	assert.Equal(t, `model openai/gpt-4o, thinking high, tools [read, bash], name "Trip"`, st.Describe())
	assert.Equal(t, `{"model":{"provider":"openai","model":"gpt-4o"},"thinkingLevel":"high","activeTools":["read","bash"],"sessionName":"Trip"}`, string(st.AppendJSON(nil)))
	st.Apply(formats.KindSessionInfo, &formats.Entry{})
	assert.Nil(t, st.SessionName, "an empty name clears the name")
}

func TestTextIsWhatATreeLineShows(t *testing.T) {
	for _, tc := range []struct {
		kind string
		e    formats.Entry
		want string
	}{
		{formats.KindModelChange, formats.Entry{Provider: "p", Model: "m"}, "p/m"},
		{formats.KindActiveToolsChange, formats.Entry{}, "(no tools)"},
		{formats.KindSessionInfo, formats.Entry{}, "(name cleared)"},
		{formats.KindCustomMessage, formats.Entry{Content: jsonx.RawMessage(`"hi"`)}, "hi"},
		{formats.KindMessage, formats.Entry{}, ""},
	} {
		assert.Equal(t, tc.want, Text(tc.kind, &tc.e), tc.kind)
	}
}
