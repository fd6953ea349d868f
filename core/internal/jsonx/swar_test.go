package jsonx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plainRunByBytes is PlainRun one byte at a time: the reference.
func plainRunByBytes(b []byte, i int) int {
	for i < len(b) && plainStringByte[b[i]] {
		i++
	}
	return i
}

func TestPlainRunStopsWhereTheByteLoopStops(t *testing.T) {
	inputs := []string{
		"", "a", "abcdefgh", "abcdefghi\"", `abc\n`, "abcdefg\x1f", "\x00", "é漢字🎉 and more text\"",
		strings.Repeat("x", 64) + `"`, strings.Repeat("x", 63) + "\\", "\x7f\x80\xff\xfe\x20\x21\x5b\x5d\x5c",
	}
	for c := 0; c < 256; c++ { // every byte value at every position of a word
		for at := 0; at < 9; at++ {
			b := []byte(strings.Repeat("y", 17))
			b[at] = byte(c)
			inputs = append(inputs, string(b))
		}
	}
	for _, in := range inputs {
		for i := 0; i <= len(in); i++ {
			if got, want := PlainRun([]byte(in), i), plainRunByBytes([]byte(in), i); got != want {
				t.Fatalf("plainRun(%q, %d) = %d, want %d", in, i, got, want)
			}
		}
	}
}

func FuzzPlainRun(f *testing.F) {
	f.Add([]byte(`hello "world"`), 0)
	f.Fuzz(func(t *testing.T, b []byte, i int) {
		if i < 0 || i > len(b) {
			return
		}
		if got, want := PlainRun(b, i), plainRunByBytes(b, i); got != want {
			t.Fatalf("plainRun(%q, %d) = %d, want %d", b, i, got, want)
		}
	})
}

func TestValidUTF8AgreesWithTheStandardLibrary(t *testing.T) {
	inputs := []string{
		"", "ascii only, longer than a word", "é", "漢字", "🎉", "\xff", "\xc3", "\xc3\x28", "\xed\xa0\x80",
		"\xef\xbf\xbd", "\xf4\x90\x80\x80", "\xc0\xaf", strings.Repeat("a", 15) + "\xe2\x82", strings.Repeat("a", 7) + "é" + strings.Repeat("b", 9),
		"\x7f\x80", strings.Repeat("ab", 40) + "\xf0\x9f\x8e\x89" + strings.Repeat("c", 3),
	}
	for _, in := range inputs {
		for i := 0; i <= len(in); i++ { // every alignment
			if got, want := ValidUTF8([]byte(in[i:])), utf8.Valid([]byte(in[i:])); got != want {
				t.Fatalf("validUTF8(%q) = %v, utf8.Valid says %v", in[i:], got, want)
			}
		}
	}
}

func FuzzValidUTF8(f *testing.F) {
	f.Add([]byte("héllo wörld, 漢字 and 🎉"))
	f.Add([]byte("\xed\xa0\x80abcdefgh"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := ValidUTF8(b), utf8.Valid(b); got != want {
			t.Fatalf("validUTF8(%q) = %v, utf8.Valid says %v", b, got, want)
		}
	})
}

func TestAppendASCIIEscapesEveryNonASCIICharacter(t *testing.T) {
	for _, in := range []string{
		`"plain"`, `"café"`, `{"role":"user","content":"漢字 and 🎉, née \"quoted\" \\ back"}`,
		`["` + strings.Repeat("x", 13) + `é` + strings.Repeat("y", 29) + `"]`, `"\u00e9 already escaped, é not"`,
		`{"ключ":"значение","emoji":"👩‍👩‍👧","max":"` + "\U0010FFFF" + `","fffd":"` + "\uFFFD" + `"}`,
	} {
		var budget ASCIIBudget
		out, ok := AppendASCII([]byte("prefix"), []byte(in), &budget)
		if !ok {
			t.Fatalf("%q: gave up within the free bytes", in)
		}
		if !strings.HasPrefix(string(out), "prefix") || !allASCII(out) {
			t.Fatalf("%q: got %q", in, out)
		}
		if !jsonSame(t, out[len("prefix"):], []byte(in)) {
			t.Fatalf("%q: escaped to %q, another value", in, out)
		}
	}
}

func FuzzAppendASCII(f *testing.F) {
	f.Add(`{"role":"user","content":"héllo 漢字 🎉"}`)
	f.Fuzz(func(t *testing.T, s string) {
		in, err := json.Marshal(s)
		if err != nil {
			return
		}
		var budget ASCIIBudget
		out, _ := AppendASCII(nil, in, &budget)
		if len(in) <= asciiFreeBytes && (!allASCII(out) || !jsonSame(t, out, in)) {
			t.Fatalf("%q escaped to %q", in, out)
		}
	})
}

func TestAppendStringBodyMatchesJSON(t *testing.T) {
	for _, str := range []string{"", "x", "a\"b\\c/d", "\x01\x1f\u007f", "tab\tnew\nline", "é漢🎉", "\u2028\u2029", strings.Repeat("long ", 40) + "é"} {
		enc, _ := json.Marshal(str)
		b := append(make([]byte, 0, 3+len(enc)+6), "pre"...)
		out, rest, ascii, ok := AppendStringBody(b, append(enc[1:], ",after"...))
		require.True(t, ok, str)
		assert.Equal(t, "pre"+str, string(out))
		assert.Equal(t, ",after", string(rest))
		assert.Equal(t, allASCII([]byte(str)), ascii, str)
	}
	for _, body := range []string{`\ud800"`, `\udc00x"`, `\ud83c\udf89"`, `\x"`, `\u12"`, `\u12g4"`, `end\`, `no closing quote`, "a\x01control\""} {
		_, _, _, ok := AppendStringBody(make([]byte, 0, 64), []byte(body))
		assert.False(t, ok, body)
	}
	_, _, _, ok := AppendStringBody(make([]byte, 0, 2), []byte(`abc"`))
	assert.False(t, ok, "no room")
}

// jsonSame reports whether a and b are JSON texts of the same value.
func jsonSame(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("not JSON: %v: %q", err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("not JSON: %v: %q", err, b)
	}
	return reflect.DeepEqual(va, vb)
}

// allASCII reports whether b holds only ASCII bytes.
func allASCII(b []byte) bool {
	return bytes.IndexFunc(b, func(r rune) bool { return r >= utf8.RuneSelf }) < 0
}
