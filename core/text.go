package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// contentPart is the part of a content part sessiontree reads text from.
type contentPart struct {
	Type     string     `json:"type"`
	Text     RawMessage `json:"text"`
	Thinking string     `json:"thinking"`
	Name     string     `json:"name"`
	Input    RawMessage `json:"input"`
	Content  RawMessage `json:"content"`
}

type toolCall struct {
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// MessageText returns the readable text of a raw chat message: string
// content, the text of text parts, the name and arguments of tool calls.
// Parts without text (images, audio) give a bracketed placeholder such as
// "[image]". Pieces are joined by newlines. Malformed input gives "".
func MessageText(raw RawMessage) string {
	if text, ok := plainMessageText(raw); ok {
		return text // string content, no tool calls: the scanner, not encoding/json
	}
	var head messageHead
	if err := unmarshal(raw, &head); err != nil {
		return ""
	}
	var pieces []string
	pieces = appendContentText(pieces, head.Content, 0)
	if len(head.ToolCalls) > 0 && head.ToolCalls[0] == '[' {
		var calls []toolCall
		if unmarshal(head.ToolCalls, &calls) == nil {
			for _, c := range calls {
				if c.Function.Name != "" || c.Function.Arguments != "" {
					pieces = append(pieces, "[tool call: "+c.Function.Name+"] "+c.Function.Arguments)
				}
			}
		}
	}
	return strings.Join(pieces, "\n")
}

// appendContentText adds the text of a content value (string, array of
// parts, or null). depth bounds nesting of tool results holding parts.
func appendContentText(pieces []string, content RawMessage, depth int) []string {
	if len(content) == 0 || depth > 4 {
		return pieces
	}
	switch content[0] {
	case '"':
		var s string
		if unmarshal(content, &s) == nil && s != "" {
			pieces = append(pieces, s)
		}
	case '[':
		var parts []RawMessage
		if unmarshal(content, &parts) != nil {
			return pieces
		}
		for _, raw := range parts {
			if len(raw) == 0 {
				continue
			}
			if raw[0] == '"' {
				pieces = appendContentText(pieces, raw, depth+1)
				continue
			}
			var p contentPart
			if unmarshal(raw, &p) != nil {
				continue
			}
			switch {
			case len(p.Text) > 0 && p.Text[0] == '"':
				pieces = appendContentText(pieces, p.Text, depth+1)
			case p.Thinking != "":
				pieces = append(pieces, p.Thinking)
			case p.Type == "tool_use":
				pieces = append(pieces, "[tool use: "+p.Name+"] "+string(p.Input))
			case p.Type == "tool_result":
				pieces = appendContentText(pieces, p.Content, depth+1)
			case p.Type != "":
				pieces = append(pieces, "["+strings.ReplaceAll(p.Type, "_", " ")+"]")
			}
		}
	}
	return pieces
}

// nodeText returns the readable text of a node: its message text or its
// summary, or the text of its entry (see entryText).
func nodeText(n *Node) string {
	if n.Kind == KindSummary {
		return n.Summary
	}
	if n.Entry != nil {
		return entryText(n.Kind, n.Entry)
	}
	if n.Message != nil {
		return MessageText(n.Message)
	}
	return ""
}

// PreviewLength is the length of a node preview, in characters (runes).
const PreviewLength = 80

// preview returns the node's preview, computing and caching it on first use.
func (n *Node) previewText() string {
	if !n.hasPrev {
		n.preview = Preview(nodeText(n), PreviewLength)
		n.hasPrev = true
	}
	return n.preview
}

// Preview returns text with runs of white space collapsed to one space, cut
// to at most max characters (runes, not counting a closing "…"). The cut
// falls between whole characters: never inside a combining sequence, a
// variation sequence or a ZWJ emoji sequence.
func Preview(text string, max int) string {
	var b strings.Builder
	count := 0
	space := false
	prev := rune(0)
	for i, r := range text {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		extends := isExtender(r) || prev == '\u200d'
		if count >= max && !extends {
			if i < len(text) {
				b.WriteString("…")
			}
			return b.String()
		}
		if space {
			if count >= max {
				b.WriteString("…")
				return b.String()
			}
			b.WriteByte(' ')
			count++
			space = false
		}
		if r == utf8.RuneError {
			r = '\uFFFD'
		}
		b.WriteRune(r)
		if !extends {
			count++
		}
		prev = r
	}
	return b.String()
}

// isExtender reports whether r joins the character before it: combining
// marks, variation selectors, the zero-width joiner, emoji modifiers and
// tag characters.
func isExtender(r rune) bool {
	switch {
	case unicode.Is(unicode.Mn, r), unicode.Is(unicode.Me, r), unicode.Is(unicode.Mc, r):
		return true
	case r == '\u200d', r >= '\ufe00' && r <= '\ufe0f':
		return true
	case r >= 0x1f3fb && r <= 0x1f3ff: // emoji skin-tone modifiers
		return true
	case r >= 0xe0020 && r <= 0xe007f: // tag characters
		return true
	case r >= 0xe0100 && r <= 0xe01ef:
		return true
	}
	return false
}
