package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildEntries makes session id with every entry kind on one path:
//
//	n0001 system, n0002 model_change openai/gpt-4o, n0003 thinking low,
//	n0004 tools [read, bash], n0005 session_info, n0006 user, n0007 assistant,
//	n0008 custom, n0009 custom_message, n0010 model_change, n0011 thinking high,
//	n0012 user, n0013 compaction (firstKept n0009), n0014 assistant.
func buildEntries(tb testing.TB, st *Store, id string) {
	tb.Helper()
	ok[Status](tb, st, obj{"operation": "create", "sessionId": id})
	steps := []string{
		`"message":{"role":"system","content":"You are terse."}`,
		`"entry":{"kind":"model_change","provider":"openai","model":"gpt-4o"}`,
		`"entry":{"kind":"thinking_level_change","level":"low"}`,
		`"entry":{"kind":"active_tools_change","tools":["read","bash"]}`,
		`"entry":{"kind":"session_info","name":"Trip planning"}`,
		`"message":{"role":"user","content":"Plan a trip"}`,
		`"message":{"role":"assistant","content":"Day 1: arrive."}`,
		`"entry":{"kind":"custom","customType":"ui-state","data":{"open":[1, 2.50],"note":"<b>"}}`,
		`"entry":{"kind":"custom_message","customType":"reminder","content":"Remember the budget.","display":true}`,
		`"entry":{"kind":"model_change","provider":"anthropic","model":"claude-sonnet-4"}`,
		`"entry":{"kind":"thinking_level_change","level":"high"}`,
		`"message":{"role":"user","content":"Day 2?"}`,
		`"entry":{"kind":"compaction","summary":"The user plans a trip; day 1 is settled.","firstKeptNodeId":"n0009","tokensBefore":12345}`,
		`"message":{"role":"assistant","content":"Day 2: hike."}`,
	}
	for _, step := range steps {
		ok[obj](tb, st, `{"operation":"append","sessionId":"`+id+`",`+step+`}`)
	}
}

func contextOf(tb testing.TB, st *Store, id string) string {
	tb.Helper()
	env := do(tb, st, obj{"operation": "context", "sessionId": id})
	require.True(tb, env.OK, "%+v", env.Error)
	return string(env.Value)
}

func TestEntryKinds(t *testing.T) {
	st := testStore(t)
	buildEntries(t, st, "e")

	t.Run("each kind is stored in its wire form", func(t *testing.T) {
		golden(t, "entries.snapshot.json", snapshot(t, st, "e"))
	})

	t.Run("context after a compaction is the summary and the kept tail", func(t *testing.T) {
		assert.Equal(t, `{"cursor":"n0014","messages":[`+
			`{"role":"user","content":"The conversation history before this point was compacted into the following summary:\n\n<summary>\nThe user plans a trip; day 1 is settled.\n</summary>"},`+
			`{"role":"user","content":"Remember the budget."},`+
			`{"role":"user","content":"Day 2?"},`+
			`{"role":"assistant","content":"Day 2: hike."}],`+
			`"state":{"model":{"provider":"anthropic","model":"claude-sonnet-4"},"thinkingLevel":"high","activeTools":["read","bash"],"sessionName":"Trip planning"}}`,
			contextOf(t, st, "e"))
	})

	cases := []struct {
		name, node, want string
	}{
		{"the root restores no configuration", "n0001",
			`{"cursor":"n0001","messages":[{"role":"system","content":"You are terse."}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}`},
		{"an old node restores that node's model, thinking level and tools", "n0007",
			`{"cursor":"n0007","messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"Plan a trip"},{"role":"assistant","content":"Day 1: arrive."}],"state":{"model":{"provider":"openai","model":"gpt-4o"},"thinkingLevel":"low","activeTools":["read","bash"],"sessionName":"Trip planning"}}`},
		{"a custom entry adds no message", "n0008",
			`{"cursor":"n0008","messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"Plan a trip"},{"role":"assistant","content":"Day 1: arrive."}],"state":{"model":{"provider":"openai","model":"gpt-4o"},"thinkingLevel":"low","activeTools":["read","bash"],"sessionName":"Trip planning"}}`},
		{"a custom message becomes a user message", "n0009",
			`{"cursor":"n0009","messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"Plan a trip"},{"role":"assistant","content":"Day 1: arrive."},{"role":"user","content":"Remember the budget."}],"state":{"model":{"provider":"openai","model":"gpt-4o"},"thinkingLevel":"low","activeTools":["read","bash"],"sessionName":"Trip planning"}}`},
		{"a node just before the compaction still sees the whole path", "n0012",
			`{"cursor":"n0012","messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"Plan a trip"},{"role":"assistant","content":"Day 1: arrive."},{"role":"user","content":"Remember the budget."},{"role":"user","content":"Day 2?"}],"state":{"model":{"provider":"anthropic","model":"claude-sonnet-4"},"thinkingLevel":"high","activeTools":["read","bash"],"sessionName":"Trip planning"}}`},
	}
	for _, c := range cases {
		t.Run("jumping to "+c.node+": "+c.name, func(t *testing.T) {
			ok[Status](t, st, obj{"operation": "jump", "sessionId": "e", "nodeId": c.node})
			assert.Equal(t, c.want, contextOf(t, st, "e"))
		})
	}

	t.Run("save, load and save give identical snapshots and context", func(t *testing.T) {
		ok[Status](t, st, obj{"operation": "jump", "sessionId": "e", "nodeId": "n0014"})
		first := snapshot(t, st, "e")
		want := contextOf(t, st, "e")
		other := testStore(t)
		// A string request: json.Marshal would HTML-escape the raw snapshot.
		ok[Status](t, other, `{"operation":"snapshot.load","sessionId":"e","snapshot":`+first+`}`)
		assert.Equal(t, first, snapshot(t, other, "e"))
		assert.Equal(t, want, contextOf(t, other, "e"))
	})

	t.Run("entry nodes list with their kind as role and a text preview", func(t *testing.T) {
		items := ok[[]ListItem](t, st, obj{"operation": "list", "sessionId": "e"})
		var got []string
		for _, it := range items[1:5] {
			got = append(got, it.Role+": "+it.Preview)
		}
		got = append(got, items[7].Role+": "+items[7].Preview, items[12].Role+": "+items[12].Preview)
		assert.Equal(t, []string{
			"model_change: openai/gpt-4o",
			"thinking_level_change: low",
			"active_tools_change: read, bash",
			"session_info: Trip planning",
			"custom: ui-state",
			"compaction: The user plans a trip; day 1 is settled.",
		}, got)
	})
}

func TestSessionInfoWithEmptyNameClearsTheName(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
	ok[obj](t, st, `{"operation":"append","sessionId":"s","entry":{"kind":"session_info","name":"Old"}}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"s","entry":{"kind":"active_tools_change","tools":[]}}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"s","entry":{"kind":"session_info","name":""}}`)
	assert.Equal(t, `{"cursor":"n0003","messages":[],"state":{"model":null,"thinkingLevel":null,"activeTools":[],"sessionName":null}}`, contextOf(t, st, "s"))
}

func TestTheNewestCompactionWins(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
	for _, m := range []string{"a", "b", "c"} {
		ok[obj](t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"`+m+`"}}`)
	}
	ok[obj](t, st, `{"operation":"append","sessionId":"s","entry":{"kind":"compaction","summary":"first","firstKeptNodeId":"n0002"}}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"d"}}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"s","entry":{"kind":"compaction","summary":"second","firstKeptNodeId":"n0003"}}`)
	ctx := ok[Context](t, st, obj{"operation": "context", "sessionId": "s"})
	var got []string
	for _, m := range ctx.Messages {
		got = append(got, string(m))
	}
	assert.Equal(t, []string{
		string(CompactionMessage("second")),
		`{"role":"user","content":"c"}`,
		`{"role":"user","content":"d"}`,
	}, got)
}

func TestAppendEntryValidation(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": "hi"}})
	ok[Status](t, st, obj{"operation": "create", "sessionId": "other"})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "other", "message": obj{"role": "user", "content": "elsewhere"}})
	cases := []struct {
		name, request, want string
	}{
		{"both message and entry are refused", `"message":{"role":"user","content":"x"},"entry":{"kind":"custom","customType":"t"}`,
			`fields "message" and "entry" exclude each other: append takes one of them`},
		{"neither message nor entry is refused", `"branch":"main"`,
			`field "message" (a chat message) or "entry" (an entry {kind, …}) is required for operation "append"`},
		{"an entry that is not an object is refused", `"entry":"model_change"`, `entry must be a JSON object`},
		{"an entry without a kind is refused", `"entry":{"provider":"openai"}`,
			`entry.kind is missing (one of: active_tools_change, compaction, custom, custom_message, model_change, session_info, thinking_level_change)`},
		{"an unknown kind is refused", `"entry":{"kind":"label"}`,
			`entry.kind "label" is not an entry kind (one of: active_tools_change, compaction, custom, custom_message, model_change, session_info, thinking_level_change)`},
		{"the message kind is not an entry kind", `"entry":{"kind":"message"}`,
			`entry.kind "message" is not an entry kind (one of: active_tools_change, compaction, custom, custom_message, model_change, session_info, thinking_level_change)`},
		{"a missing model is named", `"entry":{"kind":"model_change","provider":"openai"}`,
			`entry.model is missing (a model_change entry has provider, model)`},
		{"an empty provider is named", `"entry":{"kind":"model_change","provider":" ","model":"gpt-5"}`,
			`entry.provider must be a non-empty string`},
		{"an unknown field is named", `"entry":{"kind":"model_change","provider":"openai","model":"gpt-5","temperature":1}`,
			`entry.temperature is not a field of a model_change entry (fields: provider, model)`},
		{"a numeric level is named", `"entry":{"kind":"thinking_level_change","level":3}`,
			`entry.level must be a non-empty string`},
		{"tools that are not an array are named", `"entry":{"kind":"active_tools_change","tools":"read"}`,
			`entry.tools must be an array of tool names`},
		{"an empty tool name is named", `"entry":{"kind":"active_tools_change","tools":["read",""]}`,
			`entry.tools[1] must be a non-empty string`},
		{"a compaction without summary is named", `"entry":{"kind":"compaction","firstKeptNodeId":"n0001"}`,
			`entry.summary is missing (a compaction entry has summary, firstKeptNodeId, tokensBefore)`},
		{"a fractional tokensBefore is named", `"entry":{"kind":"compaction","summary":"s","firstKeptNodeId":"n0001","tokensBefore":1.5}`,
			`entry.tokensBefore must be a non-negative integer`},
		{"a negative tokensBefore is named", `"entry":{"kind":"compaction","summary":"s","firstKeptNodeId":"n0001","tokensBefore":-1}`,
			`entry.tokensBefore must be a non-negative integer`},
		{"a first kept node of another session is refused", `"entry":{"kind":"compaction","summary":"s","firstKeptNodeId":"n0002"}`,
			`entry.firstKeptNodeId "n0002" must be a node on the path from the root to the compaction's parent`},
		{"a custom entry needs a customType", `"entry":{"kind":"custom","data":{}}`,
			`entry.customType is missing (a custom entry has customType, data)`},
		{"custom message content must be text or parts", `"entry":{"kind":"custom_message","customType":"t","content":42}`,
			`entry.content must be a string or an array of content parts`},
		{"custom message parts must be objects", `"entry":{"kind":"custom_message","customType":"t","content":["x"]}`,
			`entry.content[0] must be an object (a content part)`},
		{"display must be a boolean", `"entry":{"kind":"custom_message","customType":"t","content":"x","display":"yes"}`,
			`entry.display must be true or false`},
		{"a session name must be a string", `"entry":{"kind":"session_info","name":null}`,
			`entry.name must be a string`},
		{"a null tokensBefore is named", `"entry":{"kind":"compaction","summary":"s","firstKeptNodeId":"n0001","tokensBefore":null}`,
			`entry.tokensBefore must be a non-negative integer`},
	}
	before := snapshot(t, st, "s")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := fails(t, st, `{"operation":"append","sessionId":"s",`+c.request+`}`, InvalidArgument)
			assert.Equal(t, c.want, msg)
			assert.Equal(t, before, snapshot(t, st, "s"), "a failed append changes nothing")
		})
	}
}

func TestSnapshotEntryFaults(t *testing.T) {
	base := `{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"x"}}`
	cases := []struct {
		name, node, want string
	}{
		{"an entry kind without entry", `{"id":"b","parentId":"a","branch":"main","kind":"model_change","timestamp":"2026-01-01T00:00:00.000Z"}`,
			`snapshot: node "b" of kind "model_change" has no entry object`},
		{"an entry with a message", `{"id":"b","parentId":"a","branch":"main","kind":"custom","timestamp":"2026-01-01T00:00:00.000Z","entry":{"customType":"t"},"message":{"role":"user","content":"x"}}`,
			`snapshot: node "b" of kind "custom" must not have a message or summary`},
		{"a message with an entry", `{"id":"b","parentId":"a","branch":"main","kind":"message","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"x"},"entry":{}}`,
			`snapshot: node "b" of kind "message" must not have an entry`},
		{"a bad entry field", `{"id":"b","parentId":"a","branch":"main","kind":"model_change","timestamp":"2026-01-01T00:00:00.000Z","entry":{"provider":"p"}}`,
			`snapshot: node "b" entry.model is missing (a model_change entry has provider, model)`},
		{"a kind inside the entry", `{"id":"b","parentId":"a","branch":"main","kind":"session_info","timestamp":"2026-01-01T00:00:00.000Z","entry":{"kind":"session_info","name":"n"}}`,
			`snapshot: node "b" entry.kind is not a field of a session_info entry (fields: name)`},
		{"a compaction keeping a node off its path", `{"id":"b","parentId":null,"branch":"main","kind":"compaction","timestamp":"2026-01-01T00:00:00.000Z","entry":{"summary":"s","firstKeptNodeId":"a"}}`,
			`snapshot: node "b" entry.firstKeptNodeId "a" must be a node on the path from the root to the compaction's parent`},
		{"an unknown kind", `{"id":"b","parentId":"a","branch":"main","kind":"label","timestamp":"2026-01-01T00:00:00.000Z","entry":{}}`,
			`snapshot: node "b" has a bad kind "label" (known: message, summary, active_tools_change, compaction, custom, custom_message, model_change, session_info, thinking_level_change)`},
	}
	for _, c := range cases {
		t.Run(c.name+" is rejected", func(t *testing.T) {
			st := testStore(t)
			snap := `{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[` + base + `,` + c.node + `]}`
			msg := fails(t, st, `{"operation":"snapshot.load","sessionId":"s","snapshot":`+snap+`}`, InvalidSnapshot)
			assert.Equal(t, c.want, msg)
			assert.Nil(t, st.Session("s"))
		})
	}
}

func TestEntryNodesKeepRawValuesExactly(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
	node := ok[obj](t, st, `{"operation":"append","sessionId":"s","entry":{"kind":"custom_message","customType":"t","content":[{"type":"text","text":"a < b"}],"details":{"n":1.50e+3, "s":"\u00e9"}}}`)
	raw, _ := json.Marshal(node["entry"])
	assert.True(t, strings.Contains(snapshot(t, st, "s"), `"entry":{"customType":"t","content":[{"type":"text","text":"a < b"}],"details":{"n":1.50e+3,"s":"\u00e9"}}`), string(raw))
}
