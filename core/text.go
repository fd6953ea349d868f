package core

import (
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/entries"
	"github.com/sessiontree/sessiontree/core/internal/msgtext"
)

// NodeText returns the readable text of a node: its message text or its
// summary, or the text of its entry (see entries.Text).
func NodeText(n *Node) string {
	if n.Kind == KindSummary {
		return n.Summary
	}
	if n.Entry != nil {
		return entries.Text(n.Kind, n.Entry)
	}
	if n.Message != nil {
		return MessageText(n.Message)
	}
	return ""
}

// PreviewLength is the length of a node preview, in characters (runes).
const PreviewLength = msgtext.PreviewLength

// PreviewText returns the node's preview, computing and caching it on
// first use: its text as plain text (PlainText of at most msgtext.PlainPrefix
// bytes of it) folded to PreviewLength characters, or for a message
// without text what it is (msgtext.DescribeEmpty; described says so).
func (n *Node) PreviewText() string {
	if !n.HasPreview {
		text := NodeText(n)
		if len(text) > msgtext.PlainPrefix {
			cut := msgtext.PlainPrefix
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			text = text[:cut]
		}
		n.preview = Preview(PlainText(text), PreviewLength)
		if n.preview == "" && n.Kind == KindMessage {
			n.preview = msgtext.DescribeEmpty(n.Message, n.Source)
			n.Described = n.preview != ""
		}
		n.HasPreview = true
	}
	return n.preview
}

// MessageText returns the readable text of a raw chat message: string
// content, the text of text parts, the name and arguments of tool calls.
// Parts without text (images, audio) give a bracketed placeholder such as
// "[image]". Pieces are joined by newlines. Malformed input gives "".
// (msgtext.MessageText.)
func MessageText(raw RawMessage) string { return msgtext.MessageText(raw) }

// Preview returns text with runs of white space collapsed to one space, cut
// to at most max characters (runes, not counting a closing "…"). The cut
// falls between whole characters: never inside a combining sequence, a
// variation sequence or a ZWJ emoji sequence. (msgtext.Preview.)
func Preview(text string, max int) string { return msgtext.Preview(text, max) }

// PlainText returns Markdown text as the plain text a one-line preview
// shows (msgtext.PlainText: markers, fences, emphasis and link syntax
// taken out, white space left for Preview to fold). Never fails.
func PlainText(text string) string { return msgtext.PlainText(text) }
