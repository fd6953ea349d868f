package core

import "github.com/sessiontree/sessiontree/core/internal/msgtext"

// PreviewLength is the length of a node preview, in characters (runes).
const PreviewLength = msgtext.PreviewLength

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
