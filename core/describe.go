package core

import (
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// chatgptSourceHead is the part of a ChatGPT mapping entry (a node's
// Source) that says what a message without text is.
type chatgptSourceHead struct {
	Message *struct {
		Author *struct {
			Name *string `json:"name"`
		} `json:"author"`
		Recipient string `json:"recipient"`
		Metadata  *struct {
			Hidden bool `json:"is_visually_hidden_from_conversation"`
		} `json:"metadata"`
	} `json:"message"`
}

// describeEmpty returns what a message node without text is, for its
// preview: "system (hidden by ChatGPT)" (or any role) for a message ChatGPT
// hid from the conversation, "called search" for an assistant turn
// addressed to a tool (ChatGPT's recipient; "web…" and "browser" are
// search), "called NAME" for tool calls, "tool result: NAME" for a tool's
// answer, "ROLE (empty)" otherwise. "" for nodes that are not messages.
func describeEmpty(n *Node) string {
	if n.Kind != KindMessage || n.Message == nil {
		return ""
	}
	var head struct {
		Role      string             `json:"role"`
		Name      string             `json:"name"`
		ToolCalls []jsonx.RawMessage `json:"tool_calls"`
	}
	_ = jsonx.Unmarshal(n.Message, &head)
	role := head.Role
	var src chatgptSourceHead
	if len(n.Source) > 0 && n.Source[0] == '{' {
		_ = jsonx.Unmarshal(n.Source, &src)
	}
	m := src.Message
	name := head.Name
	if name == "" && m != nil && m.Author != nil && m.Author.Name != nil {
		name = *m.Author.Name
	}
	switch {
	case m != nil && m.Metadata != nil && m.Metadata.Hidden:
		return role + " (hidden by ChatGPT)"
	case role == "tool" || role == "toolResult" || role == "function":
		if name == "" {
			return "tool result"
		}
		return "tool result: " + toolName(name, "web")
	case m != nil && m.Recipient != "" && m.Recipient != "all":
		return "called " + toolName(m.Recipient, "search")
	case len(head.ToolCalls) > 0:
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
