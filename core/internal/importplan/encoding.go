package importplan

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// ToUTF8 brings an export file's bytes to UTF-8 without a byte order
// mark, as the importers read them: a UTF-8 BOM (EF BB BF, written by
// Windows editors such as Notepad) is dropped, and text in UTF-16 with its
// BOM (FF FE little-endian, FE FF big-endian: PowerShell's `>` and
// Notepad's "Unicode" save) is converted, its unpaired surrogates becoming
// U+FFFD (unicode/utf16.Decode), with note saying so for the report; so is
// UTF-16 without a BOM whose first two characters are ASCII, the first an
// export's (bomlessUTF16).
// UTF-8 with bytes that are not UTF-8 has each such byte replaced by
// U+FFFD (as encoding/json reads them: one for each byte), with note
// counting them: kept, they would make sessions whose snapshots no request
// can carry back. Valid UTF-8 is returned as it is (the same slice, past a
// BOM), note empty. An odd trailing byte of UTF-16 text is dropped, and
// the note says so (a cut-off file: the importers report where its JSON
// ends, and a JSON-lines file keeps its whole lines).
func ToUTF8(data []byte) (out []byte, note string) {
	switch {
	case len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF:
		data = data[3:]
	case len(data) >= 2 && data[0] == 0xFF && data[1] == 0xFE:
		return fromUTF16(data[2:], false), utf16Note("little-endian", len(data))
	case len(data) >= 2 && data[0] == 0xFE && data[1] == 0xFF:
		return fromUTF16(data[2:], true), utf16Note("big-endian", len(data))
	case bomlessUTF16(data, false):
		return fromUTF16(data, false), utf16Note("little-endian, without a byte order mark", len(data))
	case bomlessUTF16(data, true):
		return fromUTF16(data, true), utf16Note("big-endian, without a byte order mark", len(data))
	}
	if jsonx.ValidUTF8(data) {
		return data, ""
	}
	out, bad, first := ReplaceInvalidUTF8(data)
	line := 1 + bytes.Count(data[:first], []byte{'\n'})
	bytesWord := "1 byte"
	if bad != 1 {
		bytesWord = jsonx.Sprintf("%d bytes", bad)
	}
	return out, jsonx.Sprintf("the file is not valid UTF-8: %s (the first on line %d) read as U+FFFD", bytesWord, line)
}

// bomlessUTF16 reports whether data looks like UTF-16 in the byte order
// given (big-endian when big) but without its byte order mark, as some
// tools write it: its first two code units are ASCII, the first one an
// export's first character ('{', '[', '#' of an Aider history, or white
// space), so the bytes of either unit's high half are 0. UTF-8 text never
// has a NUL byte there (JSON allows none outside strings).
func bomlessUTF16(data []byte, big bool) bool {
	if len(data) < 4 {
		return false
	}
	lo, hi := 0, 1
	if big {
		lo, hi = 1, 0
	}
	first, second := data[lo], data[2+lo]
	return data[hi] == 0 && data[2+hi] == 0 && strings.IndexByte("{[# \t\r\n", first) >= 0 &&
		second != 0 && second < utf8.RuneSelf
}

// utf16Note is ToUTF8's note for UTF-16 text of size bytes (its BOM
// included) in the byte order named.
func utf16Note(order string, size int) string {
	note := "the file is UTF-16 (" + order + "); it was read as such"
	if size%2 == 1 {
		note += ", but for its last byte, which is half a character (the file may be cut off)"
	}
	return note
}

// ReplaceInvalidUTF8 returns a copy of b with every byte that does not
// belong to a UTF-8 sequence replaced by U+FFFD (one for each byte, as
// encoding/json reads them), how many there were and the offset of the
// first (−1 for none).
func ReplaceInvalidUTF8(b []byte) (out []byte, bad, first int) {
	out = make([]byte, 0, len(b)+len(b)/8)
	first = -1
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			if first < 0 {
				first = i
			}
			bad++
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out, bad, first
}

// fromUTF16 converts UTF-16 code units (bytes in pairs, big-endian when
// big) to UTF-8, in chunks so that no second copy of the whole text's
// code units is made.
func fromUTF16(b []byte, big bool) []byte {
	out := make([]byte, 0, len(b)/2+len(b)/8)
	units := make([]uint16, 0, 4096)
	for i := 0; i+1 < len(b); {
		units = units[:0]
		for ; i+1 < len(b) && len(units) < cap(units); i += 2 {
			u := uint16(b[i]) | uint16(b[i+1])<<8
			if big {
				u = uint16(b[i])<<8 | uint16(b[i+1])
			}
			units = append(units, u)
		}
		// Keep a high surrogate at the end of the chunk for the next one.
		if n := len(units); n > 0 && utf16.IsSurrogate(rune(units[n-1])) && units[n-1] < 0xDC00 && i+1 < len(b) {
			units = units[:n-1]
			i -= 2
		}
		for _, r := range utf16.Decode(units) {
			out = utf8.AppendRune(out, r)
		}
	}
	return out
}

// IsZIP reports whether data starts as a ZIP archive does: a local file
// header or, for an empty archive, the end of central directory record
// (PKWARE's APPNOTE.TXT, 4.3.7 and 4.3.16).
func IsZIP(data []byte) bool {
	return bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06"))
}

// CROnlyNote is the import report's warning for data read by CROnly.
const CROnlyNote = "the file's lines end in a carriage return alone (CR, as classic Mac OS and some converters write them); each was read as a line end"

// CROnly returns a copy of data with every carriage return ("\r") made a
// line feed ("\n") when data holds carriage returns but no line feed: JSON
// lines or a text export whose lines end in CR alone, otherwise one line
// ("invalid character after the top-level value"). Nil when data holds a
// line feed or no carriage return. JSON allows no raw CR inside a string,
// so the change moves no value; it only separates lines. The importer
// calls it only once the data failed to read as it stands (it scans the
// whole data for a line feed).
func CROnly(data []byte) []byte {
	if bytes.IndexByte(data, '\r') < 0 || bytes.IndexByte(data, '\n') >= 0 {
		return nil
	}
	return bytes.ReplaceAll(data, []byte{'\r'}, []byte{'\n'})
}
