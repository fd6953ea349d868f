package search

import (
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Text folding for search. Both the indexed text and the query go through
// foldRune, so matching is case- and diacritic-insensitive:
//
//   - NFKD (golang.org/x/text/unicode/norm) splits "é" into "e" + U+0301 and
//     compatibility forms into plain ones ("ﬁ" → "fi", "Ａ" → "A", "①" → "1");
//   - nonspacing marks (category Mn) are dropped, so "Lumière" folds to
//     "lumiere" and "İ" (I + U+0307) to "i";
//   - case is folded with the standard library's tables
//     (unicode.ToLower(unicode.ToUpper(r)), which also sends "ς" and "σ" to
//     one form), plus the two full case foldings NFKD leaves over: "ß" and
//     "ẞ" fold to "ss". Dotless "ı" folds to "i" as well.
//
// golang.org/x/text/cases would give Unicode full case folding directly but
// adds about 126 KB gzip to the wasm (its tables and the language package);
// after NFKD the only full foldings left are the two above, so the standard
// library's simple case tables do the rest.
//
// Joiners and modifiers that only shape how a character is drawn (ZWJ,
// ZWNJ, variation selectors, emoji skin-tone modifiers, tag characters,
// the soft hyphen) fold to nothing: "👍🏽" matches "👍".

// foldCache keeps the folded form of every non-ASCII rune seen so far.
// foldRune is called for every character indexed, and NFKD through
// x/text costs an allocation per call.
var foldCache = struct {
	sync.Mutex
	m map[rune]string
}{m: make(map[rune]string)}

// foldRune returns the folded form of r: zero, one or more runes as a
// string ("" for ignorable runes and lone marks).
func foldRune(r rune) string {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return asciiStrings[r]
	}
	foldCache.Lock()
	f, ok := foldCache.m[r]
	foldCache.Unlock()
	if ok {
		return f
	}
	f = foldSlow(r)
	foldCache.Lock()
	if len(foldCache.m) < 1<<16 {
		foldCache.m[r] = f
	}
	foldCache.Unlock()
	return f
}

// asciiStrings[c] is the one-byte string c, so folding ASCII allocates
// nothing.
var asciiStrings = func() (t [utf8.RuneSelf]string) {
	for c := range t {
		t[c] = string(rune(c))
	}
	return t
}()

func foldSlow(r rune) string {
	if isIgnorable(r) {
		return ""
	}
	var out []rune
	for _, x := range norm.NFKD.String(string(r)) {
		if unicode.Is(unicode.Mn, x) || isIgnorable(x) {
			continue
		}
		switch x {
		case 'ß', 'ẞ':
			out = append(out, 's', 's')
			continue
		case 'ı':
			x = 'i'
		}
		out = append(out, unicode.ToLower(unicode.ToUpper(x)))
	}
	return string(out)
}

// isIgnorable reports whether r only shapes how the character before or
// after it is drawn: ZWNJ, ZWJ, the soft hyphen, variation selectors,
// emoji modifiers and tag characters.
func isIgnorable(r rune) bool {
	switch {
	case r == '\u200c', r == '\u200d', r == '\u00ad':
		return true
	case r >= '\ufe00' && r <= '\ufe0f':
		return true
	case r >= 0x1f3fb && r <= 0x1f3ff:
		return true
	case r >= 0xe0020 && r <= 0xe007f, r >= 0xe0100 && r <= 0xe01ef:
		return true
	}
	return false
}

// Character classes of folded runes.
const (
	classSpace   = iota // separators: spaces, punctuation, control characters
	classWord           // letters and digits of scripts written with spaces
	classUnspace        // scripts without spaces (Han, kana, Hangul, Thai, …) and symbols such as emoji
)

// unspacedScripts are matched as substrings, one character at a time,
// since their words are not separated by spaces.
var unspacedScripts = []*unicode.RangeTable{
	unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul,
	unicode.Bopomofo, unicode.Thai, unicode.Lao, unicode.Khmer,
	unicode.Myanmar, unicode.Tibetan, unicode.Yi, unicode.Javanese,
	unicode.Balinese,
}

// runeClass classifies a folded rune.
func runeClass(r rune) int {
	if r < utf8.RuneSelf {
		return asciiClass[r]
	}
	if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Mn, r) {
		if unicode.IsOneOf(unspacedScripts, r) {
			return classUnspace
		}
		return classWord
	}
	if unicode.IsSymbol(r) && !unicode.Is(unicode.Sk, r) || unicode.Is(unicode.Co, r) {
		return classUnspace
	}
	if unicode.IsNumber(r) {
		return classWord
	}
	return classSpace
}

var asciiClass = func() (t [utf8.RuneSelf]int) {
	for c := range t {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			t[c] = classWord
		default:
			t[c] = classSpace
		}
	}
	return t
}()

// foldedRune is one rune of folded text with the byte range [start, end)
// of the original character it came from. A character that folds to
// several runes ("ß" → "ss") gives several foldedRunes with the same range.
type foldedRune struct {
	r          rune
	start, end int32
}

// foldText appends the folded runes of text to dst, each with its place in
// text.
func foldText(dst []foldedRune, text string) []foldedRune {
	for i, r := range text {
		size := utf8.RuneLen(r)
		if r == utf8.RuneError {
			_, size = utf8.DecodeRuneInString(text[i:])
		}
		for _, f := range foldRune(r) {
			dst = append(dst, foldedRune{r: f, start: int32(i), end: int32(i + size)})
		}
	}
	return dst
}

// foldString returns the folded form of s (no positions).
func foldString(s string) string {
	var b []byte
	for _, r := range s {
		b = append(b, foldRune(r)...)
	}
	return string(b)
}

// tokenKind tells the pieces of folded text apart.
const (
	tokenWord   = iota // a word of a spaced script
	tokenUnspan        // a run of characters of a script without spaces
)

// textToken is a word or an unspaced run of folded text: runes [from, to) of
// the folded slice.
type textToken struct {
	kind     int
	from, to int
}

// tokenize splits folded runes into words and unspaced runs. The words of
// "我喜歡用signal" are the run "我喜歡用" and the word "signal".
func tokenize(dst []textToken, runes []foldedRune) []textToken {
	start, kind := -1, -1
	flush := func(i int) {
		if start >= 0 {
			dst = append(dst, textToken{kind: kind, from: start, to: i})
		}
		start, kind = -1, -1
	}
	for i, fr := range runes {
		var k int
		switch runeClass(fr.r) {
		case classWord:
			k = tokenWord
		case classUnspace:
			k = tokenUnspan
		default:
			flush(i)
			continue
		}
		if k != kind {
			flush(i)
			start, kind = i, k
		}
	}
	flush(len(runes))
	return dst
}

// Character boundaries. A highlight or a snippet never starts or ends
// inside a character as a reader sees it: a base with its combining marks,
// an emoji with its modifiers and variation selectors, a ZWJ sequence, a
// pair of regional indicators (a flag). This is a small subset of the
// extended grapheme clusters of UAX #29, enough for chat text without a
// segmentation table.

func isRegional(r rune) bool { return r >= 0x1f1e6 && r <= 0x1f1ff }

// clusterStart moves byte offset i of text back to the start of the
// character it falls in.
func clusterStart(text string, i int) int {
	for i > 0 && i < len(text) {
		r, _ := utf8.DecodeRuneInString(text[i:])
		prev, size := utf8.DecodeLastRuneInString(text[:i])
		switch {
		case IsExtender(r), prev == '\u200d':
			i -= size
		case isRegional(r) && isRegional(prev) && regionalRunOdd(text, i):
			i -= size
		default:
			return i
		}
	}
	return i
}

// regionalRunOdd reports whether an odd number of regional indicators
// stand right before byte offset i (so i splits a flag).
func regionalRunOdd(text string, i int) bool {
	n := 0
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:i])
		if !isRegional(r) {
			break
		}
		n++
		i -= size
	}
	return n%2 == 1
}

// clusterEnd moves byte offset i of text forward to the end of the
// character that ends at or spans it.
func clusterEnd(text string, i int) int {
	for i > 0 && i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		prev, _ := utf8.DecodeLastRuneInString(text[:i])
		switch {
		case IsExtender(r), prev == '\u200d':
			i += size
		case isRegional(r) && isRegional(prev) && regionalRunOdd(text, i):
			i += size
		default:
			return i
		}
	}
	return i
}

// UTF16Len returns the length of s in UTF-16 code units.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// IsExtender reports whether r joins the character before it: combining
// marks, variation selectors, the zero-width joiner, emoji modifiers and
// tag characters.
func IsExtender(r rune) bool {
	if r < 0x300 { // below the first combining mark: most text, decided without the tables
		return false
	}
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
