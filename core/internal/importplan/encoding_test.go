package importplan

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
)

// utf16Of writes s as UTF-16 with its byte order mark, big-endian when
// big.
func utf16Of(s string, big bool) []byte {
	b := []byte{0xFF, 0xFE}
	if big {
		b = []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if big {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

func TestToUTF8ReadsBOMsAndUTF16(t *testing.T) {
	// A pair split across the converter's 4,096-unit chunks stays one character.
	long := strings.Repeat("a", 4095) + "🎉 é 漢字"
	for _, tc := range []struct {
		name, note string
		in         []byte
		want       string
	}{
		{"plain UTF-8", "", []byte(`{"a":"é"}`), `{"a":"é"}`},
		{"UTF-8 with a BOM", "", append([]byte{0xEF, 0xBB, 0xBF}, `{"a":"é"}`...), `{"a":"é"}`},
		{"UTF-16 LE", "the file is UTF-16 (little-endian); it was read as such", utf16Of(`{"a":"é 🎉"}`, false), `{"a":"é 🎉"}`},
		{"UTF-16 BE", "the file is UTF-16 (big-endian); it was read as such", utf16Of(`{"a":"漢字"}`, true), `{"a":"漢字"}`},
		{"UTF-16 LE across chunks", "the file is UTF-16 (little-endian); it was read as such", utf16Of(long, false), long},
		{"a lone surrogate", "the file is UTF-16 (little-endian); it was read as such", []byte{0xFF, 0xFE, 'x', 0, 0x00, 0xD8, 'y', 0}, "x\uFFFDy"},
		{"an odd last byte", "the file is UTF-16 (little-endian); it was read as such, but for its last byte, which is half a character (the file may be cut off)", []byte{0xFF, 0xFE, '[', 0, ']', 0, 'z'}, "[]"},
		{"an odd last byte, big-endian", "the file is UTF-16 (big-endian); it was read as such, but for its last byte, which is half a character (the file may be cut off)", []byte{0xFE, 0xFF, 0, '[', 0, ']', 0}, "[]"},
		{"UTF-16 LE without a BOM", "the file is UTF-16 (little-endian, without a byte order mark); it was read as such", utf16Of(`[{"a":"é"}]`, false)[2:], `[{"a":"é"}]`},
		{"UTF-16 BE without a BOM", "the file is UTF-16 (big-endian, without a byte order mark); it was read as such", utf16Of("# aider chat started\n", true)[2:], "# aider chat started\n"},
		{"UTF-16 LE without a BOM, an odd last byte", "the file is UTF-16 (little-endian, without a byte order mark); it was read as such, but for its last byte, which is half a character (the file may be cut off)", append(utf16Of("\n{}", false)[2:], '}'), "\n{}"},
		// Not taken for UTF-16: a NUL after a character no export begins with, or too short to tell.
		{"a NUL after a letter", "", []byte("x\x00y\x00"), "x\x00y\x00"},
		{"two bytes", "", []byte("{\x00"), "{\x00"},
		{"a BOM alone", "the file is UTF-16 (little-endian); it was read as such", []byte{0xFF, 0xFE}, ""},
	} {
		out, note := ToUTF8(tc.in)
		assert.Equal(t, tc.want, string(out), tc.name)
		assert.Equal(t, tc.note, note, tc.name)
	}
}

func TestToUTF8ReplacesBytesThatAreNotUTF8(t *testing.T) {
	for _, tc := range []struct {
		name, in, want, note string
	}{
		{"one bad byte", "a\n\xffb", "a\n\uFFFDb", "the file is not valid UTF-8: 1 byte (the first on line 2) read as U+FFFD"},
		{"two bad bytes", "\xc3(\xfe", "\uFFFD(\uFFFD", "the file is not valid UTF-8: 2 bytes (the first on line 1) read as U+FFFD"},
	} {
		out, note := ToUTF8([]byte(tc.in))
		assert.Equal(t, tc.want, string(out), tc.name)
		assert.Equal(t, tc.note, note, tc.name)
	}
}

func TestIsZIPKnowsBothHeaders(t *testing.T) {
	assert.True(t, IsZIP([]byte("PK\x03\x04rest")))
	assert.True(t, IsZIP([]byte("PK\x05\x06")))
	assert.False(t, IsZIP([]byte(`{"PK":1}`)))
}
