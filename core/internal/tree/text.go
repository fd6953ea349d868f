package tree

import (
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/entries"
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/msgtext"
)

// NodeText returns the readable text of a node: its message text or its
// summary, or the text of its entry (see entries.Text).
func NodeText(n *Node) string {
	if n.Kind == formats.KindSummary {
		return n.Summary
	}
	if n.Entry != nil {
		return entries.Text(n.Kind, n.Entry)
	}
	if n.Message != nil {
		return msgtext.MessageText(n.Message)
	}
	return ""
}

// PreviewText returns the node's preview, computing and caching it on
// first use: its text as plain text (PlainText of at most msgtext.PlainPrefix
// bytes of it) folded to msgtext.PreviewLength characters, or for a message
// without text what it is (msgtext.DescribeEmpty; Described says so).
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
		n.preview = msgtext.Preview(msgtext.PlainText(text), msgtext.PreviewLength)
		if n.preview == "" && n.Kind == formats.KindMessage {
			n.preview = msgtext.DescribeEmpty(n.Message, n.Source)
			n.Described = n.preview != ""
		}
		n.HasPreview = true
	}
	return n.preview
}
