package jsonx

import "unicode/utf8"

// AppendStringTokens appends, as one JSON string, the texts of the string
// tokens toks (quotes included, each valid JSON) joined by sep, which must
// be plain text (no quote, backslash, control character or non-ASCII
// byte). The bytes are AppendString's of the decoded, joined text; when
// every token is already written as AppendString writes it (escapes only
// \" \\ \n \r \t, valid UTF-8 without U+2028 or U+2029: what
// JSON.stringify and encoding/json write for chat text) the token bodies
// are copied as they are, one pass each, instead of decoded and escaped
// again. The importers use it to turn an export's text into a message's.
func AppendStringTokens(b []byte, toks [][]byte, sep string) []byte {
	for _, tok := range toks {
		if !canonicalStringBody(tok[1 : len(tok)-1]) {
			return appendDecodedTokens(b, toks, sep)
		}
	}
	esc := escapedNewline
	if sep != "\n" {
		esc = AppendString(nil, sep)
		esc = esc[1 : len(esc)-1]
	}
	b = append(b, '"')
	for i, tok := range toks {
		if i > 0 {
			b = append(b, esc...)
		}
		b = append(b, tok[1:len(tok)-1]...)
	}
	return append(b, '"')
}

// escapedNewline is "\n" as AppendString writes it in a string's body:
// the separator the importers join parts with, escaped once.
var escapedNewline = []byte(`\n`)

// appendDecodedTokens is AppendStringTokens by decoding each token.
func appendDecodedTokens(b []byte, toks [][]byte, sep string) []byte {
	text := make([]byte, 0, 64)
	for i, tok := range toks {
		if i > 0 {
			text = append(text, sep...)
		}
		text = append(text, DecodeString(tok, true)...)
	}
	return AppendString(b, string(text))
}

// canonicalStringBody reports whether body, a valid JSON string body, is
// what AppendString writes for its decoded text.
func canonicalStringBody(body []byte) bool {
	i := 0
	for i < len(body) {
		for i+8 <= len(body) && !mayEndPlain(load64(body, i)) && load64(body, i)&swarHigh == 0 {
			i += 8
		}
		if i >= len(body) {
			break
		}
		switch c := body[i]; {
		case c == '\\':
			switch body[i+1] {
			case '"', '\\', 'n', 'r', 't':
				i += 2
			default:
				return false
			}
		case c < 0x20 || c == '"':
			return false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				return false
			}
			i += size
		}
	}
	return true
}
