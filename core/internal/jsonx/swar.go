package jsonx

import (
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Word-at-a-time byte scans for the loops that see every byte of a
// snapshot: a JSON string's plain bytes and the request's UTF-8 check. In
// wasm a byte loop costs about 4 ns a byte; reading eight bytes as one
// uint64 and testing them together with the bit tricks of "Bit Twiddling
// Hacks" (Sean Eron Anderson, "Determine if a word has a zero byte" and
// "… has a byte less than n") made the string scan 3.2 times faster in
// wasm (273 → 887 MB/s on chat text; 650 → 3,035 MB/s natively).

const (
	swarOnes = 0x0101010101010101 // 0x01 in every byte
	swarHigh = 0x8080808080808080 // 0x80 in every byte
)

// load64 reads b[i:i+8] as one machine word (the caller checks
// i+8 <= len(b)). The byte order does not matter to the tests below,
// which only ask whether any byte of the word matches. Unaligned loads are
// fine on wasm, amd64 and arm64, the targets core is built for.
func load64(b []byte, i int) uint64 {
	_ = b[i+7]
	return *(*uint64)(unsafe.Pointer(&b[i]))
}

// PlainRun returns the first offset at or after i whose byte is not plain
// inside a JSON string ('"', '\\' or a control character below 0x20), or
// len(b).
func PlainRun(b []byte, i int) int {
	for i+8 <= len(b) && !mayEndPlain(load64(b, i)) {
		i += 8
	}
	for i < len(b) && plainStringByte[b[i]] {
		i++
	}
	return i
}

// mayEndPlain reports whether word w may hold a byte that is not plain
// inside a JSON string ('"', '\\' or below 0x20). It never misses one; a
// false alarm only sends the caller to its byte loop.
func mayEndPlain(w uint64) bool {
	q := w ^ ('"' * swarOnes)
	s := w ^ ('\\' * swarOnes)
	return ((q-swarOnes)&^q|(s-swarOnes)&^s|(w-0x20*swarOnes)&^w)&swarHigh != 0
}

// ValidUTF8 is utf8.Valid with a word-at-a-time pass over ASCII, which is
// most of a chat snapshot (utf8.Valid reads byte by byte in wasm).
func ValidUTF8(b []byte) bool {
	i := 0
	for i < len(b) {
		for i+8 <= len(b) && load64(b, i)&swarHigh == 0 {
			i += 8
		}
		for i < len(b) && b[i] < utf8.RuneSelf {
			i++
			if i&7 == 0 {
				break // back to whole words
			}
		}
		if i < len(b) && b[i] >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			i += size
		}
	}
	return true
}

// store64 writes w to b[i:i+8] (the caller checks i+8 <= len(b)).
func store64(b []byte, i int, w uint64) {
	_ = b[i+7]
	*(*uint64)(unsafe.Pointer(&b[i])) = w
}

// asciiGiveUp: AppendASCII stops escaping once more than one byte in
// asciiGiveUp of those it copied (past the first asciiFreeBytes) was
// non-ASCII. Measured in Chromium for a 100,000-message context: with
// 0.3 % non-ASCII characters the escaped text decodes in 20 ms instead of
// 75 and parses in 41 ms instead of 53; with mostly Chinese text it is
// 1.8 times longer and parses in 126 ms instead of 73 — worse.
const (
	asciiGiveUp    = 16
	asciiFreeBytes = 64 << 10
)

// ASCIIBudget counts what AppendASCII copied, to give up on text that is
// not mostly ASCII.
type ASCIIBudget struct {
	copied, nonASCII int
}

// exceeded reports whether too much of the text copied so far was
// non-ASCII for escaping to pay.
func (a *ASCIIBudget) exceeded() bool {
	return a.copied > asciiFreeBytes && a.nonASCII*asciiGiveUp > a.copied
}

// AppendASCII appends src — valid JSON, so non-ASCII bytes stand only
// inside strings — with every non-ASCII character written as a \uXXXX
// escape (a UTF-16 surrogate pair above U+FFFF): the same JSON value in
// pure ASCII, which a browser's TextDecoder turns into a string about four
// times faster than UTF-8 with some non-ASCII in it (the whole string must
// then be two bytes a character). ASCII is copied a word at a time. It
// returns ok false, with b's content unspecified past its old length, when
// budget is exceeded, or at bytes that are not UTF-8 (Store.Import takes
// bytes as they are): a browser's TextDecoder writes one U+FFFD per
// maximal invalid subpart, so escaping them one by one would give another
// value than the bytes.
func AppendASCII(b, src []byte, budget *ASCIIBudget) (_ []byte, ok bool) {
	n := len(b)
	b = growASCII(b, n, len(src)+16)
	i := 0
	for i < len(src) {
		for i+8 <= len(src) && n+8 <= len(b) {
			w := load64(src, i)
			if w&swarHigh != 0 {
				break
			}
			store64(b, n, w)
			i += 8
			n += 8
		}
		for i < len(src) && src[i] < utf8.RuneSelf && n < len(b) {
			b[n] = src[i]
			i++
			n++
			if i&7 == 0 {
				break
			}
		}
		if i >= len(src) {
			break
		}
		if n+12 > len(b) { // room for two escapes, and for the next word
			b = growASCII(b, n, len(src)-i+16)
		}
		if src[i] < utf8.RuneSelf {
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			return b[:n], false // not UTF-8: the caller's decoder replaces it its own way
		}
		budget.nonASCII += size
		i += size
		if copied := budget.copied + i; copied > asciiFreeBytes && budget.nonASCII*asciiGiveUp > copied {
			return b[:n], false // one long message that is not mostly ASCII
		}
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			n = putEscape(b, n, hi)
			n = putEscape(b, n, lo)
		} else {
			n = putEscape(b, n, r)
		}
	}
	budget.copied += len(src)
	return b[:n], !budget.exceeded()
}

// putEscape writes \uXXXX for r (≤ U+FFFF) at b[n:n+6] and returns n+6.
func putEscape(b []byte, n int, r rune) int {
	const hex = "0123456789abcdef"
	_ = b[n+5]
	b[n], b[n+1] = '\\', 'u'
	b[n+2], b[n+3], b[n+4], b[n+5] = hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf]
	return n + 6
}

// growASCII returns b (holding n bytes) resliced to its whole capacity,
// with at least need bytes free after n; a new array at least doubles, so
// escapes that outgrow the caller's estimate cost amortised constant time.
func growASCII(b []byte, n, need int) []byte {
	if cap(b)-n < need {
		nb := make([]byte, n, 2*cap(b)+need)
		copy(nb, b[:n])
		b = nb
	}
	return b[:cap(b)]
}

// AppendStringBody appends the text of the JSON string body at the start
// of s (just after its opening quote) to b, which must have room for
// len(s) more bytes, and returns what follows the closing quote and
// whether the text is all ASCII. One pass, a word at a time over plain
// bytes (see PlainRun). ok is false, with b's content past its length
// unspecified, for an escape of a UTF-16 surrogate (JSON.parse keeps a
// lone one, which UTF-8 cannot carry) or text that is not valid JSON.
func AppendStringBody(b, s []byte) (out, rest []byte, ascii, ok bool) {
	n := len(b)
	b = b[:cap(b)]
	if len(b)-n < len(s) {
		return b[:n], nil, false, false
	}
	var high uint64 // every byte copied, or-ed: its 0x80 bits tell non-ASCII
	i := 0
	for {
		for i+8 <= len(s) {
			w := load64(s, i)
			if mayEndPlain(w) {
				break
			}
			store64(b, n, w)
			high |= w
			i += 8
			n += 8
		}
		for i < len(s) && plainStringByte[s[i]] {
			b[n] = s[i]
			high |= uint64(s[i])
			i++
			n++
			if i&7 == 0 {
				break // back to whole words
			}
		}
		switch {
		case i >= len(s):
			return b[:n], nil, false, false
		case plainStringByte[s[i]]:
			continue
		case s[i] == '"':
			return b[:n], s[i+1:], high&swarHigh == 0, true
		case s[i] != '\\' || i+1 >= len(s):
			return b[:n], nil, false, false
		}
		switch c := s[i+1]; c {
		case '"', '\\', '/':
			b[n] = c
		case 'b':
			b[n] = '\b'
		case 'f':
			b[n] = '\f'
		case 'n':
			b[n] = '\n'
		case 'r':
			b[n] = '\r'
		case 't':
			b[n] = '\t'
		case 'u':
			if i+6 > len(s) {
				return b[:n], nil, false, false
			}
			r := rune(0)
			for _, h := range s[i+2 : i+6] {
				switch {
				case '0' <= h && h <= '9':
					r = r<<4 | rune(h-'0')
				case 'a' <= h && h <= 'f':
					r = r<<4 | rune(h-'a'+10)
				case 'A' <= h && h <= 'F':
					r = r<<4 | rune(h-'A'+10)
				default:
					return b[:n], nil, false, false
				}
			}
			if 0xD800 <= r && r < 0xE000 {
				return b[:n], nil, false, false
			}
			size := utf8.EncodeRune(b[n:], r)
			high |= uint64(b[n])
			n += size
			i += 6
			continue
		default:
			return b[:n], nil, false, false
		}
		n++
		i += 2
	}
}
