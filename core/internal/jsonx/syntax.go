package jsonx

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// The syntax check of this package and its errors. There is one JSON
// grammar here, the Scanner's (jsonscan.go); these functions run it over a
// whole text. Messages are our own, each with the line and column where the
// text stops being JSON.

// MaxDepth is the nesting that Valid, CheckSyntax, Unmarshal and CompactRaw
// accept, as encoding/json does: 10,000 open arrays and objects. Unmarshal
// recurses over nesting; this bound keeps its stack small.
const MaxDepth = 10000

// A SyntaxError is the place where a text stops being JSON. Positions are
// in the text the Scanner read (Scanner.Data), which may be one field of a
// larger document: a caller that knows where that text starts may move
// Line and Column before showing the error.
type SyntaxError struct {
	// Offset is the byte offset of the offending byte, or the length of
	// the text when it ends early. (encoding/json's SyntaxError.Offset
	// counts the bytes read including the offending one, so it is this
	// Offset plus one, except at an unexpected end, where both are the
	// length.)
	Offset int
	// Line and Column locate Offset, both from 1: lines end at '\n' and
	// columns count bytes from the line's start (so a column is exact for
	// any input, valid UTF-8 or not; in ASCII it is the character column).
	Line, Column int
	// Msg says what went wrong, without the position: "invalid character
	// 'x' after object key, expected ':'", "unexpected end of JSON input".
	Msg string
}

// Error gives Msg and the position: "… at line L, column C".
func (e *SyntaxError) Error() string {
	return Sprintf("%s at line %d, column %d", e.Msg, e.Line, e.Column)
}

// Valid reports whether data is one JSON value (white space around it
// allowed) nested at most MaxDepth deep: json.Valid's answer.
func Valid(data []byte) bool {
	return CheckSyntax(data) == nil
}

// CheckSyntax returns nil when data is one JSON value (white space around
// it allowed, nesting at most MaxDepth), else the *SyntaxError at the first
// byte where it stops being one.
func CheckSyntax(data []byte) error {
	s := Scanner{Data: data, MaxDepth: MaxDepth}
	if _, _, err := s.Value(); err != nil {
		return err
	}
	if err := s.End(); err != nil {
		return err
	}
	return nil
}

// CompactRaw returns a copy of raw without insignificant white space
// (json.Compact without HTML escaping): every token keeps its exact bytes,
// numbers their digits, strings their escapes. When raw is not one JSON
// value the error is CheckSyntax's.
func CompactRaw(raw []byte) (RawMessage, error) {
	if err := CheckSyntax(raw); err != nil {
		return nil, err
	}
	return compactValid(make([]byte, 0, len(raw)), raw), nil
}

// compactValid appends valid JSON raw to dst without the white space
// outside its strings.
func compactValid(dst, raw []byte) []byte {
	start := 0
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			for i++; i < len(raw); i++ {
				i = PlainRun(raw, i)
				if i >= len(raw) || raw[i] == '"' {
					break
				}
				if raw[i] == '\\' {
					i++ // the escaped byte
				}
			}
		case IsSpace(c):
			dst = append(dst, raw[start:i]...)
			start = i + 1
		}
	}
	return append(dst, raw[start:]...)
}

// Fail returns a *SyntaxError with msg at Pos (Pos is clamped to Data).
//
//go:noinline // failures only (wasm size)
func (s *Scanner) Fail(msg string) *SyntaxError {
	off := min(max(s.Pos, 0), len(s.Data))
	line := 1 + bytes.Count(s.Data[:off], newline)
	col := off + 1
	if nl := bytes.LastIndexByte(s.Data[:off], '\n'); nl >= 0 {
		col = off - nl
	}
	return &SyntaxError{Offset: off, Line: line, Column: col, Msg: msg}
}

var newline = []byte{'\n'}

// Unexpected returns the error for the byte at Pos, which does not fit
// where it stands: "unexpected end of JSON input" at the end of Data, else
// "invalid character 'x' " followed by where, which says what the scanner
// was reading or expected ("after object key, expected ':'").
//
//go:noinline // failures only (wasm size)
func (s *Scanner) Unexpected(where string) *SyntaxError {
	if s.Pos >= len(s.Data) {
		return s.Fail("unexpected end of JSON input")
	}
	return s.Fail("invalid character " + quoteCharAt(s.Data, s.Pos) + " " + where)
}

// expected returns the error for a value of the wrong kind at Pos: "expected
// an object, found an array" (or the end of input, or a character that
// starts no value).
//
//go:noinline // failures only (wasm size)
func (s *Scanner) expected(what string) *SyntaxError {
	if s.Pos >= len(s.Data) {
		return s.Fail("unexpected end of JSON input")
	}
	found := "character " + quoteCharAt(s.Data, s.Pos)
	switch c := s.Data[s.Pos]; {
	case c == '{':
		found = "an object"
	case c == '[':
		found = "an array"
	case c == '"':
		found = "a string"
	case c == '-' || isDigit(c):
		found = "a number"
	}
	return s.Fail("expected " + what + ", found " + found)
}

// quoteCharAt names the character at data[i] for a message, quoted as
// strconv.QuoteRune quotes it ('x', '\x01', 'é': a whole UTF-8 sequence),
// or as byte 0xFF when the bytes there are not UTF-8.
func quoteCharAt(data []byte, i int) string {
	r, size := utf8.DecodeRune(data[i:])
	if r == utf8.RuneError && size <= 1 {
		const hex = "0123456789ABCDEF"
		return "byte 0x" + string([]byte{hex[data[i]>>4], hex[data[i]&0xf]})
	}
	return strconv.QuoteRune(r)
}
