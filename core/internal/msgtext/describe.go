package msgtext

import (
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// chatgptSourceHead is the part of a ChatGPT mapping entry (a node's
// Source) that says what a message without text is: message.author.name,
// message.recipient and message.metadata.is_visually_hidden_from_conversation.
type chatgptSourceHead struct {
	name      *string // the message's author's name
	recipient string
	hidden    bool
}

// The fields chatgptSourceHead reads, level by level.
var (
	sourceMessageField = []string{"message"}
	sourceHeadFields   = []string{"author", "recipient", "metadata"}
	authorNameField    = []string{"name"}
	hiddenField        = []string{"is_visually_hidden_from_conversation"}
)

// read reads what fits of the mapping entry src (a field of another type
// is left out; null clears what it stands for).
func (h *chatgptSourceHead) read(src []byte) {
	jsonx.ReadObject(src, sourceMessageField, func(_ int, v []byte) {
		if jsonx.IsNull(v) {
			*h = chatgptSourceHead{}
			return
		}
		jsonx.ReadObject(v, sourceHeadFields, func(field int, v []byte) {
			switch field {
			case 0:
				if jsonx.IsNull(v) {
					h.name = nil
				}
				jsonx.ReadObject(v, authorNameField, func(_ int, v []byte) { _ = jsonx.ReadStringPtr(v, &h.name) })
			case 1:
				_ = jsonx.ReadString(v, &h.recipient)
			case 2:
				if jsonx.IsNull(v) {
					h.hidden = false
				}
				jsonx.ReadObject(v, hiddenField, func(_ int, v []byte) { _ = jsonx.ReadBool(v, &h.hidden) })
			}
		})
	})
}

// messageHeadFields are the fields DescribeEmpty reads of a message.
var messageHeadFields = []string{"role", "name", "tool_calls"}

// DescribeEmpty returns what a chat message without text is, for its
// preview, from the message and, when the import kept it, the record it
// came from (source; ChatGPT's mapping entry, nil for none): "system
// (hidden by ChatGPT)" (or any role) for a message ChatGPT hid from the
// conversation, "called search" for an assistant turn addressed to a tool
// (ChatGPT's recipient; "web…" and "browser" are search), "called NAME"
// for tool calls, "tool result: NAME" for a tool's answer, "ROLE (empty)"
// otherwise. "" for a nil message.
func DescribeEmpty(message, source []byte) string {
	if message == nil {
		return ""
	}
	var role, name string
	var toolCalls []jsonx.RawMessage
	jsonx.ReadObject(message, messageHeadFields, func(field int, v []byte) {
		switch field {
		case 0:
			_ = jsonx.ReadString(v, &role)
		case 1:
			_ = jsonx.ReadString(v, &name)
		case 2:
			_ = jsonx.ReadRaws(v, &toolCalls)
		}
	})
	var m chatgptSourceHead
	if len(source) > 0 && source[0] == '{' {
		m.read(source)
	}
	if name == "" && m.name != nil {
		name = *m.name
	}
	switch {
	case m.hidden:
		return role + " (hidden by ChatGPT)"
	case role == "tool" || role == "toolResult" || role == "function":
		if name == "" {
			return "tool result"
		}
		return "tool result: " + toolName(name, "web")
	case m.recipient != "" && m.recipient != "all":
		return "called " + toolName(m.recipient, "search")
	case len(toolCalls) > 0:
		return "called a tool"
	}
	return role + " (empty)"
}

// toolName names a ChatGPT tool as a reader knows it: its web tools
// ("web", "web.run", "web.search", "browser") as web (the caller's word:
// "search" for a call, "web" for a result), the rest as they are.
func toolName(name, web string) string {
	if name == "browser" || name == "web" || strings.HasPrefix(name, "web.") {
		return web
	}
	return name
}
