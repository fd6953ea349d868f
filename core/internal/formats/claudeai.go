package formats

import (
	"bytes"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Claude.ai data exports (Settings → Privacy → Export data, a ZIP whose
// conversations.json this reads): an array of conversations
//
//	{"uuid","name","summary"?,"created_at","updated_at","account"?,"current_leaf_message_uuid"?,"chat_messages":[message…]}
//
// where a message is {"uuid","sender":"human"|"assistant","text",
// "content":[{"type":"text"|"thinking"|"tool_use"|"tool_result",…}],
// "created_at","index"?,"parent_message_uuid"?,"attachments":[{"file_name",
// "file_type","file_size","extracted_content"}],"files":[{"file_name"}]}.
// Where messages name their parent (parent_message_uuid; the all-zero
// uuid is the root) the tree keeps edits and retries as branches, and the
// cursor is current_leaf_message_uuid (else the newest leaf); without
// parent links the messages are one chain in their order. A single
// conversation object (one conversation downloaded by a browser tool), and
// an object {"account", "conversations":[…]}, are read the same way. Field names as in the exports and the public tools
// that read them (see core/testdata/imports/PROVENANCE.md).

// claudeAIRoot is the parent_message_uuid of a conversation's first message.
const claudeAIRoot = "00000000-0000-4000-8000-000000000000"

// detectClaudeAI reports whether the first record is a Claude.ai
// conversation (it has a chat_messages array), or the data an object whose
// "conversations" array starts with one (the export wrapped with its
// account).
func detectClaudeAI(sn *Sniff) bool {
	if sn.Shape == 'l' {
		return false
	}
	if raw, ok := sn.Keys["chat_messages"]; ok {
		return len(raw) > 0 && raw[0] == '['
	}
	first := claudeAIFirst(sn.Keys["conversations"])
	raw, ok := first["chat_messages"]
	return sn.Shape == '{' && ok && len(raw) > 0 && raw[0] == '['
}

// claudeAIFirst returns the fields of the first element of the array raw
// (nil when it is not an array of objects).
func claudeAIFirst(raw jsonx.RawMessage) map[string]jsonx.RawMessage {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	arr := &ArrayReader{Scanner: jsonx.Scanner{Data: raw}}
	if arr.Start() != nil {
		return nil
	}
	first, _, err := arr.Next()
	if err != nil {
		return nil
	}
	f, _ := RawFields(first)
	return f
}

// convertClaudeAIWhole converts a top-level object: one conversation, or
// {"conversations":[…]} (each converted by convertClaudeAI).
func convertClaudeAIWhole(model *Model, top jsonx.RawMessage) ([]Conversation, []Warning, error) {
	f, err := RawFields(top)
	if err != nil {
		return nil, nil, err
	}
	if _, one := f["chat_messages"]; one {
		c, warns := convertClaudeAI(model, top, 0)
		return []Conversation{c}, warns, nil
	}
	var convs []Conversation
	var warns []Warning
	sc := jsonx.Scanner{Data: f["conversations"]}
	_ = sc.Elements(func(k int, raw []byte, spaced bool) error {
		if spaced {
			raw = jsonx.CompactBytes(raw)
		}
		c, w := convertClaudeAI(model, raw, k)
		convs, warns = append(convs, c), append(warns, w...)
		return nil
	})
	return convs, warns, nil
}

// claudeAIConv is what convertClaudeAI reads of a conversation.
type claudeAIConv struct {
	UUID, Name           string
	CreatedAt, UpdatedAt jsonx.RawMessage
	CurrentLeaf          string
	Messages             []jsonx.RawMessage
}

// claudeAIConvFields are the keys of claudeAIConv's fields, in order.
var claudeAIConvFields = []string{"uuid", "name", "created_at", "updated_at", "current_leaf_message_uuid", "chat_messages"}

// read reads the conversation object raw and reports whether every field
// it reads has the right type (the conversation is skipped otherwise).
func (c *claudeAIConv) read(raw []byte) bool {
	ok := true
	ok = jsonx.ReadObject(raw, claudeAIConvFields, func(field int, v []byte) {
		switch field {
		case 0:
			ok = jsonx.ReadString(v, &c.UUID) && ok
		case 1:
			ok = jsonx.ReadString(v, &c.Name) && ok
		case 2:
			c.CreatedAt = v
		case 3:
			c.UpdatedAt = v
		case 4:
			ok = jsonx.ReadString(v, &c.CurrentLeaf) && ok
		case 5:
			ok = jsonx.ReadRaws(v, &c.Messages) && ok
		}
	}) && ok
	return ok
}

type claudeAIMessage struct {
	UUID        string
	Sender      string
	Text        *string
	Content     []jsonx.RawMessage
	CreatedAt   jsonx.RawMessage
	Parent      *string
	Attachments []claudeAIAttachment
	bad         string // the key of the first field read could not take ("" when read reported true)
	// attachmentsLeftOut says the attachments are not an array of objects
	// as Claude.ai writes them: they are left out, the message kept.
	attachmentsLeftOut bool
}

// claudeAIAttachment is what claudeAIMessageJSON reads of an attachment.
type claudeAIAttachment struct {
	FileName         string
	ExtractedContent *string
}

// claudeAIMessageFields are the keys of claudeAIMessage's fields, in
// order; claudeAIAttachmentFields claudeAIAttachment's.
var (
	claudeAIMessageFields    = []string{"uuid", "sender", "text", "content", "created_at", "parent_message_uuid", "attachments"}
	claudeAIAttachmentFields = []string{"file_name", "extracted_content"}
)

// read reads the message object raw and reports whether every field it
// reads has the right type (the message is skipped otherwise); attachments
// of another shape are left out instead (attachmentsLeftOut).
func (m *claudeAIMessage) read(raw []byte) bool {
	ok := true
	ok = jsonx.ReadObject(raw, claudeAIMessageFields, func(field int, v []byte) {
		good := true
		switch field {
		case 0:
			good = jsonx.ReadString(v, &m.UUID)
		case 1:
			good = jsonx.ReadString(v, &m.Sender)
		case 2:
			good = jsonx.ReadStringPtr(v, &m.Text)
		case 3:
			good = jsonx.ReadRaws(v, &m.Content)
		case 4:
			m.CreatedAt = v
		case 5:
			good = jsonx.ReadStringPtr(v, &m.Parent)
		case 6:
			if !jsonx.ReadList(v, &m.Attachments, readClaudeAIAttachment) {
				m.Attachments, m.attachmentsLeftOut = nil, true
			}
		}
		if !good && m.bad == "" {
			m.bad = claudeAIMessageFields[field]
		}
		ok = good && ok
	}) && ok
	return ok
}

// readClaudeAIAttachment reads an attachment el into a.
func readClaudeAIAttachment(el []byte, a *claudeAIAttachment) bool {
	ok := true
	ok = jsonx.ReadObject(el, claudeAIAttachmentFields, func(field int, v []byte) {
		if field == 0 {
			ok = jsonx.ReadString(v, &a.FileName) && ok
		} else {
			ok = jsonx.ReadStringPtr(v, &a.ExtractedContent) && ok
		}
	}) && ok
	return ok
}

// convertClaudeAI converts conversation k of a Claude.ai export.
func convertClaudeAI(model *Model, raw jsonx.RawMessage, k int) (Conversation, []Warning) {
	var c Conversation
	var conv claudeAIConv
	if len(raw) == 0 || raw[0] != '{' || !conv.read(raw) {
		c.Skip = jsonx.Sprintf("conversation %d could not be read; skipped", k+1)
		return c, nil
	}
	c.ID, c.Title, c.Current = conv.UUID, conv.Name, conv.CurrentLeaf
	c.Created, c.Updated = unixSeconds(conv.CreatedAt), unixSeconds(conv.UpdatedAt)
	derived := c.ID == ""
	if derived {
		c.ID = hashID("claudeai-", raw) // a placeholder until renameDerived
	}
	if !model.SessionID(c.ID) {
		c.Skip = jsonx.Sprintf("conversation %d has an unusable id %q; skipped", k+1, c.ID)
		c.ID = ""
		return c, nil
	}
	name := ConversationName("conversation", c.Title, c.ID)
	w := warnings{session: c.ID, prefix: name + ": "}
	warn := w.warn
	linked := false
	for i, m := range conv.Messages {
		var msg claudeAIMessage
		if len(m) == 0 || m[0] != '{' || !msg.read(m) {
			switch msg.bad {
			case "":
				warn("message %d is not a JSON object; skipped", i)
			case "content":
				warn("message %d could not be read (its \"content\" must be an array); skipped", i)
			default:
				warn("message %d could not be read (its %q must be a string); skipped", i, msg.bad)
			}
			c.Unusable++
			continue
		}
		role := map[string]string{"human": "user", "assistant": "assistant", "user": "user", "system": "system"}[msg.Sender]
		if role == "" {
			warn("message %d (%q) has sender %q, which is neither human nor assistant; skipped", i, msg.UUID, msg.Sender)
			c.Unusable++
			continue
		}
		if msg.attachmentsLeftOut {
			warn("message %d (%q): its \"attachments\" are not an array of objects with a string file_name and extracted_content; they are left out (the node's source keeps them)", i, msg.UUID)
		}
		rec := Record{ID: msg.UUID, Message: claudeAIMessageJSON(role, &msg), Time: unixSeconds(msg.CreatedAt), Stamp: isoStamp(msg.CreatedAt), Source: compactSource(m)}
		rec.noteTime("created_at", msg.CreatedAt)
		if msg.Parent != nil {
			linked = true
			if *msg.Parent != claudeAIRoot {
				rec.ParentID = *msg.Parent
			}
		}
		c.Records = append(c.Records, rec)
	}
	if !linked {
		// No parent links: one chain in the export's order; messages
		// without a uuid get ids derived from their place.
		c.Linear = true
	}
	if len(c.Records) == 0 && c.Unusable == 0 {
		w.warns = append(w.warns, Warning{SessionID: c.ID, Message: name + " has no messages; it is an empty session"})
	}
	if derived {
		renameDerived(&c, w.warns, "claudeai-")
	}
	return c, w.warns
}

// claudeAIMessageJSON returns {"role","content"}: the content parts as the
// export gives them (text, thinking, tool_use, tool_result; a part
// without text that is not one of those is kept as it is), else the text
// as a string; an attachment whose text the export holds
// (extracted_content, which Claude.ai gave the model with the message)
// comes first as a text part naming the file.
func claudeAIMessageJSON(role string, m *claudeAIMessage) jsonx.RawMessage {
	b := jsonx.AppendString([]byte(`{"role":`), role)
	b = append(b, `,"content":`...)
	var parts [][]byte
	for _, a := range m.Attachments {
		if a.ExtractedContent != nil && *a.ExtractedContent != "" {
			p := jsonx.AppendString([]byte(`{"type":"text","text":`), "Attachment "+a.FileName+":\n\n"+*a.ExtractedContent)
			parts = append(parts, append(p, '}'))
		}
	}
	for _, p := range m.Content {
		p = bytes.TrimSpace(p)
		if len(p) == 0 || p[0] != '{' {
			continue
		}
		f, err := RawFields(p)
		if err != nil {
			continue
		}
		if typ, _ := jsonx.ParseString(f["type"]); typ == "text" {
			if text, _ := jsonx.ParseString(f["text"]); strings.TrimSpace(text) == "" {
				continue // an empty text block
			}
		}
		parts = append(parts, jsonx.CompactBytes(p))
	}
	switch {
	case len(parts) > 0:
		b = append(b, '[')
		b = append(b, bytes.Join(parts, []byte{','})...)
		b = append(b, ']')
	case m.Text != nil:
		b = jsonx.AppendString(b, *m.Text)
	default:
		b = append(b, `""`...)
	}
	return append(b, '}')
}
