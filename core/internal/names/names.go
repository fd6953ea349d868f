// Package names holds the rules for the names a session tree holds:
// session ids, node ids and branch names. Problem is the one rule for
// every name core takes from a caller (a request, a snapshot given to
// snapshot.load, an import's ids); Valid, ValidBranch and ValidSessionID
// are the looser checks of what the store itself wrote (a restore keeps
// every stored session); ValidTimestamp checks a stored timestamp. An
// import whose ids Problem refuses gets ids derived from them
// (DerivedSessionID, RenameUnusableNodeIDs), the same at every import.
//
// Pure functions of their strings; it knows no session.
package names

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// The longest session id, node id and branch name, in code points.
const (
	MaxSessionIDLength  = 256
	MaxNodeIDLength     = 256
	MaxBranchNameLength = 128
)

// DefaultIgnorable is Unicode's Default_Ignorable_Code_Point property
// (DerivedCoreProperties.txt, Unicode 15.1/16.0): code points a renderer
// shows as nothing, such as U+200B ZERO WIDTH SPACE, U+200C/U+200D ZERO
// WIDTH (NON-)JOINER, U+2060 WORD JOINER, U+FEFF ZERO WIDTH NO-BREAK
// SPACE, the soft hyphen, variation selectors, Hangul fillers and the tag
// characters. Go's unicode package has only Other_Default_Ignorable_Code_Point.
var DefaultIgnorable = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00ad, Hi: 0x00ad, Stride: 1},
		{Lo: 0x034f, Hi: 0x034f, Stride: 1},
		{Lo: 0x061c, Hi: 0x061c, Stride: 1},
		{Lo: 0x115f, Hi: 0x1160, Stride: 1},
		{Lo: 0x17b4, Hi: 0x17b5, Stride: 1},
		{Lo: 0x180b, Hi: 0x180f, Stride: 1},
		{Lo: 0x200b, Hi: 0x200f, Stride: 1},
		{Lo: 0x202a, Hi: 0x202e, Stride: 1},
		{Lo: 0x2060, Hi: 0x206f, Stride: 1},
		{Lo: 0x3164, Hi: 0x3164, Stride: 1},
		{Lo: 0xfe00, Hi: 0xfe0f, Stride: 1},
		{Lo: 0xfeff, Hi: 0xfeff, Stride: 1},
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1},
		{Lo: 0xfff0, Hi: 0xfff8, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x1bca0, Hi: 0x1bca3, Stride: 1},
		{Lo: 0x1d173, Hi: 0x1d17a, Stride: 1},
		{Lo: 0xe0000, Hi: 0xe0fff, Stride: 1},
	},
}

// Problem is the one rule for every session id, node id and branch
// name core takes (requests, fork and clone's newSessionId, import ids),
// so that each is visible and on one line wherever it is listed. It
// returns "" when s is usable with at most max code points, else what is
// wrong, as a phrase that follows the field's name ("is empty", "holds
// U+2028, a line or paragraph separator"). s is refused when it:
//
//   - is not valid UTF-8 (a lone surrogate, a bad byte);
//   - is empty or longer than max code points;
//   - holds a control character (general category Cc: U+0000–U+001F,
//     U+007F–U+009F; tab and newline too), a line or paragraph separator
//     (U+2028, U+2029) or a bidirectional embedding, override or isolate
//     (U+202A–U+202E, U+2066–U+2069), which would make it display as
//     something it is not;
//   - is made only of invisible code points: white space (unicode.IsSpace:
//     U+0020, U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F, U+3000, …)
//     and DefaultIgnorable ones (U+200B–U+200F, U+2060–U+206F, U+FEFF, …).
//
// Invisible code points beside visible ones are kept: U+200D joins emoji
// and U+200C is part of Persian spelling.
func Problem(s string, max int) string {
	if s == "" {
		return "is empty"
	}
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	n, visible := 0, false
	for _, r := range s {
		n++
		switch {
		case r > ' ' && r < 0x7f:
			visible = true // printable ASCII, the common case
		case unicode.IsControl(r):
			return "holds " + codePoint(r) + ", a control character"
		case r == '\u2028' || r == '\u2029':
			return "holds " + codePoint(r) + ", a line or paragraph separator"
		case r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069':
			return "holds " + codePoint(r) + ", a bidirectional control"
		case !visible && !unicode.IsSpace(r) && !unicode.Is(DefaultIgnorable, r):
			visible = true
		}
	}
	if n > max {
		return jsonx.Sprintf("is longer than %d characters", max)
	}
	if !visible {
		return "is only invisible characters or white space"
	}
	return ""
}

// codePoint writes r as Unicode does: "U+" and at least four upper-case
// hex digits ("U+200B", "U+E0001").
func codePoint(r rune) string {
	h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	if len(h) < 4 {
		h = strings.Repeat("0", 4-len(h)) + h
	}
	return "U+" + h
}

// PlainASCII reports whether id is 1–MaxNodeIDLength printable ASCII
// characters (which Problem accepts), without a call per rune.
func PlainASCII(id string) bool {
	if id == "" || len(id) > MaxNodeIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] >= 0x7f {
			return false
		}
	}
	return true
}

// ShownChars is the most characters of a refused name an error message
// quotes (Quote).
const ShownChars = 64

// Quote returns s quoted as an error message shows it (%q): whole up to
// ShownChars characters, else its first ShownChars characters quoted and
// "…" after the quote (a refused id of 10,000 characters made a 10 KB
// message).
func Quote(s string) string {
	n := 0
	for i := range s {
		if n == ShownChars {
			return jsonx.Sprintf("%q…", s[:i])
		}
		n++
	}
	return jsonx.Sprintf("%q", s)
}
