package core

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/search"
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
		return text // string content or text parts, no tool calls: the scanner, not encoding/json
	}
	return decodedMessageText(raw)
}

// decodedMessageText is MessageText through the decoder, for every shape
// of message (plainMessageText reads the common ones in one pass).
func decodedMessageText(raw RawMessage) string {
	var head messageHead
	if err := jsonx.Unmarshal(raw, &head); err != nil {
		return ""
	}
	var pieces []string
	pieces = appendContentText(pieces, head.Content, 0)
	if len(head.ToolCalls) > 0 && head.ToolCalls[0] == '[' {
		var calls []toolCall
		if jsonx.Unmarshal(head.ToolCalls, &calls) == nil {
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
		if jsonx.Unmarshal(content, &s) == nil && s != "" {
			pieces = append(pieces, s)
		}
	case '[':
		var parts []RawMessage
		if jsonx.Unmarshal(content, &parts) != nil {
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
			if jsonx.Unmarshal(raw, &p) != nil {
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
			case p.Type != "" && p.Name != "": // a call that names its tool: Codex's function_call, custom_tool_call
				pieces = append(pieces, "["+strings.ReplaceAll(p.Type, "_", " ")+": "+p.Name+"]")
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

// previewText returns the node's preview, computing and caching it on
// first use: its text as plain text (PlainText of at most plainPrefix
// bytes of it) folded to PreviewLength characters, or for a message
// without text what it is (describeEmpty; described says so).
func (n *Node) previewText() string {
	if !n.hasPrev {
		text := nodeText(n)
		if len(text) > plainPrefix {
			cut := plainPrefix
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			text = text[:cut]
		}
		n.preview = Preview(PlainText(text), PreviewLength)
		if n.preview == "" {
			n.preview = describeEmpty(n)
			n.described = n.preview != ""
		}
		n.hasPrev = true
	}
	return n.preview
}

// Preview returns text with runs of white space collapsed to one space, cut
// to at most max characters (runes, not counting a closing "…"). The cut
// falls between whole characters: never inside a combining sequence, a
// variation sequence or a ZWJ emoji sequence.
func Preview(text string, max int) string {
	if p, ok := asciiPreview(text, max); ok {
		return p
	}
	return runePreview(text, max)
}

// runePreview is Preview, rune by rune.
func runePreview(text string, max int) string {
	var b strings.Builder
	b.Grow(min(len(text), 4*max+8))
	count := 0
	space := false
	prev := rune(0)
	for i, r := range text {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		extends := search.IsExtender(r) || prev == '\u200d'
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

// asciiPreview is Preview for the common case it can decide from bytes
// alone: the text up to the cut is ASCII without control characters,
// leading white space or white space other than single spaces (nothing to
// collapse), and the byte after the cut, if any, is ASCII too. ok is false
// when Preview must walk the text rune by rune.
func asciiPreview(text string, max int) (string, bool) {
	k := 0
	for ; k < len(text) && k < max; k++ {
		c := text[k]
		if c < 0x20 || c >= 0x7f {
			return "", false
		}
		if c != ' ' {
			continue
		}
		// A space must be single and inside the text.
		if k == 0 || k+1 == len(text) || text[k+1] <= ' ' || text[k+1] >= 0x7f {
			return "", false
		}
		if k+1 == max { // a space kept last brings the character after it (see runePreview)
			k += 2
			break
		}
	}
	if k == len(text) {
		return strings.Clone(text), true
	}
	rest := k
	for rest < len(text) && isASCIISpace(text[rest]) {
		rest++
	}
	switch {
	case rest == len(text):
		return strings.Clone(text[:k]), true // only white space follows
	case text[rest] < utf8.RuneSelf:
		return text[:k] + "…", true // more text follows
	}
	return "", false // a character that may extend the last one, or Unicode white space
}

// isASCIISpace reports whether c is ASCII white space as unicode.IsSpace
// sees it.
func isASCIISpace(c byte) bool {
	return c == ' ' || (c >= '\t' && c <= '\r')
}
