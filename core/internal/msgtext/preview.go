package msgtext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/search"
)

// PreviewLength is the length of a node preview, in characters (runes).
const PreviewLength = 80

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
