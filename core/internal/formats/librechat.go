package formats

import (
	"bytes"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// LibreChat's conversation export (one conversation per file):
//
//	{"conversationId","title","endpoint","options","recursive":bool,"messages":[…]}
//
// With "recursive": true every message nests its replies in "children";
// otherwise "messages" is a flat list linked by "parentMessageId". Older
// exports call the list "messagesTree". A root's parentMessageId is the
// all-zero UUID, and a conversation may have several roots. Messages carry
// "messageId", "isCreatedByUser", "sender", "text" (or "content" parts),
// "createdAt". Field names as in LibreChat's
// api/server/utils/import/importers.js and its test data.

// LibreRoot is the parent id LibreChat gives a root message.
const LibreRoot = "00000000-0000-0000-0000-000000000000"

// detectLibreChat reports whether the first record is a LibreChat
// conversation export.
func detectLibreChat(sn *Sniff) bool {
	return sn.Shape != 'l' && sn.has("conversationId") && (sn.has("messages") || sn.has("messagesTree"))
}

// libreField is one field of a message, in the export's order.
type libreField struct {
	key string
	val jsonx.RawMessage
}

// libreMsg is one message read from the export, children removed.
type libreMsg struct {
	fields       []libreField
	structParent int // index of the message it is nested in, -1 for none
}

func (m *libreMsg) get(key string) jsonx.RawMessage {
	for _, f := range m.fields {
		if f.key == key {
			return f.val
		}
	}
	return nil
}

// source returns the message as compact JSON without its children.
func (m *libreMsg) source() jsonx.RawMessage {
	b := []byte{'{'}
	for i, f := range m.fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendKey(b, f.key)
		b = append(b, f.val...)
	}
	return append(b, '}')
}

// readLibreMessages reads a messages array, nested through "children" or
// flat, in one pass over the tokens (no recursion, no re-reading of a
// subtree, so deep nesting costs linear time). An element that is not an
// object, and a "children" that is not an array (nor null), is passed
// over and described in bad ("element 2 of the messages is an array").
func readLibreMessages(dec *jsonx.Tokens) (msgs []libreMsg, bad []string, err error) {
	if tok, err := dec.Token(); err != nil {
		return nil, nil, err
	} else if tok != jsonx.Delim('[') {
		return nil, nil, jsonx.TextError("the messages are not an array")
	}
	type frame struct {
		obj     int
		inArray bool
		n       int // elements of the array read so far
	}
	stack := []frame{{obj: -1, inArray: true}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if !dec.More() {
			if _, err := dec.Token(); err != nil { // ']' or '}'
				return nil, nil, err
			}
			stack = stack[:len(stack)-1]
			continue
		}
		if top.inArray {
			top.n++
			if c := dec.Peek(); c != '{' {
				raw, err := dec.Raw()
				if err != nil {
					return nil, nil, err
				}
				where := "of the messages"
				if top.obj >= 0 {
					where = jsonx.Sprintf("of the children of message %d", top.obj)
				}
				bad = append(bad, jsonx.Sprintf("element %d %s is %s, not a message object", top.n-1, where, jsonKind(raw)))
				continue
			}
			if _, err := dec.Token(); err != nil {
				return nil, nil, err
			}
			msgs = append(msgs, libreMsg{structParent: top.obj})
			stack = append(stack, frame{obj: len(msgs) - 1})
			continue
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, _ := tok.(string)
		if key == "children" && dec.Peek() == '[' {
			if _, err := dec.Token(); err != nil {
				return nil, nil, err
			}
			stack = append(stack, frame{obj: top.obj, inArray: true})
			continue
		}
		val, err := dec.Raw()
		if err != nil {
			return nil, nil, err
		}
		if key == "children" {
			if val[0] != 'n' {
				bad = append(bad, jsonx.Sprintf("the children of message %d are %s, not an array", top.obj, jsonKind(val)))
			}
			continue
		}
		compact, err := jsonx.CompactRaw(val)
		if err != nil {
			return nil, nil, err
		}
		msgs[top.obj].fields = append(msgs[top.obj].fields, libreField{key, compact})
	}
	return msgs, bad, nil
}

// readLibreConversation reads a conversation object: its members other
// than the messages (raw), and its messages ("messages", else
// "messagesTree"; the first one present), with what was passed over in
// them (readLibreMessages). err is the first fault, with what was read
// before it.
func readLibreConversation(raw []byte) (top map[string]jsonx.RawMessage, msgs []libreMsg, bad []string, err error) {
	dec := jsonx.NewTokens(raw)
	top = map[string]jsonx.RawMessage{}
	if _, err := dec.Token(); err != nil {
		return top, msgs, bad, err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return top, msgs, bad, err
		}
		key, _ := tok.(string)
		if (key == "messages" || key == "messagesTree") && msgs == nil {
			if msgs, bad, err = readLibreMessages(dec); err != nil {
				return top, msgs, bad, err
			}
			if msgs == nil {
				msgs = []libreMsg{}
			}
			continue
		}
		val, err := dec.Raw()
		if err != nil {
			return top, msgs, bad, err
		}
		top[key] = val
	}
	return top, msgs, bad, nil
}

// convertLibreChat converts one LibreChat conversation (element k).
func convertLibreChat(model *Model, raw jsonx.RawMessage, k int) (Conversation, []Warning) {
	c := Conversation{NewestLeaf: true} // LibreChat's export names no current message
	if len(raw) == 0 || raw[0] != '{' {
		c.Skip = jsonx.Sprintf("conversation %d is not an object; skipped", k+1)
		return c, nil
	}
	top, msgs, bad, readErr := readLibreConversation(raw)
	var id, title string
	_ = jsonx.ReadString(top["conversationId"], &id)
	_ = jsonx.ReadString(top["title"], &title)
	c.Title = title
	derived := id == ""
	if derived {
		id = hashID("librechat-", raw) // a placeholder until renameDerived
	}
	if !model.SessionID(id) {
		c.Skip = jsonx.Sprintf("conversation %d has an unusable id %q; skipped", k+1, id)
		return c, nil
	}
	c.ID = id
	name := ConversationName("conversation", title, id)
	if readErr != nil {
		c.Skip = jsonx.Sprintf("%s could not be read: %v; skipped", name, readErr)
		return c, nil
	}
	w := warnings{session: id, prefix: name + ": "}
	warn := w.warn
	for _, why := range bad {
		warn("%s; skipped", why)
	}
	if len(msgs) == 0 {
		if len(bad) > 0 {
			c.Skip = jsonx.Sprintf("%s: none of its messages could be used (%s); skipped", name, bad[0])
			return c, nil
		}
		return c, []Warning{{SessionID: id, Message: jsonx.Sprintf("%s has no messages; it is an empty session", name)}}
	}
	ids := make([]string, len(msgs))
	for i := range msgs {
		_ = jsonx.ReadString(msgs[i].get("messageId"), &ids[i])
	}
	for i := range msgs {
		m := &msgs[i]
		if ids[i] == "" {
			warn("message %d has %s; skipped", i, lacking(msgs[i].get("messageId"), "messageId"))
			continue
		}
		structural := ""
		if m.structParent >= 0 {
			structural = ids[m.structParent]
		}
		parent := ""
		praw := m.get("parentMessageId")
		switch {
		case praw == nil && structural != "":
			parent = structural
		case praw == nil:
			warn("message %q has no parentMessageId; it becomes a root", ids[i])
		case bytes.Equal(praw, []byte("null")):
		default:
			if !jsonx.ReadString(praw, &parent) {
				warn("message %q has a parentMessageId that is not a string; it becomes a root", ids[i])
			}
			if parent == LibreRoot {
				parent = ""
			}
			if structural != "" && parent != structural {
				warn("message %q is nested under %q but its parentMessageId is %q; parentMessageId wins", ids[i], structural, parent)
			}
		}
		if by := m.get("isCreatedByUser"); string(by) != "true" && string(by) != "false" { // compared without a copy
			warn("message %q has no isCreatedByUser of true or false; it is read as the assistant's", ids[i])
		}
		if text, parts := m.get("text"), m.get("content"); len(text) > 0 && text[0] != '"' && string(text) != "null" && (len(parts) == 0 || parts[0] != '[') {
			warn("message %q has a text that is not a string; its text is read as empty", ids[i])
		}
		t := unixSeconds(m.get("createdAt"))
		if t > 0 && (c.Created == 0 || t < c.Created) {
			c.Created = t
		}
		rec := Record{ID: ids[i], ParentID: parent, Message: libreMessageJSON(m), Time: t, Source: m.source()}
		rec.noteTime("createdAt", m.get("createdAt"))
		c.Records = append(c.Records, rec)
	}
	if len(c.Records) == 0 {
		c.Skip = jsonx.Sprintf("%s has no usable messages; skipped", name)
	}
	if derived {
		renameDerived(&c, w.warns, "librechat-")
	}
	return c, w.warns
}

// libreTypeText and libreValue are the fields libreMessageJSON reads of a
// content part and of its text object.
var (
	libreTypeText = []string{"type", "text"}
	libreValue    = []string{"value"}
)

// libreMessageJSON returns {"role","content"}: role "user" for
// isCreatedByUser, else "assistant"; content the "text", or, when that is
// empty, the "content" parts (text parts whose text is {"value":…} become
// plain {"type":"text","text":…}; other parts are kept as they are).
func libreMessageJSON(m *libreMsg) jsonx.RawMessage {
	var byUser bool
	_ = jsonx.ReadBool(m.get("isCreatedByUser"), &byUser)
	role := "assistant"
	if byUser {
		role = "user"
	}
	b := []byte(`{"role":`)
	b = jsonx.AppendString(b, role)
	b = append(b, `,"content":`...)
	var text string
	_ = jsonx.ReadString(m.get("text"), &text)
	parts := m.get("content")
	if text != "" || len(parts) == 0 || parts[0] != '[' {
		b = jsonx.AppendString(b, text)
		return append(b, '}')
	}
	var items []jsonx.RawMessage
	if !jsonx.ReadRaws(parts, &items) {
		b = jsonx.AppendString(b, text)
		return append(b, '}')
	}
	b = append(b, '[')
	n := 0
	for _, it := range items {
		if len(it) == 0 || it[0] != '{' {
			continue
		}
		var typ string
		var text jsonx.RawMessage
		jsonx.ReadObject(it, libreTypeText, func(field int, v []byte) {
			if field == 0 {
				_ = jsonx.ReadString(v, &typ)
			} else {
				text = v
			}
		})
		if n > 0 {
			b = append(b, ',')
		}
		n++
		if typ == "text" && len(text) > 0 && text[0] == '{' {
			var value string
			jsonx.ReadObject(text, libreValue, func(_ int, v []byte) { _ = jsonx.ReadString(v, &value) })
			b = append(b, `{"type":"text","text":`...)
			b = jsonx.AppendString(b, value)
			b = append(b, '}')
			continue
		}
		b = append(b, it...)
	}
	return append(b, "]}"...)
}
