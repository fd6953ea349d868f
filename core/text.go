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
	Type, Thinking, Name string
	Text, Input, Content RawMessage
}

// The fields MessageText reads: of a content part, in the order of
// readContentPart's switch; of a message; of a tool call and its function.
var (
	contentPartFields = []string{"type", "text", "thinking", "name", "input", "content"}
	messageTextFields = []string{"content", "tool_calls"}
	functionField     = []string{"function"}
	functionFields    = []string{"name", "arguments"}
)

// read reads the part raw and reports whether it is an object whose
// fields fit.
func (p *contentPart) read(raw []byte) bool {
	ok := true
	ok = jsonx.ReadObject(raw, contentPartFields, func(field int, v []byte) {
		switch field {
		case 0:
			ok = jsonx.ReadString(v, &p.Type) && ok
		case 1:
			p.Text = v
		case 2:
			ok = jsonx.ReadString(v, &p.Thinking) && ok
		case 3:
			ok = jsonx.ReadString(v, &p.Name) && ok
		case 4:
			p.Input = v
		case 5:
			p.Content = v
		}
	}) && ok
	return ok
}

// toolCall is what MessageText reads of a tool call.
type toolCall struct {
	Name, Arguments string // of its function
}

// readToolCall reads the tool call el into c and reports whether it fits.
func readToolCall(el []byte, c *toolCall) bool {
	ok := true
	ok = jsonx.ReadObject(el, functionField, func(_ int, v []byte) {
		if jsonx.IsNull(v) {
			return
		}
		ok = jsonx.ReadObject(v, functionFields, func(field int, v []byte) {
			if field == 0 {
				ok = jsonx.ReadString(v, &c.Name) && ok
			} else {
				ok = jsonx.ReadString(v, &c.Arguments) && ok
			}
		}) && ok
	}) && ok
	return ok
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
	var content, toolCalls RawMessage
	if !jsonx.ReadObject(raw, messageTextFields, func(field int, v []byte) {
		if field == 0 {
			content = v
		} else {
			toolCalls = v
		}
	}) {
		return ""
	}
	var pieces []string
	pieces = appendContentText(pieces, content, 0)
	if len(toolCalls) > 0 && toolCalls[0] == '[' {
		var calls []toolCall
		if jsonx.ReadList(toolCalls, &calls, readToolCall) {
			for _, c := range calls {
				if c.Name != "" || c.Arguments != "" {
					pieces = append(pieces, "[tool call: "+c.Name+"] "+c.Arguments)
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
		if jsonx.ReadString(content, &s) && s != "" {
			pieces = append(pieces, s)
		}
	case '[':
		var parts []RawMessage
		if !jsonx.ReadRaws(content, &parts) {
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
			if !p.read(raw) {
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
