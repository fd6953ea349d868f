package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAMessageWhoseTimeIsNotATimeIsKeptWithAWarning: a message's own time
// field holding a value that is not a time (a word, true, an object, a
// negative or too large number) is taken as absent, as ChatGPT's
// create_time is: the message is kept, undated (the conversation's time),
// its source keeps the value, and the report names the message and the
// field. Before, each of these readers took the value as absent without a
// word.
func TestAMessageWhoseTimeIsNotATimeIsKeptWithAWarning(t *testing.T) {
	formats := []struct {
		name, field, session, bad string
		file                      func(bad string) string
	}{
		{"claude.ai", "created_at", "c", "m1", func(bad string) string {
			return `[{"uuid":"c","name":"Trip","chat_messages":[{"uuid":"m1","sender":"human","text":"q","created_at":` + bad +
				`},{"uuid":"m2","sender":"assistant","text":"r","created_at":"2024-01-01T00:00:01Z"}]}]`
		}},
		{"librechat", "createdAt", "r", "a", func(bad string) string {
			return `{"conversationId":"r","recursive":true,"messages":[{"messageId":"a","parentMessageId":"00000000-0000-0000-0000-000000000000","isCreatedByUser":true,"text":"q","createdAt":` + bad +
				`,"children":[{"messageId":"b","parentMessageId":"a","isCreatedByUser":false,"text":"r","createdAt":"2024-01-01T00:00:01Z","children":[]}]}]}`
		}},
		{"open webui", "timestamp", "w", "a", func(bad string) string {
			return `[{"id":"w","title":"w","chat":{"history":{"currentId":"b","messages":{"a":{"id":"a","parentId":null,"role":"user","content":"q","timestamp":` + bad +
				`},"b":{"id":"b","parentId":"a","role":"assistant","content":"r","timestamp":1700000001}}}}}]`
		}},
		{"pi", "timestamp", "p", "m1", func(bad string) string {
			return `{"type":"session","version":3,"id":"p","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/p"}` + "\n" +
				`{"type":"message","id":"m1","parentId":null,"timestamp":` + bad + `,"message":{"role":"user","content":"q"}}` + "\n" +
				`{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-02T03:04:09.000Z","message":{"role":"assistant","content":"r"}}` + "\n"
		}},
		{"gemini cli", "timestamp", "g", "a", func(bad string) string {
			return `{"sessionId":"g","projectHash":"h","startTime":"2025-01-01T00:00:00Z","messages":[{"id":"a","type":"user","content":"q","timestamp":` + bad +
				`},{"id":"b","type":"gemini","content":"r","timestamp":"2025-01-01T00:00:01Z"}]}`
		}},
	}
	for _, f := range formats {
		for _, bad := range []string{`"yesterday"`, `true`, `{}`, `-5`, `1e400`} {
			t.Run(f.name+" "+f.field+" "+bad, func(t *testing.T) {
				st := testStore(t)
				res := mustImport(t, st, []byte(f.file(bad)), "auto")
				require.Len(t, res.Sessions, 1)
				id := res.Sessions[0].SessionID
				assert.Equal(t, []string{"user: q", "assistant: r"}, roleTexts(t, st, id))
				want := `message "` + f.bad + `": its "` + f.field + `" is not a time; taken as absent`
				assert.Contains(t, strings.Join(warningTexts(res), "\n"), want)
				assert.Equal(t, 1, res.Sessions[0].Warnings, "one warning: %v", warningTexts(res))
				n := ok[struct {
					Timestamp string
					Source    json.RawMessage
				}](t, st, obj{"operation": "node", "sessionId": id, "nodeId": f.bad})
				assert.NotEmpty(t, n.Timestamp, "undated, the node takes the conversation's time")
				assert.Contains(t, string(n.Source), `"`+f.field+`":`+bad, "the source keeps the value")
			})
		}
		t.Run(f.name+" with no time or a null one says nothing", func(t *testing.T) {
			for _, absent := range []string{`null`, `""`, `0`} {
				res := mustImport(t, testStore(t), []byte(f.file(absent)), "auto")
				assert.Empty(t, warningTexts(res), absent)
			}
		})
	}
}

// TestASillyTavernSendDateThatIsNotATimeIsWarnedOf: SillyTavern's own
// date strings ("2023-4-21 @20h 03m 06s 446ms") are times; a word is not.
func TestASillyTavernSendDateThatIsNotATimeIsWarnedOf(t *testing.T) {
	data := `{"user_name":"You","character_name":"Aqua","create_date":1674559896839}` + "\n" +
		`{"name":"Aqua","is_user":false,"send_date":1674563371558,"mes":"hi"}` + "\n" +
		`{"name":"You","is_user":true,"send_date":"2023-4-21 @20h 03m 06s 446ms","mes":"yo"}` + "\n" +
		`{"name":"Aqua","is_user":false,"send_date":"soon","mes":"later"}` + "\n"
	st := testStore(t)
	res := mustImport(t, st, []byte(data), "auto")
	require.Len(t, res.Sessions, 1)
	assert.Len(t, roleTexts(t, st, res.Sessions[0].SessionID), 3)
	texts := warningTexts(res)
	require.Len(t, texts, 1, "only the word is not a time: %v", texts)
	assert.Contains(t, texts[0], `its "send_date" is not a time; taken as absent`)
}

// TestAPiEntryWithoutAnIdGetsAStableOne: a Pi entry (version 2 and on)
// with no id is kept with one derived from its line and content, as
// tolerance rule 5 says (it was skipped); the same file again adds
// nothing, and a file that grew adds only its new line.
func TestAPiEntryWithoutAnIdGetsAStableOne(t *testing.T) {
	lines := `{"type":"session","version":3,"id":"p","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/p"}` + "\n" +
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-02T03:04:06.000Z","message":{"role":"user","content":"q"}}` + "\n" +
		`{"type":"message","parentId":"m1","timestamp":"2026-01-02T03:04:07.000Z","message":{"role":"assistant","content":"r"}}` + "\n"
	st := testStore(t)
	res := mustImport(t, st, []byte(lines), "auto")
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, []string{"user: q", "assistant: r"}, roleTexts(t, st, "p"))
	texts := warningTexts(res)
	require.Len(t, texts, 1)
	assert.Regexp(t, `line 3 \(message\) has no id; it is given "pi-[0-9a-f]{16}", derived from its place and content`, texts[0])

	again := mustImport(t, st, []byte(lines), "auto")
	assert.Equal(t, 0, again.Sessions[0].Added, "the same file adds nothing")
	grown := mustImport(t, st, []byte(lines+`{"type":"message","id":"m3","parentId":"m1","timestamp":"2026-01-02T03:04:08.000Z","message":{"role":"user","content":"more"}}`+"\n"), "auto")
	assert.Equal(t, 1, grown.Sessions[0].Added, "a grown file adds its new line only")
}

// TestALobeChatMessageWithoutAnIdGetsAStableOne: as a Pi entry's, a
// LobeChat message without an id is kept with one derived from its place
// and content, and the warning names its conversation (it was skipped).
func TestALobeChatMessageWithoutAnIdGetsAStableOne(t *testing.T) {
	file := func(extra string) []byte {
		return []byte(`{"exportType":"all","version":7,"state":{"sessions":[{"id":"s","config":{},"meta":{"title":"A"}}],"topics":[{"id":"t","title":"T","sessionId":"s"}],"messages":[` +
			`{"id":"a","role":"user","content":"q","sessionId":"s","topicId":"t","createdAt":1000},` +
			`{"role":"assistant","content":"r","parentId":"a","sessionId":"s","topicId":"t","createdAt":2000}` + extra + `]}}`)
	}
	st := testStore(t)
	res := mustImport(t, st, file(""), "auto")
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, "lobechat-t", res.Sessions[0].SessionID)
	assert.Equal(t, []string{"user: q", "assistant: r"}, roleTexts(t, st, "lobechat-t"))
	require.Len(t, res.Warnings, 1)
	assert.Equal(t, "lobechat-t", res.Warnings[0].SessionID)
	assert.Regexp(t, `lobechat message 1 has no id; it is given "lobe-msg-[0-9a-f]{16}", derived from its place and content`, res.Warnings[0].Message)
	assert.Equal(t, 0, mustImport(t, st, file(""), "auto").Sessions[0].Added, "the same file adds nothing")
	grown := mustImport(t, st, file(`,{"id":"c","role":"user","content":"more","sessionId":"s","topicId":"t","createdAt":3000}`), "auto")
	assert.Equal(t, 1, grown.Sessions[0].Added)
}

// TestImportObjectCutShort: an export that is one JSON object (Chatbot
// UI's {version, history, folders, prompts}) cut off after its
// conversations imports them, with a warning naming the member the data
// ends inside; cut inside the conversations it is refused as before.
func TestImportObjectCutShort(t *testing.T) {
	whole := fixture(t, "librechat/chatbotui-export.json")
	full := mustImport(t, testStore(t), whole, "auto")
	require.Len(t, full.Sessions, 2)
	prompts := bytes.Index(whole, []byte(`"prompts"`))
	require.Positive(t, prompts)

	t.Run("inside the prompts: both chats, the cut named", func(t *testing.T) {
		res := mustImport(t, testStore(t), whole[:len(whole)*99/100], "auto")
		require.Len(t, res.Sessions, 2)
		for i, s := range res.Sessions {
			assert.Equal(t, full.Sessions[i].SessionID, s.SessionID)
			assert.Equal(t, full.Sessions[i].NodeCount, s.NodeCount)
		}
		line := 1 + bytes.Count(whole[:prompts], []byte("\n"))
		assert.Contains(t, warningTexts(res), fmt.Sprintf(`the data ends inside its "prompts" (it begins on line %d): the file is cut off; what that member held, and anything after it, is missing; the members before it are read`, line))
	})
	t.Run("without the closing brace: every member read, with a warning", func(t *testing.T) {
		cut := bytes.TrimRight(whole, " \n")
		res := mustImport(t, testStore(t), cut[:len(cut)-1], "auto")
		require.Len(t, res.Sessions, 2)
		assert.Contains(t, warningTexts(res), "the data ends without the closing '}' after its last whole member: the file is cut off, so what came after may be missing; the members before are read")
	})
	t.Run("inside the history: refused, the fault named", func(t *testing.T) {
		_, err := testStore(t).Import(whole[:prompts/2], "auto")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "not valid JSON")
	})
	t.Run("garbled, not cut: refused", func(t *testing.T) {
		bad := bytes.Clone(whole)
		bad[prompts+len(`"prompts"`)] = '#' // the colon after the key
		_, err := testStore(t).Import(bad, "auto")
		require.NotNil(t, err)
	})
}
