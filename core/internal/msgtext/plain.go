package msgtext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/cite"
)

// PlainPrefix is how much of a text PlainText reads for a preview, in
// bytes: Markdown syntax only takes characters out, so a preview of
// PreviewLength characters is made from far less than this.
const PlainPrefix = 4096

// PlainText returns Markdown text as the plain text a one-line preview
// shows: citation and other private-use markers taken out (cite.Strip);
// code fence lines dropped (their code kept), and a fence opened after
// text on a line loses its info string; heading, quote and list
// markers at the start of a line dropped; table pipes and rule lines
// dropped; inline code backticks, emphasis and strikethrough runs ("*",
// "_", "~~") dropped where they delimit (a "*" between spaces or a "_"
// inside a word stays); links and images keep their text ("[text](url)" →
// "text"). White space is left for Preview to fold. Never fails; text with
// none of these comes back unchanged.
func PlainText(text string) string {
	text = cite.Strip(text)
	if !strings.ContainsAny(text, "`*_~#>|[\\") && !hasLineMarker(text) {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		trimmed := strings.TrimLeft(line, " \t")
		if isFenceLine(trimmed) || isRuleLine(trimmed) || isTableRule(trimmed) {
			b.WriteByte('\n')
			continue
		}
		trimmed = blockMarkers(trimmed)
		inlinePlain(&b, trimmed)
		b.WriteByte('\n')
	}
	return b.String()
}

// hasLineMarker reports whether some line starts (after spaces and tabs)
// with "-", "+" or "=" (a list item, a rule, a setext underline) or like
// "1. " or "2) ".
func hasLineMarker(text string) bool {
	start := true // at a line's start, after its spaces and tabs
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n':
			start = true
		case !start || c == ' ' || c == '\t':
		case c == '-' || c == '+' || c == '=' || (c >= '0' && c <= '9' && orderedMarkerLen(text[i:]) > 0):
			return true
		default:
			start = false
		}
	}
	return false
}

// isFenceLine reports whether a line (white space trimmed) opens or closes
// a code fence: three or more "`" or "~", then an info string.
func isFenceLine(t string) bool {
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// isRuleLine reports whether a line is a thematic break or a setext
// underline: only "-", "*", "_" or "=" (three or more) and spaces.
func isRuleLine(t string) bool {
	t = strings.TrimRight(t, " \t")
	if len(t) < 3 {
		return false
	}
	c := t[0]
	if c != '-' && c != '*' && c != '_' && c != '=' {
		return false
	}
	return strings.Trim(t, string(c)+" \t") == ""
}

// isTableRule reports whether a line is a table's delimiter row ("|---|:-:|").
func isTableRule(t string) bool {
	return strings.HasPrefix(t, "|") && strings.Trim(t, "|-: \t") == "" && strings.Contains(t, "-")
}

// blockMarkers drops the heading, quote and list markers a line starts with.
func blockMarkers(t string) string {
	for {
		switch {
		case strings.HasPrefix(t, ">"):
			t = strings.TrimLeft(t[1:], " \t")
		case strings.HasPrefix(t, "#"):
			n := len(t) - len(strings.TrimLeft(t, "#"))
			if n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
				return t
			}
			return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[n:]), "#"))
		case len(t) > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t'):
			t = strings.TrimLeft(t[2:], " \t")
			if strings.HasPrefix(t, "[ ] ") || strings.HasPrefix(t, "[x] ") || strings.HasPrefix(t, "[X] ") {
				t = t[4:]
			}
		case orderedMarkerLen(t) > 0:
			t = strings.TrimLeft(t[orderedMarkerLen(t):], " \t")
		default:
			return t
		}
	}
}

// orderedMarkerLen returns the length of an ordered list marker ("12. ",
// "3) ") at the start of t, without its space, or 0.
func orderedMarkerLen(t string) int {
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i+1 >= len(t) || (t[i] != '.' && t[i] != ')') || (t[i+1] != ' ' && t[i+1] != '\t') {
		return 0
	}
	return i + 1
}

// inlinePlain writes one line with its inline Markdown taken out. A run
// of "*", "_" or "~~" is taken out as emphasis only when it is matched in
// the line: an opener with a run of its character after it that can close
// (no space before it), a closer after such an opener; an unmatched one
// ("window.__debug", "2*3") is text, as a Markdown renderer shows it.
func inlinePlain(b *strings.Builder, t string) {
	closer := lastClosers(t)
	var open [len(emphasisChars)]int
	for i := 0; i < len(t); {
		c := t[i]
		switch c {
		case '`':
			n := runLen(t[i:], c)
			if rest := t[i+n:]; n >= 3 && !strings.ContainsAny(rest, " \t`") {
				return // a fence opened after text: its info string ("js") is no text
			}
			i += n // code spans keep their code
			continue
		case '!', '[':
			if n, text := linkAt(t[i:]); n > 0 {
				inlinePlain(b, text)
				i += n
				continue
			}
		case '*', '_', '~':
			n := runLen(t[i:], c)
			k := strings.IndexByte(emphasisChars, c)
			if (c != '~' || n >= 2) && delimits(t, i, i+n, c) {
				if open[k] > 0 && !spaceBefore(t, i) {
					open[k]--
					i += n
					continue
				}
				if closer[k] >= i+n && !spaceAfter(t, i+n) {
					open[k]++
					i += n
					continue
				}
			}
			b.WriteString(t[i : i+n])
			i += n
			continue
		case '|':
			b.WriteByte(' ')
			i++
			continue
		case '\\':
			if i+1 < len(t) && strings.IndexByte("\\`*_{}[]()#+-.!|~<>", t[i+1]) >= 0 {
				b.WriteByte(t[i+1])
				i += 2
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
}

// runLen returns how many c the text starts with.
func runLen(t string, c byte) int {
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	return n
}

// emphasisChars are the characters whose runs mark emphasis.
const emphasisChars = "*_~"

// lastClosers returns, for each of emphasisChars, where the last run of it
// in t that can close emphasis (a character other than a space before it)
// starts; -1 when none.
func lastClosers(t string) [len(emphasisChars)]int {
	last := [len(emphasisChars)]int{-1, -1, -1}
	for i := 0; i < len(t); {
		k := strings.IndexByte(emphasisChars, t[i])
		if k < 0 {
			i++
			continue
		}
		if !spaceBefore(t, i) {
			last[k] = i
		}
		i += runLen(t[i:], t[i])
	}
	return last
}

// spaceBefore reports whether t[:i] ends in a space or is empty.
func spaceBefore(t string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(t[:i])
	return r == utf8.RuneError || unicode.IsSpace(r)
}

// spaceAfter reports whether t[j:] starts with a space or is empty.
func spaceAfter(t string, j int) bool {
	r, _ := utf8.DecodeRuneInString(t[j:])
	return r == utf8.RuneError || unicode.IsSpace(r)
}

// delimits reports whether the run t[i:j] of c opens or closes emphasis:
// not between two spaces (or line ends), and for "_" not inside a word.
func delimits(t string, i, j int, c byte) bool {
	before, _ := utf8.DecodeLastRuneInString(t[:i])
	after, _ := utf8.DecodeRuneInString(t[j:])
	space := func(r rune) bool { return r == utf8.RuneError || unicode.IsSpace(r) }
	word := func(r rune) bool { return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) }
	if space(before) && space(after) {
		return false
	}
	if c == '_' && word(before) && word(after) {
		return false
	}
	return true
}

// linkAt reads a link or image at the start of t ("[text](dest)",
// "![alt](src)", "[text][ref]"), returning its length in bytes and its
// text; 0 when t does not start with one.
func linkAt(t string) (int, string) {
	start := 0
	if strings.HasPrefix(t, "![") {
		start = 1
	}
	if start >= len(t) || t[start] != '[' {
		return 0, ""
	}
	depth, end := 0, -1
	for k := start; k < len(t); k++ {
		if t[k] == '\\' {
			k++
			continue
		}
		if t[k] == '[' {
			depth++
		} else if t[k] == ']' {
			depth--
			if depth == 0 {
				end = k
				break
			}
		}
	}
	if end < 0 || end+1 >= len(t) {
		return 0, ""
	}
	text := t[start+1 : end]
	closer := map[byte]byte{'(': ')', '[': ']'}[t[end+1]]
	if closer == 0 {
		return 0, ""
	}
	k := strings.IndexByte(t[end+2:], closer)
	if k < 0 {
		return 0, ""
	}
	return end + 2 + k + 1, text
}
