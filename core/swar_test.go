package core

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// plainRunByBytes is plainRun one byte at a time: the reference.
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
			if got, want := plainRun([]byte(in), i), plainRunByBytes([]byte(in), i); got != want {
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
		if got, want := plainRun(b, i), plainRunByBytes(b, i); got != want {
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
			if got, want := validUTF8([]byte(in[i:])), utf8.Valid([]byte(in[i:])); got != want {
				t.Fatalf("validUTF8(%q) = %v, utf8.Valid says %v", in[i:], got, want)
			}
		}
	}
}

func FuzzValidUTF8(f *testing.F) {
	f.Add([]byte("héllo wörld, 漢字 and 🎉"))
	f.Add([]byte("\xed\xa0\x80abcdefgh"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validUTF8(b), utf8.Valid(b); got != want {
			t.Fatalf("validUTF8(%q) = %v, utf8.Valid says %v", b, got, want)
		}
	})
}
