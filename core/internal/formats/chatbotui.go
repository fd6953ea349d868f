package formats

import (
	"bytes"
	"cmp"
	"maps"
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Chatbot UI (mckaywrigley/chatbot-ui, the "legacy" app) exports, version
// 4: {"version":4,"history":[chat…],"folders":[…],"prompts":[…]}; versions
// 1–3 were a bare array of chats or {"history","folders"}. A chat is
// {"id","name","messages":[{"role","content"}],"model","prompt",
// "temperature","folderId"}: a linear list without message ids. Field names
// as in chatbot-ui's utils/app/importExport.ts and LibreChat's test data.

// detectChatbotUI reports whether the data is a Chatbot UI export: an
// object with a "history" array, or an array of chats with "name" and
// "messages".
func detectChatbotUI(sn *Sniff) bool {
	switch sn.Shape {
	case '{':
		raw, ok := sn.Keys["history"]
		return ok && len(raw) > 0 && raw[0] == '['
	case '[':
		raw, ok := sn.Keys["messages"]
		return ok && sn.has("name") && len(raw) > 0 && raw[0] == '['
	}
	return false
}

// chatbotUIExportFields are the fields convertChatbotUI reads.
var chatbotUIExportFields = []string{"history"}

// convertChatbotUI converts the export object's "history" chats.
func convertChatbotUI(model *Model, top jsonx.RawMessage) ([]Conversation, []Warning, error) {
	var history []jsonx.RawMessage
	var err error
	// top is an object: Whole is given nothing else.
	jsonx.ReadObject(top, chatbotUIExportFields, func(_ int, v []byte) {
		if !jsonx.ReadRaws(v, &history) && err == nil {
			err = jsonx.Mismatch(top, v, "[]jsonx.RawMessage", "", "history")
		}
	})
	if err != nil {
		return nil, nil, jsonx.TextError("chatbotui import: the export could not be read: %s", jsonx.ErrorText(err))
	}
	var convs []Conversation
	var warns []Warning
	for k, raw := range history {
		c, w := convertChatbotUIChat(model, raw, k)
		convs = append(convs, c)
		warns = append(warns, w...)
	}
	if len(convs) == 0 {
		return nil, warns, jsonx.TextError("chatbotui import: the export's history holds no chat")
	}
	return convs, warns, nil
}

// chatbotUIChat is what convertChatbotUIChat reads of a chat.
type chatbotUIChat struct {
	ID, Name, Prompt *string
	Messages         []jsonx.RawMessage
}

// chatbotUIChatFields are the keys of chatbotUIChat's fields, in order.
var chatbotUIChatFields = []string{"id", "name", "prompt", "messages"}

// read reads the chat object raw: ok is false when it is not one, and
// wrong[i] says, for field i of chatbotUIChatFields whose value is of
// another type than Chatbot UI writes, what it is ("its \"name\" is a
// number, not a string"); that field is then left as if absent.
func (c *chatbotUIChat) read(raw []byte) (wrong [4]string, ok bool) {
	ok = jsonx.ReadObject(raw, chatbotUIChatFields, func(field int, v []byte) {
		var good bool
		switch field {
		case 0:
			good = jsonx.ReadStringPtr(v, &c.ID)
		case 1:
			good = jsonx.ReadStringPtr(v, &c.Name)
		case 2:
			good = jsonx.ReadStringPtr(v, &c.Prompt)
		case 3:
			good = jsonx.ReadRaws(v, &c.Messages)
		}
		if !good {
			want := "a string"
			if field == 3 {
				want = "an array"
			}
			wrong[field] = chatgptWrong(chatbotUIChatFields[field], v, want)
		}
	})
	return wrong, ok
}

// roleContent is a message's role and raw content.
type roleContent struct {
	Role    string
	Content jsonx.RawMessage
}

// roleContentFields are the keys of roleContent's fields, in order.
var roleContentFields = []string{"role", "content"}

// read reads the message object raw and reports whether its role is a
// string (or null) where it has one.
func (m *roleContent) read(raw []byte) bool {
	ok := true
	ok = jsonx.ReadObject(raw, roleContentFields, func(field int, v []byte) {
		if field == 0 {
			ok = jsonx.ReadString(v, &m.Role) && ok
		} else {
			m.Content = v
		}
	}) && ok
	return ok
}

// convertChatbotUIChat converts one chat: an optional system message from
// its "prompt" (what Chatbot UI sent the model first), then its messages
// in order, ids generated.
func convertChatbotUIChat(model *Model, raw jsonx.RawMessage, k int) (Conversation, []Warning) {
	c := Conversation{Linear: true}
	if len(raw) == 0 || raw[0] != '{' {
		c.Skip = jsonx.Sprintf("chat %d is not an object; skipped", k+1)
		return c, nil
	}
	var fields map[string]jsonx.RawMessage
	var chat chatbotUIChat
	wrong, ok := chat.read(raw)
	if !ok || !jsonx.ReadRawMap(raw, &fields) {
		c.Skip = jsonx.Sprintf("chat %d could not be read; skipped", k+1)
		return c, nil
	}
	// Without its id or messages a chat cannot be taken; its name and prompt it can do without.
	if why := cmp.Or(wrong[0], wrong[3]); why != "" {
		c.Skip = jsonx.Sprintf("chat %d could not be read: %s; skipped", k+1, why)
		return c, nil
	}
	c.ID = hashID("chatbotui-", raw) // a placeholder until renameDerived
	derived := chat.ID == nil || *chat.ID == ""
	if !derived {
		c.ID = *chat.ID
	}
	if chat.Name != nil {
		c.Title = *chat.Name
	}
	if !model.SessionID(c.ID) {
		c.Skip = jsonx.Sprintf("chat %d has an unusable id %q; skipped", k+1, c.ID)
		c.ID = ""
		return c, nil
	}
	name := ConversationName("chat", c.Title, c.ID)
	var warns []Warning
	for _, why := range wrong[1:3] {
		if why != "" {
			warns = append(warns, Warning{SessionID: c.ID, Message: jsonx.Sprintf("%s: %s; taken as absent", name, why)})
		}
	}
	if chat.Prompt != nil && *chat.Prompt != "" {
		// The chat's settings (model, prompt, temperature, folder) are its
		// own record: the system node's source, without the messages.
		delete(fields, "messages")
		src := []byte{'{'}
		for i, key := range slices.Sorted(maps.Keys(fields)) {
			if i > 0 {
				src = append(src, ',')
			}
			src = jsonx.AppendKey(src, key)
			v, _ := jsonx.CompactRaw(fields[key])
			src = append(src, v...)
		}
		src = append(src, '}')
		msg := jsonx.AppendString([]byte(`{"role":"system","content":`), *chat.Prompt)
		c.Records = append(c.Records, Record{Message: append(msg, '}'), Source: src})
	}
	for i, m := range chat.Messages {
		var msg roleContent
		if len(m) == 0 || m[0] != '{' || !msg.read(m) || msg.Role == "" {
			warns = append(warns, Warning{SessionID: c.ID, Message: jsonx.Sprintf("%s: message %d has no role; skipped", name, i)})
			c.Unusable++
			continue
		}
		src, _ := jsonx.CompactRaw(m)
		content := bytes.TrimSpace(msg.Content)
		b := jsonx.AppendString([]byte(`{"role":`), msg.Role)
		b = append(b, `,"content":`...)
		if len(content) > 0 && (content[0] == '"' || content[0] == '[' && contentPartsOK(content)) {
			cc, _ := jsonx.CompactRaw(content)
			b = append(b, cc...)
		} else {
			b = append(b, `""`...)
		}
		c.Records = append(c.Records, Record{Message: append(b, '}'), Source: src})
	}
	if len(c.Records) == 0 && c.Unusable == 0 {
		warns = append(warns, Warning{SessionID: c.ID, Message: jsonx.Sprintf("%s has no messages; it is an empty session", name)})
	}
	if derived {
		renameDerived(&c, warns, "chatbotui-")
	}
	return c, warns
}
