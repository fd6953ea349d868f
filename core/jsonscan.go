package core

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A small validating JSON scanner for the hot paths (requests, snapshots,
// messages). encoding/json re-validates the whole input at every nested
// Unmarshal, so a 22 MB snapshot was scanned about seven times; this scanner
// walks each byte once and hands out sub-slices of the input. It follows
// RFC 8259 exactly (the same grammar encoding/json accepts) and is a loop
// with an explicit stack, so nesting depth is bounded only by memory.

// scanError is a JSON syntax error at a byte offset.
type scanError struct {
	off int
	msg string
}

func (e *scanError) Error() string { return sprintf("%s at byte %d", e.msg, e.off) }

type scanner struct {
	data []byte
	pos  int
	// valid says the data is already known to be valid JSON without
	// insignificant white space (a request field the dispatcher scanned):
	// value then only finds where each value ends (skipValid), which is
	// how a snapshot.load avoids validating every byte several times.
	valid bool
	// spaced is set whenever skipSpace moved: a caller that clears it
	// before a value learns whether the value has white space to compact.
	spaced bool
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *scanner) skipSpace() {
	start := s.pos
	for s.pos < len(s.data) && isSpace(s.data[s.pos]) {
		s.pos++
	}
	if s.pos != start {
		s.spaced = true
	}
}

//go:noinline // failures only (wasm size)
func (s *scanner) fail(msg string) *scanError { return &scanError{off: s.pos, msg: msg} }

func (s *scanner) peek() byte {
	if s.pos < len(s.data) {
		return s.data[s.pos]
	}
	return 0
}

// skipString moves past the string starting at pos (which holds '"') and
// reports whether it has escapes.
func (s *scanner) skipString() (escaped bool, err *scanError) {
	s.pos++ // opening quote
	data := s.data
	for s.pos < len(data) {
		// Plain bytes are the common case (the string bodies of a snapshot
		// are most of its bytes, and this loop was the top of the wasm
		// profile): the first 16 a byte at a time, here — keys, ids and
		// names end within them — then a word at a time.
		i := s.pos
		short := min(i+16, len(data))
		for i < short && plainStringByte[data[i]] {
			i++
		}
		if i == short {
			i = plainRun(data, i)
		}
		s.pos = i
		if i >= len(data) {
			break
		}
		c := data[i]
		switch {
		case c == '"':
			s.pos++
			return escaped, nil
		case c == '\\':
			escaped = true
			if s.pos+1 >= len(s.data) {
				return escaped, s.fail("unexpected end of input in string escape")
			}
			switch s.data[s.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.pos += 2
			case 'u':
				if s.pos+6 > len(s.data) {
					return escaped, s.fail("unexpected end of input in \\u escape")
				}
				for _, h := range s.data[s.pos+2 : s.pos+6] {
					if !isHex(h) {
						return escaped, s.fail("invalid \\u escape")
					}
				}
				s.pos += 6
			default:
				return escaped, s.fail("invalid escape character")
			}
		case c < 0x20:
			return escaped, s.fail("invalid control character in string")
		default:
			s.pos++
		}
	}
	return escaped, s.fail("unexpected end of input in string")
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

func (s *scanner) skipNumber() *scanError {
	if s.peek() == '-' {
		s.pos++
	}
	switch {
	case s.peek() == '0':
		s.pos++
	case isDigit(s.peek()):
		for isDigit(s.peek()) {
			s.pos++
		}
	default:
		return s.fail("invalid number")
	}
	if s.peek() == '.' {
		s.pos++
		if !isDigit(s.peek()) {
			return s.fail("invalid number: digit expected after '.'")
		}
		for isDigit(s.peek()) {
			s.pos++
		}
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		s.pos++
		if c := s.peek(); c == '+' || c == '-' {
			s.pos++
		}
		if !isDigit(s.peek()) {
			return s.fail("invalid number: digit expected in exponent")
		}
		for isDigit(s.peek()) {
			s.pos++
		}
	}
	return nil
}

func (s *scanner) skipLiteral(lit string) *scanError {
	if len(s.data)-s.pos < len(lit) || string(s.data[s.pos:s.pos+len(lit)]) != lit {
		return s.fail("invalid literal")
	}
	s.pos += len(lit)
	return nil
}

// value moves past one JSON value (after leading space) and returns its
// bytes and whether it has insignificant white space inside.
func (s *scanner) value() (raw []byte, spaced bool, err *scanError) {
	s.skipSpace()
	if s.valid {
		return s.skipValid(), false, nil
	}
	start := s.pos
	var stack []byte // open containers
	expectValue := true
	for {
		if expectValue {
			if s.pos >= len(s.data) {
				return nil, spaced, s.fail("unexpected end of input")
			}
			switch c := s.data[s.pos]; {
			case c == '{' || c == '[':
				stack = append(stack, c)
				s.pos++
				p := s.pos
				s.skipSpace()
				spaced = spaced || s.pos != p
				close := byte('}')
				if c == '[' {
					close = ']'
				}
				if s.peek() == close {
					s.pos++
					stack = stack[:len(stack)-1]
					expectValue = false
					break
				}
				if c == '{' {
					if err := s.objectKey(); err != nil {
						return nil, spaced, err
					}
					p := s.pos
					s.skipSpace()
					spaced = spaced || s.pos != p
				}
				continue
			case c == '"':
				if _, err := s.skipString(); err != nil {
					return nil, spaced, err
				}
			case c == '-' || isDigit(c):
				if err := s.skipNumber(); err != nil {
					return nil, spaced, err
				}
			case c == 't':
				if err := s.skipLiteral("true"); err != nil {
					return nil, spaced, err
				}
			case c == 'f':
				if err := s.skipLiteral("false"); err != nil {
					return nil, spaced, err
				}
			case c == 'n':
				if err := s.skipLiteral("null"); err != nil {
					return nil, spaced, err
				}
			default:
				return nil, spaced, s.fail(sprintf("invalid character %q looking for a value", c))
			}
			expectValue = false
		}
		if len(stack) == 0 {
			return s.data[start:s.pos], spaced, nil
		}
		p := s.pos
		s.skipSpace()
		spaced = spaced || s.pos != p
		top := stack[len(stack)-1]
		switch c := s.peek(); {
		case c == ',':
			s.pos++
			p := s.pos
			s.skipSpace()
			spaced = spaced || s.pos != p
			if top == '{' {
				if err := s.objectKey(); err != nil {
					return nil, spaced, err
				}
				p := s.pos
				s.skipSpace()
				spaced = spaced || s.pos != p
			}
			expectValue = true
		case c == '}' && top == '{', c == ']' && top == '[':
			s.pos++
			stack = stack[:len(stack)-1]
		case s.pos >= len(s.data):
			return nil, spaced, s.fail("unexpected end of input")
		default:
			return nil, spaced, s.fail(sprintf("invalid character %q after a value", c))
		}
	}
}

// skipValid moves past one value of valid, compact JSON and returns its
// bytes: it only matches brackets and finds the ends of strings.
func (s *scanner) skipValid() []byte {
	data, start := s.data, s.pos
	i, depth := s.pos, 0
	for i < len(data) {
		switch c := data[i]; c {
		case '"':
			i++
			for i < len(data) {
				i = plainRun(data, i)
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
				for i < len(data) && data[i] != ',' && data[i] != '}' && data[i] != ']' && !isSpace(data[i]) {
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
	s.pos = i
	return data[start:i]
}

// objectKey moves past `"key" :` (space before the colon allowed).
func (s *scanner) objectKey() *scanError {
	if s.peek() != '"' {
		return s.fail("object key expected")
	}
	if _, err := s.skipString(); err != nil {
		return err
	}
	s.skipSpace()
	if s.peek() != ':' {
		return s.fail("':' expected after object key")
	}
	s.pos++
	return nil
}

// fastLayouts turns on the fast paths for the layout sessiontree writes
// (fastNodeFields, fastMessage). Tests turn it off to compare every answer
// with the general parser's (FuzzCall).
var fastLayouts = true

// literal moves past lit when the data at pos starts with it, and
// reports whether it did. The fast paths for the layout sessiontree writes
// (compact, keys in a fixed order) read keys with it instead of scanning
// them; whatever does not match is left to the general parser.
func (s *scanner) literal(lit string) bool {
	if len(s.data)-s.pos < len(lit) || string(s.data[s.pos:s.pos+len(lit)]) != lit {
		return false
	}
	s.pos += len(lit)
	return true
}

// plainToken moves past the string at pos when it has no escapes and no
// control characters, and returns it quotes included; ascii reports that
// its body is all ASCII (so also valid UTF-8), which is known for free for
// the short strings of a node (ids, names, timestamps). ok is false, with
// pos unchanged, for anything else (the general parser then reads it).
func (s *scanner) plainToken() (tok []byte, ascii, ok bool) {
	if s.peek() != '"' {
		return nil, false, false
	}
	data := s.data
	i, short := s.pos+1, min(s.pos+1+plainTokenShort, len(data))
	var high byte // every byte or-ed: its top bit tells non-ASCII
	for i < short && plainStringByte[data[i]] {
		high |= data[i]
		i++
	}
	if i == short && i < len(data) && plainStringByte[data[i]] {
		i = plainRun(data, i)
		high = utf8.RuneSelf // not looked at
	}
	if i >= len(data) || data[i] != '"' {
		return nil, false, false
	}
	tok = data[s.pos : i+1]
	s.pos = i + 1
	return tok, high < utf8.RuneSelf, true
}

// plainTokenShort: plainToken reads strings up to this many bytes a byte
// at a time, noting whether they are ASCII; longer ones a word at a time.
const plainTokenShort = 32

// object walks the object at pos: for each member it calls fn with the
// key, and fn must move the scanner past the member's value (with value,
// or by parsing it in place). key is the key's bytes without quotes,
// decoded when it has escapes; it is only valid during the call, and
// `switch string(key)` reads it without allocating. One pass: no value is
// skipped first and read again.
func (s *scanner) object(fn func(key []byte) error) error {
	s.skipSpace()
	if s.peek() != '{' {
		return s.fail("object expected")
	}
	s.pos++
	s.skipSpace()
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		s.skipSpace()
		if s.peek() != '"' {
			return s.fail("object key expected")
		}
		keyStart := s.pos
		escaped, err := s.skipString()
		if err != nil {
			return err
		}
		key := s.data[keyStart+1 : s.pos-1]
		if escaped {
			key = []byte(decodeString(s.data[keyStart:s.pos], true))
		}
		s.skipSpace()
		if s.peek() != ':' {
			return s.fail("':' expected after object key")
		}
		s.pos++
		if err := fn(key); err != nil {
			return err
		}
		s.skipSpace()
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.fail("',' or '}' expected in object")
		}
	}
}

// members calls fn for each member of the object at pos with the decoded
// key and the raw value (sub-slice of the input). It stops early when fn
// returns an error.
func (s *scanner) members(fn func(key string, raw []byte, spaced bool) error) error {
	return s.object(func(key []byte) error {
		raw, spaced, serr := s.value()
		if serr != nil {
			return serr
		}
		return fn(string(key), raw, spaced)
	})
}

// array walks the array at pos: for each element it calls fn with its
// index, and fn must move the scanner past the element (see object).
func (s *scanner) array(fn func(i int) error) error {
	s.skipSpace()
	if s.peek() != '[' {
		return s.fail("array expected")
	}
	s.pos++
	s.skipSpace()
	if s.peek() == ']' {
		s.pos++
		return nil
	}
	for i := 0; ; i++ {
		s.skipSpace()
		if err := fn(i); err != nil {
			return err
		}
		s.skipSpace()
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.fail("',' or ']' expected in array")
		}
	}
}

// elements calls fn for each element of the array at pos.
func (s *scanner) elements(fn func(i int, raw []byte, spaced bool) error) error {
	return s.array(func(i int) error {
		raw, spaced, serr := s.value()
		if serr != nil {
			return serr
		}
		return fn(i, raw, spaced)
	})
}

// end checks that nothing but white space follows.
func (s *scanner) end() *scanError {
	s.skipSpace()
	if s.pos != len(s.data) {
		return s.fail("unexpected data after the top-level value")
	}
	return nil
}

// decodeString decodes a validated JSON string token (quotes included).
// Invalid UTF-8 and lone surrogate escapes become U+FFFD, as encoding/json
// does.
func decodeString(tok []byte, escaped bool) string {
	body := tok[1 : len(tok)-1]
	if !escaped {
		if utf8.Valid(body) {
			return string(body)
		}
		return string([]rune(string(body)))
	}
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch body[i+1] {
		case '"', '\\', '/':
			out = append(out, body[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(body[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
					if r2 := hex4(body[i+2 : i+6]); utf16.DecodeRune(r, r2) != utf8.RuneError {
						out = utf8.AppendRune(out, utf16.DecodeRune(r, r2))
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		}
		i += 2
	}
	if !utf8.Valid(out) {
		return string([]rune(string(out)))
	}
	return string(out)
}

func hex4(b []byte) rune {
	v, _ := strconv.ParseUint(string(b), 16, 32)
	return rune(v)
}

// plainString returns the body of the string token raw when it has no
// escapes and is valid UTF-8 (the common case), so a caller can compare
// or look it up without allocating; ok is false otherwise (use
// parseString).
func plainString(raw []byte) (body []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	body = raw[1 : len(raw)-1]
	if plainRun(body, 0) != len(body) {
		return nil, false
	}
	if !validUTF8(body) {
		return nil, false
	}
	return body, true
}

// parseString decodes raw as a JSON string value.
func parseString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	s := scanner{data: raw}
	escaped, err := s.skipString()
	if err != nil || s.pos != len(raw) {
		return "", false
	}
	return decodeString(raw, escaped), true
}

// scanObject parses data as one JSON object into a map of raw members
// (last duplicate wins), validating it once.
func scanObject(data []byte) (map[string][]byte, error) {
	return scanObjectOf(data, false)
}

// scanObjectOf is scanObject; valid says data is known to be valid,
// compact JSON (see scanner.valid).
func scanObjectOf(data []byte, valid bool) (map[string][]byte, error) {
	return scanMembers[[]byte](data, valid, nil)
}

// scanMembers reads the members of the object data into a map of raw
// values, compacted when they hold white space (the last of repeated keys
// wins), and checks that nothing follows the object. take, when not nil,
// sees each member first: it may read the value itself, where it stands,
// and report true; false leaves the member to the plain read.
func scanMembers[V ~[]byte](data []byte, valid bool, take func(sc *scanner, key []byte) (bool, error)) (map[string]V, error) {
	sc := scanner{data: data, valid: valid}
	fields := make(map[string]V, 8)
	err := sc.object(func(key []byte) error {
		if take != nil {
			if done, err := take(&sc, key); done || err != nil {
				return err
			}
		}
		v, spaced, err := sc.value()
		if err != nil {
			return err
		}
		if spaced {
			v = compactBytes(v)
		}
		fields[string(key)] = V(v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := sc.end(); err != nil {
		return nil, err
	}
	return fields, nil
}

// compactBytes removes insignificant white space from valid JSON.
func compactBytes(raw []byte) []byte {
	out, err := compactRaw(raw)
	if err != nil {
		return raw
	}
	return out
}

// hasLoneSurrogate reports whether a JSON string token holds a \uD800–\uDFFF
// escape that is not half of a valid pair (decoding would turn it into
// U+FFFD, so two different ids could meet as one).
func hasLoneSurrogate(raw []byte) bool {
	for i := 0; i+5 < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // skip the escaped character
			continue
		}
		r := hex4(raw[i+2 : i+6])
		if r >= 0xd800 && r <= 0xdbff && i+11 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
			if r2 := hex4(raw[i+8 : i+12]); r2 >= 0xdc00 && r2 <= 0xdfff {
				i += 11
				continue
			}
		}
		if r >= 0xd800 && r <= 0xdfff {
			return true
		}
		i += 5
	}
	return false
}
