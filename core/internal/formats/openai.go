package formats

import (
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// OpenAI Chat Completions messages (platform.openai.com/docs/api-reference/
// chat/create, "messages"): a conversation as the array a request sends,
// [{"role","content",…}], content a string, an array of content parts, or
// null (an assistant message that only calls tools), with "name",
// "tool_calls", "tool_call_id" and the like beside it. sessiontree's own
// "openai" export writes this array (the path to the cursor). Three
// shapes are read:
//
//   - the array itself: one conversation;
//   - an object holding it as "messages" (a request body, or one example
//     of a fine-tuning file): one conversation, titled by a "title" or
//     "name" string member when there is one;
//   - JSON lines of such objects (a fine-tuning file), or of Batch API
//     requests {"custom_id","method","url","body":{"messages":…}}: one
//     conversation per line (titled by custom_id).
//
// Messages are kept as they are when core takes them (they are its own
// message shape); a message core refuses is skipped with a warning naming
// its index. A conversation has no ids: the session's is derived from its
// messages up to the first user message (the prompts and the first
// question; in JSON lines, the line too), each message's from its
// parent's and its own, so a re-import of a longer copy of the same chat
// adds only its new turns, and two chats that start alike and part are
// two branches of one session, each message on its own path.

// detectOpenAI reports whether the data is one of the three shapes: an
// array whose first element has "role", an object whose "messages" is an
// array, or JSON lines whose first line is such an object.
func detectOpenAI(sn *Sniff) bool {
	switch sn.Shape {
	case '[':
		_, role := sn.Keys["role"]
		return role
	case '{':
		raw := sn.Keys["messages"]
		return len(raw) > 0 && raw[0] == '['
	case 'l':
		if len(sn.lines) == 0 {
			return false
		}
		raw := sn.lines[0]["messages"]
		if body := sn.lines[0]["body"]; raw == nil && len(body) > 0 && body[0] == '{' {
			f, _ := RawFields(body) // a Batch API line: the request is its body
			raw = f["messages"]
		}
		return len(raw) > 0 && raw[0] == '['
	}
	return false
}

// convertOpenAIArray converts the data as one conversation: a top-level
// array of messages, or an object holding them as "messages".
func convertOpenAIArray(model *Model, top jsonx.RawMessage) ([]Conversation, []Warning, error) {
	if len(top) > 0 && top[0] == '{' {
		c, warns := convertOpenAIObject(model, top, "the conversation", "")
		if c.Skip != "" {
			return nil, warns, jsonx.TextError("openai import: %s", c.Skip)
		}
		return []Conversation{c}, warns, nil
	}
	msgs, err := jsonx.RawArray(top)
	if err != nil {
		return nil, nil, jsonx.TextError("openai import: the messages could not be read: %s", jsonx.ErrorText(err))
	}
	c, warns := openAIConversation(model, msgs, "", "the conversation", "")
	return []Conversation{c}, warns, nil
}

// openAIObject is what convertOpenAIObject reads of an object.
type openAIObject struct {
	Messages              []jsonx.RawMessage
	Title, Name, CustomID *string
	Body                  *struct{ Messages []jsonx.RawMessage }
}

// openAIObjectFields are the keys of openAIObject's fields, in order.
var openAIObjectFields = []string{"messages", "title", "name", "custom_id", "body"}

// read reads the object raw and reports whether every field it reads has
// the right type (raw may also be null, which has none).
func (o *openAIObject) read(raw []byte) bool {
	if jsonx.IsNull(raw) {
		return true
	}
	ok := true
	ok = jsonx.ReadObject(raw, openAIObjectFields, func(field int, v []byte) {
		switch field {
		case 0:
			ok = jsonx.ReadRaws(v, &o.Messages) && ok
		case 1:
			ok = jsonx.ReadStringPtr(v, &o.Title) && ok
		case 2:
			ok = jsonx.ReadStringPtr(v, &o.Name) && ok
		case 3:
			ok = jsonx.ReadStringPtr(v, &o.CustomID) && ok
		case 4:
			ok = o.readBody(v) && ok
		}
	}) && ok
	return ok
}

// readBody reads "body", a Batch API line's request: null clears it.
func (o *openAIObject) readBody(v []byte) bool {
	if jsonx.IsNull(v) {
		o.Body = nil
		return true
	}
	if o.Body == nil {
		o.Body = &struct{ Messages []jsonx.RawMessage }{}
	}
	ok := true
	ok = jsonx.ReadObject(v, openAIMessagesField, func(_ int, v []byte) {
		ok = jsonx.ReadRaws(v, &o.Body.Messages) && ok
	}) && ok
	return ok
}

// openAIMessagesField is the one field readBody reads.
var openAIMessagesField = []string{"messages"}

// convertOpenAIObject converts an object with "messages" (and maybe a
// "title" or "name"); what names it in warnings ("line 3"), and key tells
// it from other conversations of the same file (see openAIConversation).
func convertOpenAIObject(model *Model, raw jsonx.RawMessage, what, key string) (Conversation, []Warning) {
	var obj openAIObject
	ok := obj.read(raw)
	if ok && obj.Messages == nil && obj.Body != nil {
		obj.Messages = obj.Body.Messages // a Batch API line: {custom_id, method, url, body}
	}
	if !ok || obj.Messages == nil {
		return Conversation{Skip: jsonx.Sprintf("%s has no \"messages\" array of messages; skipped", what)}, nil
	}
	title := ""
	switch {
	case obj.Title != nil:
		title = *obj.Title
	case obj.Name != nil:
		title = *obj.Name
	case obj.CustomID != nil:
		title = *obj.CustomID
	}
	c, warns := openAIConversation(model, obj.Messages, title, what, key)
	return c, warns
}

// openAIConversation makes one linear conversation of msgs; what names it
// in warnings. Its id is derived from key and its first message: the same
// chat grown by more turns keeps it, and key ("" for a file of one
// conversation, the line number in JSON lines, whose examples often begin
// with the same system message) keeps two conversations of one file
// apart.
func openAIConversation(model *Model, msgs []jsonx.RawMessage, title, what, key string) (Conversation, []Warning) {
	c := Conversation{Linear: true, Title: title}
	var warns []Warning
	id := []byte(key)
	asked := false // the first user message is in id
	for i, m := range msgs {
		msg, role, err := model.Message(m, jsonx.Sprintf("message %d", i))
		if err != nil {
			warns = append(warns, Warning{Message: jsonx.Sprintf("%s: %s; skipped", what, err.Error())})
			c.Unusable++
			continue
		}
		if !asked {
			id = append(append(id, 0), msg...)
			asked = role == "user"
		}
		if c.Title == "" && role == "user" {
			c.Title = model.Preview(msg, 60)
		}
		src, _ := jsonx.CompactRaw(m)
		c.Records = append(c.Records, Record{Message: msg, Written: true, Source: src})
	}
	if len(c.Records) == 0 && c.Unusable == 0 {
		c.Skip = jsonx.Sprintf("%s has no messages: nothing to import", what)
		return c, warns
	}
	c.ID = hashID("openai-", id)
	// Each record's id names its parent's too: two chats of one session id
	// (the same first question) that part later are two branches, and an
	// equal message further on never joins the other's.
	parent := c.ID
	for i := range c.Records {
		c.Records[i].ID = DerivedID(parent, i, 0, c.Records[i].Message)
		parent = c.Records[i].ID
	}
	for i := range warns {
		warns[i].SessionID = c.ID
	}
	return c, warns
}

// openAILines reads JSON lines of {"messages":[…]} objects, one
// conversation per line.
type openAILines struct {
	model *Model
	convs []Conversation
	warnings
}

func newOpenAILines(model *Model) LineReader { return &openAILines{model: model} }

// Line converts line n (raw, an object or not) into a conversation.
func (r *openAILines) Line(raw []byte, _ map[string]jsonx.RawMessage, n int) {
	what := jsonx.Sprintf("line %d", n)
	if len(raw) == 0 || raw[0] != '{' {
		r.warn("%s is not an object with \"messages\"; skipped", what)
		return
	}
	c, warns := convertOpenAIObject(r.model, raw, what, what)
	r.warns = append(r.warns, warns...)
	if c.Skip != "" && c.Records == nil && c.Unusable == 0 && !c.Linear {
		r.warn("%s", c.Skip) // not a chat at all: a line skipped
		return
	}
	r.convs = append(r.convs, c) // a chat, maybe one that cannot be used (the report's skipped list)
}

// Finish returns the conversations of every line read.
func (r *openAILines) Finish() ([]Conversation, []Warning) { return r.convs, r.warns }
