package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contextMessages is the context of a session as JSON texts, one per message.
func contextMessages(t *testing.T, st *Store, id string) []string {
	t.Helper()
	var c struct{ Messages []json.RawMessage }
	c = ok[struct{ Messages []json.RawMessage }](t, st, `{"operation":"context","sessionId":"`+id+`"}`)
	out := make([]string, len(c.Messages))
	for i, m := range c.Messages {
		out[i] = string(m)
	}
	return out
}

func TestImportOpenAIMessagesOfOurOwnExportAndItsGrowth(t *testing.T) {
	st := testStore(t)
	ok[map[string]any](t, st, `{"operation":"create","sessionId":"chat"}`)
	for _, m := range []string{
		`{"role":"system","content":"You are terse."}`,
		`{"role":"user","content":"Weather in Lisbon? é"}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Lisbon\"}"}}]}`,
		`{"role":"tool","tool_call_id":"c1","content":"21 °C, sunny"}`,
		`{"role":"assistant","content":[{"type":"text","text":"Sunny, 21 °C."}]}`,
	} {
		ok[map[string]any](t, st, `{"operation":"append","sessionId":"chat","message":`+m+`}`)
	}
	export := func() []byte {
		e := ok[Export](t, st, `{"operation":"export","sessionId":"chat","format":"openai"}`)
		return []byte(e.Text)
	}
	file := export()
	want := contextMessages(t, st, "chat")

	other := testStore(t)
	res, err := other.Import(file, "auto")
	require.Nil(t, err)
	assert.Equal(t, "openai", res.Format)
	require.Len(t, res.Sessions, 1)
	s := res.Sessions[0]
	assert.True(t, strings.HasPrefix(s.SessionID, "openai-"), s.SessionID)
	assert.Equal(t, "Weather in Lisbon? é", s.Title)
	assert.Equal(t, 5, s.NodeCount)
	assert.Empty(t, res.Warnings)
	assert.Equal(t, want, contextMessages(t, other, s.SessionID), "the context is the exported messages")

	// The same file again: nothing new. Two more turns: only they are added.
	again, err := other.Import(file, "auto")
	require.Nil(t, err)
	assert.Equal(t, ImportedSession{SessionID: s.SessionID, Title: s.Title, Existing: true, NodeCount: 5, Cursor: s.Cursor, BranchCount: 1, RootCount: 1}, again.Sessions[0])
	ok[map[string]any](t, st, `{"operation":"append","sessionId":"chat","message":{"role":"user","content":"And tomorrow?"}}`)
	ok[map[string]any](t, st, `{"operation":"append","sessionId":"chat","message":{"role":"assistant","content":"Rain."}}`)
	grown, err := other.Import(export(), "auto")
	require.Nil(t, err)
	assert.Equal(t, s.SessionID, grown.Sessions[0].SessionID)
	assert.Equal(t, 2, grown.Sessions[0].Added)
	assert.Equal(t, contextMessages(t, st, "chat"), contextMessages(t, other, s.SessionID))
}

func TestImportOpenAIRequestBodiesAndFineTuningLines(t *testing.T) {
	st := testStore(t)
	body := `{"model":"gpt-4o","title":"A request","messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"}],"temperature":0.2}`
	res, err := st.Import([]byte(body), "auto")
	require.Nil(t, err)
	assert.Equal(t, "openai", res.Format)
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, "A request", res.Sessions[0].Title)
	assert.Equal(t, []string{`{"role":"user","content":"Hi"}`, `{"role":"assistant","content":"Hello!"}`}, contextMessages(t, st, res.Sessions[0].SessionID))

	// Fine-tuning lines: the same system message starts both examples, yet
	// they are two sessions; a line without messages and a message without
	// a role are skipped, each named.
	lines := strings.Join([]string{
		`{"messages":[{"role":"system","content":"Be kind."},{"role":"user","content":"One?"},{"role":"assistant","content":"1"}]}`,
		`{"messages":[{"role":"system","content":"Be kind."},{"role":"user","content":"Two?"},{"content":"no role"},{"role":"assistant","content":"2"}]}`,
		`{"prompt":"not a chat"}`,
		`[1,2]`,
	}, "\n") + "\n"
	st = testStore(t)
	res, err = st.Import([]byte(lines), "auto")
	require.Nil(t, err)
	assert.Equal(t, "openai", res.Format)
	require.Len(t, res.Sessions, 2)
	assert.NotEqual(t, res.Sessions[0].SessionID, res.Sessions[1].SessionID)
	assert.Equal(t, []string{"One?", "Two?"}, []string{res.Sessions[0].Title, res.Sessions[1].Title})
	assert.Equal(t, 3, res.Sessions[1].NodeCount)
	var warns []string
	for _, w := range res.Warnings {
		warns = append(warns, w.Message)
	}
	assert.Equal(t, []string{
		`line 2: message 2.role is missing; skipped`,
		`line 3 has no "messages" array of messages; skipped`,
		`line 4 is not an object with "messages"; skipped`,
	}, warns)
}

func TestImportOpenAIFailsPlainly(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"a cut-off array", `[{"role":"user","content":"Hi"},{"role":`, "openai import: the messages could not be read"},
		{"messages that are not an array of objects", `[{"role":"user","content":"Hi"}, 3]`, ""},
	} {
		res, err := testStore(t).Import([]byte(tc.data), "auto")
		if tc.want != "" {
			require.NotNil(t, err, tc.name)
			assert.Contains(t, err.Message, tc.want, tc.name)
			continue
		}
		require.Nil(t, err, tc.name)
		require.Len(t, res.Sessions, 1, tc.name)
		assert.Equal(t, 1, res.Sessions[0].NodeCount, tc.name)
		assert.Len(t, res.Warnings, 1, tc.name)
	}
}

func TestImportOpenAIChatsThatStartAlikeNeverMix(t *testing.T) {
	st := testStore(t)
	chat := func(city, last string) []byte {
		return []byte(`[{"role":"system","content":"Be brief."},{"role":"user","content":"Weather in ` + city + `?"},` +
			`{"role":"assistant","content":"Let me check."},{"role":"user","content":"` + last + `"}]`)
	}
	paris, err := st.Import(chat("Paris", "thanks"), "auto")
	require.Nil(t, err)
	lyon, err := st.Import(chat("Lyon", "and tomorrow?"), "auto")
	require.Nil(t, err)
	// Another first question: another session, whole.
	require.NotEqual(t, paris.Sessions[0].SessionID, lyon.Sessions[0].SessionID)
	assert.Equal(t, 4, lyon.Sessions[0].NodeCount)
	assert.Equal(t, []string{`{"role":"system","content":"Be brief."}`, `{"role":"user","content":"Weather in Lyon?"}`,
		`{"role":"assistant","content":"Let me check."}`, `{"role":"user","content":"and tomorrow?"}`}, contextMessages(t, st, lyon.Sessions[0].SessionID))

	// The same first question, then another turn: a branch of that session,
	// each message on its own path.
	other, err := st.Import([]byte(`[{"role":"system","content":"Be brief."},{"role":"user","content":"Weather in Paris?"},`+
		`{"role":"assistant","content":"Sunny."},{"role":"user","content":"thanks"}]`), "auto")
	require.Nil(t, err)
	s := other.Sessions[0]
	assert.Equal(t, paris.Sessions[0].SessionID, s.SessionID)
	assert.Equal(t, 2, s.Added)
	assert.Equal(t, 2, s.BranchCount)
	assert.Equal(t, []string{`{"role":"system","content":"Be brief."}`, `{"role":"user","content":"Weather in Paris?"}`,
		`{"role":"assistant","content":"Sunny."}`, `{"role":"user","content":"thanks"}`}, contextMessages(t, st, s.SessionID),
		"the cursor follows the newest import's (nobody moved it since the first)")
	ok[Status](t, st, obj{"operation": "jump", "sessionId": s.SessionID, "nodeId": *paris.Sessions[0].Cursor})
	assert.Equal(t, []string{`{"role":"system","content":"Be brief."}`, `{"role":"user","content":"Weather in Paris?"}`,
		`{"role":"assistant","content":"Let me check."}`, `{"role":"user","content":"thanks"}`}, contextMessages(t, st, s.SessionID), "the first chat is whole on its own path")

	// A Batch API file: a session per line, titled by custom_id; an empty
	// chat is nothing to import.
	batch := `{"custom_id":"req-1","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":"One"}]}}` + "\n" +
		`{"custom_id":"req-2","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[]}}` + "\n"
	res, err := testStore(t).Import([]byte(batch), "auto")
	require.Nil(t, err)
	assert.Equal(t, "openai", res.Format)
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, "req-1", res.Sessions[0].Title)
	require.Len(t, res.Skipped, 1)
	assert.Contains(t, res.Skipped[0].Reason, "line 2 has no messages: nothing to import")
}

func TestImportOpenAIOfNothingUsableSaysWhyPlainly(t *testing.T) {
	_, err := testStore(t).Import([]byte(`[{"role":5}]`), "auto")
	require.NotNil(t, err)
	assert.Regexp(t, `^nothing imported: the conversation: message 0.role must be a string; skipped; conversation "openai-[0-9a-f]+": none of its 1 records could be used; skipped$`, err.Message)
	_, err = testStore(t).Import([]byte(`{"model":"x","messages":[]}`), "auto")
	require.NotNil(t, err)
	assert.Equal(t, "openai import: the conversation has no messages: nothing to import", err.Message)
}
