package jsonx

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSubstringsReadAsReadString holds Substrings.ReadString to
// ReadString on every kind of value, and shows that an unescaped string
// shares the one copy of the buffer while an escaped one does not.
func TestSubstringsReadAsReadString(t *testing.T) {
	buf := []byte(`["plain","é ok","esc\"aped","\u00e9",null,3, "spaced" ,{"a":"b"},"` + "\xff" + `"]`)
	p := NewSubstrings(buf)
	var got []string
	ReadArray(buf, func(i int, el []byte) {
		want, s := "keep", "keep"
		wantOK := ReadString(el, &want)
		assert.Equal(t, wantOK, p.ReadString(el, &s), "element %d %q", i, el)
		assert.Equal(t, want, s, "element %d %q", i, el)
		got = append(got, s)
	})
	var s string
	assert.Equal(t, []string{"plain", "é ok", `esc"aped`, "é", "keep", "keep", "spaced", "keep", "\ufffd"}, got)

	// An unescaped string is a substring of the one copy: no allocation.
	plain := buf[1:8]
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { p.ReadString(plain, &s) }))
	assert.Equal(t, "plain", s)
	escaped := buf[17:28]
	assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { p.ReadString(escaped, &s) }))
	assert.Equal(t, `esc"aped`, s)

	// A string from outside the buffer is read all the same.
	assert.True(t, p.ReadString([]byte(`"elsewhere"`), &s))
	assert.Equal(t, "elsewhere", s)
	// A nil reader is ReadString.
	assert.True(t, (*Substrings)(nil).ReadString([]byte(`"x"`), &s))
	assert.Equal(t, "x", s)
}

// BenchmarkSubstrings compares reading 10,000 short strings one
// allocation each (ReadString) with Substrings.
func BenchmarkSubstrings(b *testing.B) {
	buf := []byte{'['}
	for i := range 10000 {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `"2026-01-02T03:04:05.000Z"`...)
	}
	buf = append(buf, ']')
	b.Run("ReadString", func(b *testing.B) {
		for b.Loop() {
			var s string
			ReadArray(buf, func(_ int, el []byte) { ReadString(el, &s) })
		}
	})
	b.Run("Substrings", func(b *testing.B) {
		for b.Loop() {
			var s string
			p := NewSubstrings(buf)
			ReadArray(buf, func(_ int, el []byte) { p.ReadString(el, &s) })
		}
	})
}
