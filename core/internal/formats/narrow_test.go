package formats

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
)

// The readers' narrow field reads are held to what decoding into the
// tagged structs they replaced gives (encoding/json, which jsonx.Unmarshal
// matched down to its error wording; jsonx's fuzz targets hold it to
// that): the same values, and a failure on the same inputs, with the same
// text where a warning quotes it.

// fieldValues are the values each field of a record is tried with: every
// JSON type, nested objects with the fields of the nested records, and
// arrays of mixed elements.
var fieldValues = []string{
	`null`, `"s"`, `""`, `"\u00e9\n"`, `0`, `-2`, `7`, `1.5`, `1e400`, `true`, `false`,
	`{}`, `{"messageID":"m","created":5,"status":"completed","input":{"a":1},"output":"o","error":"e"}`,
	`{"messageID":1}`, `{"status":1}`, `{"output":2}`, `{"messages":[{"role":"user"}]}`, `{"messages":"x"}`,
	`[]`, `["x",1,null,{}]`, `[{"file_name":"f","extracted_content":"c"},null]`, `[{"file_name":1}]`, `["a"]`,
	`[{"reasoning":"r"}]`, `[{"send_date":"d","extra":{"reasoning":"r"}},3]`, `{"reasoning":1,"type":"t"}`, `{"type":2}`,
	`[{"extra":{"reasoning":1}}]`, `[{"extra":"x"}]`, `[{"extra":null,"send_date":null}]`, `{"systemRole":"r","title":"t"}`,
	`{"systemRole":1,"title":2}`, `[{"id":"c","apiName":1,"arguments":"{}"},"x",null]`,
}

// recordVariants returns base (an object) with each of keys (and its
// upper-cased spelling, which encoding/json matches too) set to each of
// fieldValues, added last so that it wins over base's own; and a few
// values that are not objects.
func recordVariants(base string, keys []string) []string {
	out := []string{base, `null`, `[]`, `"s"`, `1`, `true`, `{}`, ` {"id" : "x"} `}
	inner := strings.TrimSuffix(strings.TrimPrefix(base, "{"), "}")
	for _, k := range keys {
		for _, spelling := range []string{k, strings.ToUpper(k)} {
			for _, v := range fieldValues {
				sep := ","
				if inner == "" {
					sep = ""
				}
				out = append(out, "{"+inner+sep+jsonx.Sprintf("%q", spelling)+":"+v+"}")
			}
		}
	}
	return out
}

// errText is err's text with the tagged test types' names turned into the
// reader's, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return strings.ReplaceAll(err.Error(), "Tagged", "")
}

type ocSessionTagged struct {
	ID        string `json:"id"`
	Directory string `json:"directory"`
	ParentID  string `json:"parentID"`
	Title     string `json:"title"`
	Time      struct {
		Created jsonx.RawMessage `json:"created"`
	} `json:"time"`
	Revert *struct {
		MessageID string `json:"messageID"`
	} `json:"revert"`
	raw jsonx.RawMessage
}

type ocMessageTagged struct {
	ID        string `json:"id"`
	SessionID string `json:"sessionID"`
	Role      string `json:"role"`
	ParentID  string `json:"parentID"`
	Time      struct {
		Created jsonx.RawMessage `json:"created"`
	} `json:"time"`
	Error jsonx.RawMessage `json:"error"`
	raw   jsonx.RawMessage
	parts []ocPart
}

type ocPartTagged struct {
	ID        string  `json:"id"`
	MessageID string  `json:"messageID"`
	Type      string  `json:"type"`
	Text      *string `json:"text"`
	Ignored   bool    `json:"ignored"`
	Mime      string  `json:"mime"`
	Filename  string  `json:"filename"`
	URL       string  `json:"url"`
	CallID    string  `json:"callID"`
	Tool      string  `json:"tool"`
	State     *struct {
		Status string           `json:"status"`
		Input  jsonx.RawMessage `json:"input"`
		Output *string          `json:"output"`
		Error  string           `json:"error"`
	} `json:"state"`
	raw jsonx.RawMessage
}

func TestOpenCodeRecordsReadAsTheTaggedStructs(t *testing.T) {
	for _, data := range recordVariants(`{"id":"ses_1","title":"t","time":{"created":1}}`, ocSessionFields) {
		var old ocSessionTagged
		oldErr := json.Unmarshal([]byte(data), &old)
		var got ocSession
		err := readOCRecord([]byte(data), got.read)
		if !assert.Equal(t, errText(oldErr), strings.ReplaceAll(errText(err), "formats.ocTime", "struct { Created jsonx.RawMessage \"json:\\\"created\\\"\" }"), "session %s", data) {
			continue
		}
		assert.Equal(t, old.ID+old.Directory+old.ParentID+old.Title+string(old.Time.Created), got.ID+got.Directory+got.ParentID+got.Title+string(got.Time.Created), "session %s", data)
		assert.Equal(t, old.Revert == nil, got.Revert == nil, "session %s: revert", data)
		if old.Revert != nil && got.Revert != nil {
			assert.Equal(t, old.Revert.MessageID, got.Revert.MessageID, "session %s: revert", data)
		}
	}
	for _, data := range recordVariants(`{"id":"msg_1","sessionID":"ses_1","role":"user"}`, ocMessageFields) {
		var old ocMessageTagged
		oldErr := json.Unmarshal([]byte(data), &old)
		var got ocMessage
		err := readOCRecord([]byte(data), got.read)
		if !assert.Equal(t, errText(oldErr), strings.ReplaceAll(errText(err), "formats.ocTime", "struct { Created jsonx.RawMessage \"json:\\\"created\\\"\" }"), "message %s", data) {
			continue
		}
		assert.Equal(t, []string{old.ID, old.SessionID, old.Role, old.ParentID, string(old.Time.Created), string(old.Error)},
			[]string{got.ID, got.SessionID, got.Role, got.ParentID, string(got.Time.Created), string(got.Error)}, "message %s", data)
	}
	for _, data := range recordVariants(`{"id":"prt_1","messageID":"msg_1","type":"text","text":"hi"}`, ocPartFields) {
		var old ocPartTagged
		oldErr := json.Unmarshal([]byte(data), &old)
		var got ocPart
		err := readOCRecord([]byte(data), got.read)
		want := errText(oldErr)
		want = strings.ReplaceAll(want, `struct { Status string "json:\"status\""; Input jsonx.RawMessage "json:\"input\""; Output *string "json:\"output\""; Error string "json:\"error\"" }`, "formats.ocToolState")
		want = strings.ReplaceAll(want, "Go struct field .state.", "Go struct field ocToolState.state.")
		if !assert.Equal(t, want, errText(err), "part %s", data) {
			continue
		}
		if oldErr != nil {
			continue
		}
		assert.Equal(t, ocPart{ID: old.ID, MessageID: old.MessageID, Type: old.Type, Text: old.Text, Ignored: old.Ignored, Mime: old.Mime,
			Filename: old.Filename, URL: old.URL, CallID: old.CallID, Tool: old.Tool, State: (*ocToolState)(old.State)}, got, "part %s", data)
	}
}

func TestClaudeAIRecordsReadAsTheTaggedStructs(t *testing.T) {
	for _, data := range recordVariants(`{"uuid":"c","name":"n","chat_messages":[{"uuid":"m"}]}`, claudeAIConvFields) {
		var old struct {
			UUID        string             `json:"uuid"`
			Name        string             `json:"name"`
			CreatedAt   jsonx.RawMessage   `json:"created_at"`
			UpdatedAt   jsonx.RawMessage   `json:"updated_at"`
			CurrentLeaf string             `json:"current_leaf_message_uuid"`
			Messages    []jsonx.RawMessage `json:"chat_messages"`
		}
		oldOK := json.Unmarshal([]byte(data), &old) == nil
		var got claudeAIConv
		if !assert.Equal(t, oldOK, got.read([]byte(data)) || data == "null", "conversation %s", data) || !oldOK {
			continue
		}
		assert.Equal(t, claudeAIConv(old), got, "conversation %s", data)
	}
	for _, data := range recordVariants(`{"uuid":"m","sender":"human","text":"hi"}`, claudeAIMessageFields) {
		var old struct {
			UUID      string             `json:"uuid"`
			Sender    string             `json:"sender"`
			Text      *string            `json:"text"`
			Content   []jsonx.RawMessage `json:"content"`
			CreatedAt jsonx.RawMessage   `json:"created_at"`
			Parent    *string            `json:"parent_message_uuid"`
		}
		// The attachments apart: of another shape, they are left out and the message kept.
		var att struct {
			Attachments []struct {
				FileName         string  `json:"file_name"`
				ExtractedContent *string `json:"extracted_content"`
			} `json:"attachments"`
		}
		oldOK := json.Unmarshal([]byte(data), &old) == nil
		var got claudeAIMessage
		if !assert.Equal(t, oldOK, got.read([]byte(data)) || data == "null", "message %s", data) || !oldOK {
			continue
		}
		want := claudeAIMessage{UUID: old.UUID, Sender: old.Sender, Text: old.Text, Content: old.Content, CreatedAt: old.CreatedAt, Parent: old.Parent}
		if json.Unmarshal([]byte(data), &att) != nil {
			want.attachmentsLeftOut = true
		} else {
			for _, a := range att.Attachments {
				want.Attachments = append(want.Attachments, claudeAIAttachment(a))
			}
			if att.Attachments != nil && len(att.Attachments) == 0 {
				want.Attachments = []claudeAIAttachment{}
			}
		}
		assert.Equal(t, want, got, "message %s", data)
	}
}

func TestChatbotUIAndOpenAIRecordsReadAsTheTaggedStructs(t *testing.T) {
	for _, data := range recordVariants(`{"id":"c","name":"n","messages":[]}`, chatbotUIChatFields) {
		var old struct {
			ID       *string            `json:"id"`
			Name     *string            `json:"name"`
			Prompt   *string            `json:"prompt"`
			Messages []jsonx.RawMessage `json:"messages"`
		}
		oldOK := json.Unmarshal([]byte(data), &old) == nil
		var got chatbotUIChat
		wrong, ok := got.read([]byte(data))
		if assert.Equal(t, oldOK, ok && wrong == [4]string{} || data == "null", "chat %s", data) && oldOK {
			assert.Equal(t, chatbotUIChat(old), got, "chat %s", data)
		}
	}
	for _, data := range recordVariants(`{"role":"user","content":"hi"}`, roleContentFields) {
		var old struct {
			Role    string           `json:"role"`
			Content jsonx.RawMessage `json:"content"`
		}
		oldOK := json.Unmarshal([]byte(data), &old) == nil
		var got roleContent
		if assert.Equal(t, oldOK, got.read([]byte(data)) || data == "null", "message %s", data) && oldOK {
			assert.Equal(t, roleContent(old), got, "message %s", data)
		}
	}
	for _, data := range recordVariants(`{"messages":[{"role":"user","content":"hi"}]}`, openAIObjectFields) {
		var old struct {
			Messages []jsonx.RawMessage `json:"messages"`
			Title    *string            `json:"title"`
			Name     *string            `json:"name"`
			CustomID *string            `json:"custom_id"`
			Body     *struct {
				Messages []jsonx.RawMessage `json:"messages"`
			} `json:"body"`
		}
		oldOK := json.Unmarshal([]byte(data), &old) == nil
		var got openAIObject
		if assert.Equal(t, oldOK, got.read([]byte(data)), "object %s", data) && oldOK {
			assert.Equal(t, openAIObject{Messages: old.Messages, Title: old.Title, Name: old.Name, CustomID: old.CustomID,
				Body: (*struct{ Messages []jsonx.RawMessage })(old.Body)}, got, "object %s", data)
		}
	}
}

func TestClineUIMessagesReadAsTheTaggedStruct(t *testing.T) {
	for _, data := range recordVariants(`{"ts":1,"type":"say","say":"task","text":"t"}`, clineUIFields) {
		var old struct {
			Ts    jsonx.RawMessage `json:"ts"`
			Type  string           `json:"type"`
			Ask   string           `json:"ask"`
			Say   string           `json:"say"`
			Text  string           `json:"text"`
			Index *int             `json:"conversationHistoryIndex"`
		}
		oldOK := json.Unmarshal([]byte(data), &old) == nil
		var got clineUI
		if assert.Equal(t, oldOK, got.read([]byte(data)), "ui message %s", data) && oldOK {
			assert.Equal(t, clineUI(old), got, "ui message %s", data)
		}
	}
	for _, data := range []string{``, `x`, `[1,`, `null`, `"s"`, `{}`, `[]`, ` [1, {"a" : 2}] `} {
		var old []jsonx.RawMessage
		oldErr := json.Unmarshal([]byte(data), &old)
		got, err := jsonx.RawArray([]byte(data))
		if _, syntax := oldErr.(*json.SyntaxError); syntax {
			// jsonx words syntax errors its own way, with line and column.
			var serr *jsonx.SyntaxError
			assert.ErrorAs(t, err, &serr, "jsonx.RawArray(%s)", data)
		} else {
			assert.Equal(t, errText(oldErr), errText(err), "jsonx.RawArray(%s)", data)
		}
		assert.Equal(t, old, got, "jsonx.RawArray(%s)", data)
	}
}

func TestSillyTavernMessagesReadAsTheTaggedStruct(t *testing.T) {
	for _, data := range recordVariants(`{"name":"n","is_user":true,"mes":"hi","extra":{"reasoning":"r","type":"narrator"}}`, sillyTavernMessageFields) {
		var old struct {
			Name      string             `json:"name"`
			IsUser    bool               `json:"is_user"`
			IsSystem  bool               `json:"is_system"`
			SendDate  jsonx.RawMessage   `json:"send_date"`
			Mes       *string            `json:"mes"`
			Swipes    []jsonx.RawMessage `json:"swipes"`
			SwipeID   *int               `json:"swipe_id"`
			SwipeInfo []struct {
				SendDate jsonx.RawMessage `json:"send_date"`
				Extra    struct {
					Reasoning string `json:"reasoning"`
				} `json:"extra"`
			} `json:"swipe_info"`
			Extra struct {
				Reasoning string `json:"reasoning"`
				Type      string `json:"type"`
			} `json:"extra"`
		}
		oldOK := json.Unmarshal([]byte(data), &old) == nil
		var got sillyTavernMessage
		if !assert.Equal(t, oldOK, got.read([]byte(data)) || data == "null", "message %s", data) || !oldOK {
			continue
		}
		want := sillyTavernMessage{Name: old.Name, IsUser: old.IsUser, IsSystem: old.IsSystem, SendDate: old.SendDate, Mes: old.Mes,
			Swipes: old.Swipes, SwipeID: old.SwipeID, Extra: sillyTavernExtra(old.Extra)}
		if old.SwipeInfo != nil {
			want.SwipeInfo = []sillyTavernSwipe{}
		}
		for _, sw := range old.SwipeInfo {
			want.SwipeInfo = append(want.SwipeInfo, sillyTavernSwipe{SendDate: sw.SendDate, Extra: sillyTavernExtra{Reasoning: sw.Extra.Reasoning}})
		}
		assert.Equal(t, want, got, "message %s", data)
	}
}

func TestLobeChatRecordsReadWhatFitsAsTheTaggedStructs(t *testing.T) {
	for _, data := range recordVariants(`{"id":"s","config":{"systemRole":"be brief"},"meta":{"title":"t"}}`, lobeSessionFields) {
		var old struct {
			ID     string `json:"id"`
			Config struct {
				SystemRole string `json:"systemRole"`
			} `json:"config"`
			Meta struct {
				Title string `json:"title"`
			} `json:"meta"`
			CreatedAt jsonx.RawMessage `json:"createdAt"`
			CreateAt  jsonx.RawMessage `json:"createAt"`
		}
		_ = json.Unmarshal([]byte(data), &old)
		var got lobeSession
		got.read([]byte(data))
		assert.Equal(t, lobeSession{ID: old.ID, SystemRole: old.Config.SystemRole, Title: old.Meta.Title, CreatedAt: old.CreatedAt, CreateAt: old.CreateAt}, got, "session %s", data)
	}
	for _, data := range recordVariants(`{"id":"t","title":"x","sessionId":"s","createdAt":1}`, lobeTopicFields) {
		var old struct {
			ID        string           `json:"id"`
			Title     string           `json:"title"`
			SessionID string           `json:"sessionId"`
			CreatedAt jsonx.RawMessage `json:"createdAt"`
			CreateAt  jsonx.RawMessage `json:"createAt"`
		}
		_ = json.Unmarshal([]byte(data), &old)
		var got lobeTopic
		got.read([]byte(data))
		assert.Equal(t, lobeTopic(old), got, "topic %s", data)
	}
	for _, data := range recordVariants(`{"id":"m","role":"assistant","content":"hi","tools":[{"id":"c","apiName":"a","arguments":"{}"}]}`, lobeMessageFields) {
		var old struct {
			ID         string           `json:"id"`
			Role       string           `json:"role"`
			Content    jsonx.RawMessage `json:"content"`
			SessionID  string           `json:"sessionId"`
			TopicID    string           `json:"topicId"`
			ParentID   string           `json:"parentId"`
			CreatedAt  jsonx.RawMessage `json:"createdAt"`
			CreateAt   jsonx.RawMessage `json:"createAt"`
			ToolCallID string           `json:"tool_call_id"`
			Name       string           `json:"name"`
			Tools      []struct {
				ID        string `json:"id"`
				APIName   string `json:"apiName"`
				Arguments string `json:"arguments"`
			} `json:"tools"`
		}
		_ = json.Unmarshal([]byte(data), &old)
		var got lobeMessage
		got.read([]byte(data))
		want := lobeMessage{ID: old.ID, Role: old.Role, Content: old.Content, SessionID: old.SessionID, TopicID: old.TopicID, ParentID: old.ParentID,
			CreatedAt: old.CreatedAt, CreateAt: old.CreateAt, ToolCallID: old.ToolCallID, Name: old.Name}
		if old.Tools != nil {
			want.Tools = []lobeTool{}
		}
		for _, tc := range old.Tools {
			want.Tools = append(want.Tools, lobeTool(tc))
		}
		assert.Equal(t, want, got, "message %s", data)
	}
}
