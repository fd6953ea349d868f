package jsonx

import (
	"unicode/utf8"
)

// A small validating JSON scanner for the hot paths (requests, snapshots,
// messages) and the one syntax check of this package (Valid, CheckSyntax,
// Unmarshal, CompactRaw). encoding/json re-validates the whole input at
// every nested unmarshal, so a 22 MB snapshot was scanned about seven
// times; this scanner walks each byte once and hands out sub-slices of the
// input. It follows RFC 8259 exactly (the grammar encoding/json accepts;
// the differential fuzz targets in fuzz_test.go hold it to that) and is a
// loop with an explicit stack, so nesting depth is bounded only by memory
// unless MaxDepth says otherwise.

// A Scanner reads the JSON text Data from byte offset Pos, which every
// method moves past what it read. Its zero value with Data set reads from
// the start; errors are *SyntaxError values naming the byte offset, line
// and column in Data.
type Scanner struct {
	Data []byte // the JSON text
	Pos  int    // byte offset of the next byte to read
	// Valid says the data is already known to be valid JSON without
	// insignificant white space (a request field the dispatcher scanned):
	// value then only finds where each value ends (SkipValid), which is
	// how a snapshot.load avoids validating every byte several times.
	Valid bool
	// Spaced is set whenever SkipSpace moved: a caller that clears it
	// before a value learns whether the value has white space to compact.
	Spaced bool
	// MaxDepth, when above 0, bounds the nesting Value accepts: an array
	// or object opened deeper is an error. 0 means no bound.
	MaxDepth int
	// UEscape is set whenever a string the scanner checked holds a \u
	// escape (SkipValid, which does not check, leaves it alone): a caller
	// that clears it before a value learns whether the value may hold a
	// lone surrogate.
	UEscape bool
}

// IsSpace reports whether c is JSON white space (space, tab, LF, CR).
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace moves Pos past white space, setting Spaced when it moved.
func (s *Scanner) SkipSpace() {
	start := s.Pos
	for s.Pos < len(s.Data) && IsSpace(s.Data[s.Pos]) {
		s.Pos++
	}
	if s.Pos != start {
		s.Spaced = true
	}
}

// Peek returns the byte at Pos, or 0 at the end of Data.
func (s *Scanner) Peek() byte {
	if s.Pos < len(s.Data) {
		return s.Data[s.Pos]
	}
	return 0
}

// skipString moves past the string starting at pos (which holds '"') and
// reports whether it has escapes.
func (s *Scanner) skipString() (escaped bool, err *SyntaxError) {
	s.Pos++ // opening quote
	data := s.Data
	for s.Pos < len(data) {
		// Plain bytes are the common case (the string bodies of a snapshot
		// are most of its bytes, and this loop was the top of the wasm
		// profile): the first 16 a byte at a time, here — keys, ids and
		// names end within them — then a word at a time.
		i := s.Pos
		short := min(i+16, len(data))
		for i < short && plainStringByte[data[i]] {
			i++
		}
		if i == short {
			i = PlainRun(data, i)
		}
		s.Pos = i
		if i >= len(data) {
			break
		}
		c := data[i]
		switch {
		case c == '"':
			s.Pos++
			return escaped, nil
		case c == '\\':
			escaped = true
			s.Pos++ // the backslash; errors point at the byte after it
			switch s.Peek() {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.Pos++
			case 'u':
				s.UEscape = true
				s.Pos++
				for range 4 {
					if !isHex(s.Peek()) {
						return escaped, s.Unexpected("in \\u escape, expected a hex digit")
					}
					s.Pos++
				}
			default:
				return escaped, s.Unexpected("in string escape, expected \", \\, /, b, f, n, r, t or u")
			}
		case c < 0x20:
			return escaped, s.Unexpected("in string, control characters must be escaped")
		default:
			s.Pos++
		}
	}
	return escaped, s.Unexpected("in string")
}

// plainStringByte[c] is true for the bytes that stand for themselves inside
// a JSON string: everything but '"', '\\' and control characters.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (s *Scanner) skipNumber() *SyntaxError {
	if s.Peek() == '-' {
		s.Pos++
	}
	switch {
	case s.Peek() == '0':
		s.Pos++
	case isDigit(s.Peek()):
		for isDigit(s.Peek()) {
			s.Pos++
		}
	default:
		return s.Unexpected("in number, expected a digit")
	}
	if s.Peek() == '.' {
		s.Pos++
		if !isDigit(s.Peek()) {
			return s.Unexpected("after decimal point in number, expected a digit")
		}
		for isDigit(s.Peek()) {
			s.Pos++
		}
	}
	if c := s.Peek(); c == 'e' || c == 'E' {
		s.Pos++
		if c := s.Peek(); c == '+' || c == '-' {
			s.Pos++
		}
		if !isDigit(s.Peek()) {
			return s.Unexpected("in exponent of number, expected a digit")
		}
		for isDigit(s.Peek()) {
			s.Pos++
		}
	}
	return nil
}

// skipLiteral moves past lit (true, false or null); an error points at
// the first byte that differs.
func (s *Scanner) skipLiteral(lit string) *SyntaxError {
	if len(s.Data)-s.Pos >= len(lit) && string(s.Data[s.Pos:s.Pos+len(lit)]) == lit {
		s.Pos += len(lit)
		return nil
	}
	for i := 0; i < len(lit) && s.Peek() == lit[i] && s.Pos < len(s.Data); i++ {
		s.Pos++
	}
	return s.Unexpected("in literal " + lit)
}

// Value moves past one JSON value (after leading space) and returns its
// bytes and whether it has insignificant white space inside.
func (s *Scanner) Value() (raw []byte, spaced bool, err *SyntaxError) {
	s.SkipSpace()
	if s.Valid {
		return s.SkipValid(), false, nil
	}
	start := s.Pos
	// A string at the top needs none of the machinery below (most values
	// an importer skips are short strings).
	if s.Peek() == '"' {
		if _, err := s.skipString(); err != nil {
			return nil, false, err
		}
		return s.Data[start:s.Pos], false, nil
	}
	// The open containers: on the goroutine's stack up to 32 deep (a
	// value skipped while reading an export, its metadata, is a few
	// levels deep; a slice grown from nil was one allocation per value).
	var open [32]byte
	stack := open[:0]
	expectValue := true
	for {
		if expectValue {
			if s.Pos >= len(s.Data) {
				return nil, spaced, s.Fail("unexpected end of JSON input")
			}
			switch c := s.Data[s.Pos]; {
			case c == '{' || c == '[':
				if s.MaxDepth > 0 && len(stack) >= s.MaxDepth {
					return nil, spaced, s.Fail(Sprintf("nesting deeper than %d arrays and objects", s.MaxDepth))
				}
				stack = append(stack, c)
				s.Pos++
				p := s.Pos
				s.SkipSpace()
				spaced = spaced || s.Pos != p
				close := byte('}')
				if c == '[' {
					close = ']'
				}
				if s.Peek() == close {
					s.Pos++
					stack = stack[:len(stack)-1]
					expectValue = false
					break
				}
				if c == '{' {
					keySpaced, err := s.objectKey()
					if err != nil {
						return nil, spaced, err
					}
					spaced = spaced || keySpaced
					p := s.Pos
					s.SkipSpace()
					spaced = spaced || s.Pos != p
				}
				continue
			default:
				if err := s.skipScalar(c); err != nil {
					return nil, spaced, err
				}
			}
			expectValue = false
		}
		if len(stack) == 0 {
			return s.Data[start:s.Pos], spaced, nil
		}
		p := s.Pos
		s.SkipSpace()
		spaced = spaced || s.Pos != p
		top := stack[len(stack)-1]
		switch c := s.Peek(); {
		case c == ',':
			s.Pos++
			p := s.Pos
			s.SkipSpace()
			spaced = spaced || s.Pos != p
			if top == '{' {
				keySpaced, err := s.objectKey()
				if err != nil {
					return nil, spaced, err
				}
				spaced = spaced || keySpaced
				p := s.Pos
				s.SkipSpace()
				spaced = spaced || s.Pos != p
			}
			expectValue = true
		case c == '}' && top == '{', c == ']' && top == '[':
			s.Pos++
			stack = stack[:len(stack)-1]
		case top == '{':
			return nil, spaced, s.Unexpected("after object member, expected ',' or '}'")
		default:
			return nil, spaced, s.Unexpected("after array element, expected ',' or ']'")
		}
	}
}

// skipScalar moves past the string, number or literal that starts with c
// (at Pos); anything else is the error of a missing value.
func (s *Scanner) skipScalar(c byte) *SyntaxError {
	switch {
	case c == '"':
		_, err := s.skipString()
		return err
	case c == '-' || isDigit(c):
		return s.skipNumber()
	case c == 't':
		return s.skipLiteral("true")
	case c == 'f':
		return s.skipLiteral("false")
	case c == 'n':
		return s.skipLiteral("null")
	}
	return s.Unexpected("looking for a value")
}

// SkipValid moves past one value of valid, compact JSON and returns its
// bytes: it only matches brackets and finds the ends of strings.
func (s *Scanner) SkipValid() []byte {
	data, start := s.Data, s.Pos
	i, depth := s.Pos, 0
	for i < len(data) {
		switch c := data[i]; c {
		case '"':
			i++
			for i < len(data) {
				i = PlainRun(data, i)
				if i < len(data) && data[i] == '\\' {
					i += 2
					continue
				}
				i++ // the closing quote
				break
			}
		case '{', '[':
			depth++
			i++
			continue
		case '}', ']':
			depth--
			i++
		default:
			if depth == 0 { // a number or literal at the top: up to its end
				for i < len(data) && data[i] != ',' && data[i] != '}' && data[i] != ']' && !IsSpace(data[i]) {
					i++
				}
			} else {
				i++
			}
		}
		if depth == 0 {
			break
		}
	}
	i = min(i, len(data)) // an escape at the very end of bad input
	s.Pos = i
	return data[start:i]
}

// objectKey moves past `"key" :` (space before the colon allowed) and
// reports whether there was space before the colon.
func (s *Scanner) objectKey() (spaced bool, err *SyntaxError) {
	if s.Peek() != '"' {
		return false, s.Unexpected("looking for an object key")
	}
	if _, err := s.skipString(); err != nil {
		return false, err
	}
	p := s.Pos
	s.SkipSpace()
	spaced = s.Pos != p
	if s.Peek() != ':' {
		return spaced, s.Unexpected("after object key, expected ':'")
	}
	s.Pos++
	return spaced, nil
}

// Literal moves past lit when the data at pos starts with it, and
// reports whether it did. The fast paths for the layout sessiontree writes
// (compact, keys in a fixed order) read keys with it instead of scanning
// them; whatever does not match is left to the general parser.
func (s *Scanner) Literal(lit string) bool {
	if len(s.Data)-s.Pos < len(lit) || string(s.Data[s.Pos:s.Pos+len(lit)]) != lit {
		return false
	}
	s.Pos += len(lit)
	return true
}

// PlainToken moves past the string at pos when it has no escapes and no
// control characters, and returns it quotes included; ascii reports that
// its body is all ASCII (so also valid UTF-8), which is known for free for
// the short strings of a node (ids, names, timestamps). ok is false, with
// pos unchanged, for anything else (the general parser then reads it).
func (s *Scanner) PlainToken() (tok []byte, ascii, ok bool) {
	if s.Peek() != '"' {
		return nil, false, false
	}
	data := s.Data
	i, short := s.Pos+1, min(s.Pos+1+plainTokenShort, len(data))
	var high byte // every byte or-ed: its top bit tells non-ASCII
	for i < short && plainStringByte[data[i]] {
		high |= data[i]
		i++
	}
	if i == short && i < len(data) && plainStringByte[data[i]] {
		i = PlainRun(data, i)
		high = utf8.RuneSelf // not looked at
	}
	if i >= len(data) || data[i] != '"' {
		return nil, false, false
	}
	tok = data[s.Pos : i+1]
	s.Pos = i + 1
	return tok, high < utf8.RuneSelf, true
}

// plainTokenShort: PlainToken reads strings up to this many bytes a byte
// at a time, noting whether they are ASCII; longer ones a word at a time.
const plainTokenShort = 32

// Object walks the object at pos: for each member it calls fn with the
// key, and fn must move the scanner past the member's value (with value,
// or by parsing it in place). key is the key's bytes without quotes,
// decoded when it has escapes; it is only valid during the call, and
// `switch string(key)` reads it without allocating. One pass: no value is
// skipped first and read again.
func (s *Scanner) Object(fn func(key []byte) error) error {
	s.SkipSpace()
	if s.Peek() != '{' {
		return s.expected("an object")
	}
	s.Pos++
	s.SkipSpace()
	if s.Peek() == '}' {
		s.Pos++
		return nil
	}
	for {
		s.SkipSpace()
		if s.Peek() != '"' {
			return s.Unexpected("looking for an object key")
		}
		keyStart := s.Pos
		escaped, err := s.skipString()
		if err != nil {
			return err
		}
		key := s.Data[keyStart+1 : s.Pos-1]
		if escaped {
			key = []byte(DecodeString(s.Data[keyStart:s.Pos], true))
		}
		s.SkipSpace()
		if s.Peek() != ':' {
			return s.Unexpected("after object key, expected ':'")
		}
		s.Pos++
		if err := fn(key); err != nil {
			return err
		}
		s.SkipSpace()
		switch s.Peek() {
		case ',':
			s.Pos++
		case '}':
			s.Pos++
			return nil
		default:
			return s.Unexpected("after object member, expected ',' or '}'")
		}
	}
}

// Members calls fn for each member of the object at pos with the decoded
// key and the raw value (sub-slice of the input). It stops early when fn
// returns an error.
func (s *Scanner) Members(fn func(key string, raw []byte, spaced bool) error) error {
	return s.Object(func(key []byte) error {
		raw, spaced, serr := s.Value()
		if serr != nil {
			return serr
		}
		return fn(string(key), raw, spaced)
	})
}

// Array walks the array at pos: for each element it calls fn with its
// index, and fn must move the scanner past the element (see object).
func (s *Scanner) Array(fn func(i int) error) error {
	s.SkipSpace()
	if s.Peek() != '[' {
		return s.expected("an array")
	}
	s.Pos++
	s.SkipSpace()
	if s.Peek() == ']' {
		s.Pos++
		return nil
	}
	for i := 0; ; i++ {
		s.SkipSpace()
		if err := fn(i); err != nil {
			return err
		}
		s.SkipSpace()
		switch s.Peek() {
		case ',':
			s.Pos++
		case ']':
			s.Pos++
			return nil
		default:
			return s.Unexpected("after array element, expected ',' or ']'")
		}
	}
}

// Elements calls fn for each element of the array at pos.
func (s *Scanner) Elements(fn func(i int, raw []byte, spaced bool) error) error {
	return s.Array(func(i int) error {
		raw, spaced, serr := s.Value()
		if serr != nil {
			return serr
		}
		return fn(i, raw, spaced)
	})
}

// End checks that nothing but white space follows.
func (s *Scanner) End() *SyntaxError {
	s.SkipSpace()
	if s.Pos != len(s.Data) {
		return s.Unexpected("after the top-level value")
	}
	return nil
}
