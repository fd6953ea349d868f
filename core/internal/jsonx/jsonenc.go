package jsonx

import (
	"strconv"
	"unicode/utf8"
)

// AppendString appends s as a JSON string, escaping as encoding/json does
// with HTML escaping turned off: quotes, backslashes, control characters,
// U+2028 and U+2029; invalid UTF-8 becomes U+FFFD. Backspace and form feed
// become \u0008 and \u000c (the hand-written snapshot and tree forms have
// always written them so); appendStringEscaped with short set writes \b
// and \f as encoding/json since Go 1.22 does.
func AppendString(b []byte, s string) []byte {
	return appendStringEscaped(b, s, false)
}

// appendStringEscaped is AppendString; short writes \b and \f for
// backspace and form feed (the reflection encoder, as encoding/json).
func appendStringEscaped(b []byte, s string, short bool) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b', '\f':
				if short {
					e := byte('b')
					if c == '\f' {
						e = 'f'
					}
					b = append(b, '\\', e)
					break
				}
				b = append(b, '\\', 'u', '0', '0', '0', hex[c&0xf])
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendNullableString appends s as a JSON string, or null when s is empty.
func AppendNullableString(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return AppendString(b, s)
}

// AppendKey appends key as a JSON string followed by a colon.
func AppendKey(b []byte, key string) []byte {
	b = AppendString(b, key)
	return append(b, ':')
}

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte {
	return strconv.AppendBool(b, v)
}

// AppendInt appends v in decimal.
func AppendInt(b []byte, v int) []byte {
	return strconv.AppendInt(b, int64(v), 10)
}

// AppendOptString appends *s as a JSON string, or null when s is nil.
func AppendOptString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return AppendString(b, *s)
}
