package names

import (
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
)

func TestProblem(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"a plain id", "ex/1", ""},
		{"an emoji joined by U+200D", "👨\u200d👩\u200d👧", ""},
		{"Persian with U+200C", "می\u200cخواهم", ""},
		{"inner spaces", "a branch", ""},
		{"empty", "", "is empty"},
		{"only U+200B", "\u200b", "is only invisible characters or white space"},
		{"U+200C U+200D U+2060 U+FEFF", "\u200c\u200d\u2060\ufeff", "is only invisible characters or white space"},
		{"a soft hyphen and a variation selector", "\u00ad\ufe0f", "is only invisible characters or white space"},
		{"Hangul fillers", "\u3164\u115f", "is only invisible characters or white space"},
		{"tag characters", "\U000e0001\U000e0041", "is only invisible characters or white space"},
		{"white space only", " \u00a0\u3000\u2003", "is only invisible characters or white space"},
		{"white space and U+200B", " \u200b ", "is only invisible characters or white space"},
		{"a line separator", "a\u2028b", "holds U+2028, a line or paragraph separator"},
		{"a paragraph separator", "a\u2029", "holds U+2029, a line or paragraph separator"},
		{"a newline", "a\nb", "holds U+000A, a control character"},
		{"a tab", "a\tb", "holds U+0009, a control character"},
		{"DEL", "a\x7f", "holds U+007F, a control character"},
		{"a C1 control", "a\u0085", "holds U+0085, a control character"},
		{"a right-to-left override", "a\u202eb", "holds U+202E, a bidirectional control"},
		{"an isolate", "\u2066a", "holds U+2066, a bidirectional control"},
		{"bad UTF-8", "a\xffb", "is not valid UTF-8"},
		{"too long", strings.Repeat("é", 9), "is longer than 8 characters"},
		{"exactly long enough", strings.Repeat("é", 8), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Problem(c.in, 8))
		})
	}
}

// TestDefaultIgnorableMatchesUnicode derives Default_Ignorable_Code_Point
// from Go's own tables as DerivedCoreProperties.txt defines it
// (Other_Default_Ignorable_Code_Point + Cf + Variation_Selector
// − White_Space − FFF9..FFFB − Egyptian format controls
// − Prepended_Concatenation_Mark) and compares it with DefaultIgnorable.
func TestDefaultIgnorableMatchesUnicode(t *testing.T) {
	var diff []string
	for r := rune(0); r <= unicode.MaxRune; r++ {
		derived := (unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Variation_Selector, r)) &&
			!unicode.Is(unicode.White_Space, r) && !(r >= 0xfff9 && r <= 0xfffb) && !(r >= 0x13430 && r <= 0x1345f) &&
			!unicode.Is(unicode.Prepended_Concatenation_Mark, r)
		if derived != unicode.Is(DefaultIgnorable, r) {
			diff = append(diff, codePoint(r))
		}
	}
	assert.Empty(t, diff, "code points where DefaultIgnorable differs from Unicode %s", unicode.Version)
}

func TestQuoteClipsALongName(t *testing.T) {
	assert.Equal(t, `"main"`, Quote("main"))
	assert.Equal(t, `"a\"b\n"`, Quote("a\"b\n"))
	exact := strings.Repeat("é", ShownChars)
	assert.Equal(t, `"`+exact+`"`, Quote(exact), "ShownChars characters are shown whole")
	assert.Equal(t, `"`+exact+`"…`, Quote(exact+"xyz"), "more are cut after ShownChars characters, never inside one")
	assert.Equal(t, `"`+strings.Repeat("x", ShownChars)+`"…`, Quote(strings.Repeat("x", 10000)))
}
