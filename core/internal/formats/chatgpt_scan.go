package formats

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// The ChatGPT importer's reader of a conversation where it stands in the
// export: the array reader's scanner is handed over at an element that
// nobody has checked yet, and the reader checks its syntax while it reads
// it (Scanner.Valid false), so each byte of a conversation is scanned
// once. Before, the array reader checked and compacted each element first
// and the reader walked it again: the check was a tenth of a 20 MB import
// in the browser (issue 15).

// scanChatGPTConversation is Importer.Scan for ChatGPT: the conversation
// k at sc, read in one pass, or ok false (the scanner anywhere) for an
// element that is not an object or has bad syntax, which the caller reads
// again as an element (Item says the one is not a conversation; the
// array reader reports the other).
func scanChatGPTConversation(model *Model, sc *jsonx.Scanner, k int) (c Conversation, warns []Warning, ok bool) {
	if sc.Valid || sc.Peek() != '{' {
		return c, nil, false
	}
	f := newChatGPTReader()
	defer f.release()
	if f.scan(sc) != nil {
		return c, nil, false
	}
	c, warns, c.Skip = chatgptConvert(model, f, k)
	return c, warns, true
}

// NextScanned reads the next element of the array with scan, in place:
// scan gets the scanner at the element's first byte (unchecked) and
// reports whether it read the element, leaving the scanner after it. It
// returns false, with the reader back where it was, when scan did not, or
// when there is no next element or its syntax is wrong before it: the
// caller then reads it with Next, which says which.
func (a *ArrayReader) NextScanned(scan func(sc *jsonx.Scanner) bool) bool {
	s := &a.Scanner
	pos, begun := s.Pos, a.begun
	s.SkipSpace()
	switch c := s.Peek(); {
	case c == ']':
		return false
	case a.begun && c == ',':
		s.Pos++
	case a.begun:
		return false
	}
	a.begun = true
	s.SkipSpace()
	if scan(s) {
		return true
	}
	s.Pos, a.begun = pos, begun
	return false
}
