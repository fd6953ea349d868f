package jsonx

import "unicode/utf8"

// Substrings reads the JSON strings of one buffer (a list of many small
// records, such as the session summaries of a page.stub request) as
// substrings of a single string copy of that buffer, made once, instead of
// one allocation per string: in wasm an allocation costs more than the
// bytes it copies, and 10,000 summaries hold about 80,000 strings.
//
// The copy stays alive while any string read from it does, so use it only
// where the strings live about as long as one another (a copy of n bytes
// for strings that would have taken most of n anyway). A string with
// escapes, or bytes that are not UTF-8, is decoded as ReadString decodes
// it, into its own allocation; so is a v that does not lie in the buffer.
type Substrings struct {
	base []byte
	text string
}

// NewSubstrings returns a reader of strings lying in base. It copies base
// (len(base) bytes) once, now.
func NewSubstrings(base []byte) *Substrings {
	return &Substrings{base: base, text: string(base)}
}

// ReadString is the package's ReadString (the string v in *dst; null
// leaves it alone; another value reports false) for a v that is a subslice
// of the buffer: an unescaped string becomes a substring of the copy. A
// nil p reads as ReadString.
func (p *Substrings) ReadString(v []byte, dst *string) bool {
	v = trim(v)
	if p == nil || len(v) < 2 || v[0] != '"' {
		return ReadString(v, dst)
	}
	off := cap(p.base) - cap(v) // where v starts in base, if it lies in it
	if off < 0 || off+len(v) > len(p.base) || &p.base[off] != &v[0] {
		return ReadString(v, dst)
	}
	s := Scanner{Data: v}
	escaped, err := s.skipString()
	if err != nil || s.Pos != len(v) {
		return false
	}
	if escaped || !utf8.Valid(v[1:len(v)-1]) {
		*dst = DecodeString(v, escaped)
		return true
	}
	*dst = p.text[off+1 : off+len(v)-1]
	return true
}
