package formats

import (
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSniffDetectsEachFormat(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"a chatgpt array", `[{"mapping":{}}]`, "chatgpt"},
		{"an open webui row", `{"id":"x","chat":{"history":{"messages":{}}}}`, "openwebui"},
		{"a bare open webui chat", `{"title":"x","history":{"messages":{},"currentId":null}}`, "openwebui"},
		{"a librechat export", `{"conversationId":"x","messages":[]}`, "librechat"},
		{"an older librechat export", `{"conversationId":"x","messagesTree":[]}`, "librechat"},
		{"a chatbot ui v4 export", `{"version":4,"history":[],"folders":[]}`, "chatbotui"},
		{"a chatbot ui v1 array", `[{"id":"1","name":"x","messages":[]}]`, "chatbotui"},
		{"a claude code transcript", "{\"type\":\"summary\",\"summary\":\"s\",\"leafUuid\":\"u\"}\n{\"uuid\":\"u\",\"parentUuid\":null,\"sessionId\":\"s\"}", "claude-code"},
		{"a one-line claude code transcript", `{"uuid":"u","parentUuid":null,"sessionId":"s","type":"user"}`, "claude-code"},
		{"a snapshot", `{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}`, "snapshot"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is detected as "+tc.want, func(t *testing.T) {
			sn, err := SniffData([]byte(tc.data))
			require.Nil(t, err)
			got := ""
			for _, im := range Importers {
				if im.Detect(sn) {
					got = im.Name
					break
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// stubModel accepts every message (compacted, role "user"), entry and
// session id: the importers' rules live in core, which tests them.
var stubModel = &Model{
	Message: func(raw jsonx.RawMessage, _ string) (jsonx.RawMessage, string, error) {
		c, err := jsonx.CompactRaw(raw)
		return c, "user", err
	},
	Entry:     func(jsonx.RawMessage, string) (*Entry, error) { return &Entry{}, nil },
	SessionID: func(id string) bool { return id != "" },
	Preview:   func(jsonx.RawMessage, int) string { return "" },
}

func TestAChatGPTConversationBecomesRecordsLinkedByParent(t *testing.T) {
	raw := jsonx.RawMessage(`{"id":"c1","title":"T","current_node":"b","mapping":{` +
		`"r":{"id":"r","parent":null,"message":null},` +
		`"a":{"id":"a","parent":"r","message":{"id":"a","author":{"role":"user"},"create_time":1,"content":{"content_type":"text","parts":["hi"]}}},` +
		`"b":{"id":"b","parent":"a","message":{"id":"b","author":{"role":"assistant"},"create_time":2,"content":{"content_type":"text","parts":["yo"]}}}}}`)
	c, _, skip := convertChatGPTConversation(stubModel, raw, 0)
	require.Empty(t, skip)
	assert.Equal(t, "c1", c.ID)
	assert.Equal(t, "T", c.Title)
	assert.Equal(t, "b", c.Current)
	parents := map[string]string{}
	for _, r := range c.Records {
		parents[r.ID] = r.ParentID
	}
	assert.Equal(t, map[string]string{"a": "", "b": "a"}, parents)
}

func TestAJSONLinesReaderSkipsAFileWithoutAHeader(t *testing.T) {
	r := newPiReader(stubModel)
	convs, _ := r.Finish()
	require.Len(t, convs, 1)
	assert.Equal(t, "the data has no Pi session header; skipped", convs[0].Skip)
}

func TestSniffDetectsTheNewFormats(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"a claude.ai export", `[{"uuid":"c","name":"n","chat_messages":[]}]`, "claudeai"},
		{"one claude.ai conversation", `{"uuid":"c","chat_messages":[{"sender":"human","text":"a"}]}`, "claudeai"},
		{"a sillytavern chat", "{\"user_name\":\"u\",\"character_name\":\"c\",\"chat_metadata\":{}}\n{\"name\":\"c\",\"is_user\":false,\"mes\":\"hi\"}", "sillytavern"},
		{"a sillytavern chat without header", "{\"name\":\"c\",\"is_user\":false,\"mes\":\"hi\"}\n{\"name\":\"u\",\"is_user\":true,\"mes\":\"yo\"}", "sillytavern"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is detected as "+tc.want, func(t *testing.T) {
			sn, err := SniffData([]byte(tc.data))
			require.Nil(t, err)
			got := ""
			for _, im := range Importers {
				if im.Detect(sn) {
					got = im.Name
					break
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
