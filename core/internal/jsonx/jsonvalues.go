package jsonx

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeString decodes a validated JSON string token (quotes included).
// Invalid UTF-8 and lone surrogate escapes become U+FFFD, as encoding/json
// does.
func DecodeString(tok []byte, escaped bool) string {
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

// PlainString returns the body of the string token raw when it has no
// escapes and is valid UTF-8 (the common case), so a caller can compare
// or look it up without allocating; ok is false otherwise (use
// ParseString).
func PlainString(raw []byte) (body []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	body = raw[1 : len(raw)-1]
	if PlainRun(body, 0) != len(body) {
		return nil, false
	}
	if !ValidUTF8(body) {
		return nil, false
	}
	return body, true
}

// ParseString decodes raw as a JSON string value.
func ParseString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	s := Scanner{Data: raw}
	escaped, err := s.skipString()
	if err != nil || s.Pos != len(raw) {
		return "", false
	}
	return DecodeString(raw, escaped), true
}

// scanObject parses data as one JSON object into a map of raw members
// (last duplicate wins), validating it once.
func scanObject(data []byte) (map[string][]byte, error) {
	return scanObjectOf(data, false)
}

// scanObjectOf is scanObject; valid says data is known to be valid,
// compact JSON (see scanner.valid).
func scanObjectOf(data []byte, valid bool) (map[string][]byte, error) {
	return ScanMembers[[]byte](data, valid, nil)
}

// ScanMembers reads the members of the object data into a map of raw
// values, compacted when they hold white space (the last of repeated keys
// wins), and checks that nothing follows the object. take, when not nil,
// sees each member first: it may read the value itself, where it stands,
// and report true; false leaves the member to the plain read.
func ScanMembers[V ~[]byte](data []byte, valid bool, take func(sc *Scanner, key []byte) (bool, error)) (map[string]V, error) {
	sc := Scanner{Data: data, Valid: valid}
	fields := make(map[string]V, 8)
	err := sc.Object(func(key []byte) error {
		if take != nil {
			if done, err := take(&sc, key); done || err != nil {
				return err
			}
		}
		v, spaced, err := sc.Value()
		if err != nil {
			return err
		}
		if spaced {
			v = CompactBytes(v)
		}
		fields[string(key)] = V(v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := sc.End(); err != nil {
		return nil, err
	}
	return fields, nil
}

// CompactBytes returns a copy of raw, which must be valid JSON (a value
// the Scanner has read), without insignificant white space. It does not
// check raw again: use CompactRaw for text that may not be JSON.
func CompactBytes(raw []byte) []byte {
	return compactValid(make([]byte, 0, len(raw)), raw)
}

// LoneSurrogate returns the byte offset in the JSON text raw of the first
// \uD800–\uDFFF escape that is not half of a valid pair, or -1 when there
// is none; the escape is raw[at:at+6]. Decoding turns such an escape into
// U+FFFD, so two different ids could meet as one, and an imported record
// would silently lose a character.
func LoneSurrogate(raw []byte) (at int) {
	for i := 0; i+5 < len(raw); i++ {
		if raw[i] != '\\' {
			// To the next backslash at once: IndexByte has wasm assembly,
			// where a byte loop costs about 4 ns a byte.
			k := bytes.IndexByte(raw[i:], '\\')
			if k < 0 || i+k+5 >= len(raw) {
				return -1
			}
			i += k
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
			return i
		}
		i += 5
	}
	return -1
}

// HasInsignificantSpace reports whether valid JSON has white space outside
// its strings.
func HasInsignificantSpace(raw []byte) bool {
	in := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && IsSpace(c):
			return true
		}
	}
	return false
}
