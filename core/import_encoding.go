package core

import (
	"unicode/utf16"
	"unicode/utf8"
)

// importEncoding brings an export file's bytes to UTF-8 without a byte
// order mark, as the importers read them: a UTF-8 BOM (EF BB BF, written
// by Windows editors such as Notepad) is dropped, and text in UTF-16 with
// its BOM (FF FE little-endian, FE FF big-endian: PowerShell's `>` and
// Notepad's "Unicode" save) is converted, its unpaired surrogates becoming
// U+FFFD (unicode/utf16.Decode), with note saying so for the report.
// Any other bytes are returned as they are, note empty. An odd trailing
// byte of UTF-16 text is dropped (a cut-off file: the importers report
// where its JSON ends).
func importEncoding(data []byte) (out []byte, note string) {
	switch {
	case len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF:
		return data[3:], ""
	case len(data) >= 2 && data[0] == 0xFF && data[1] == 0xFE:
		return fromUTF16(data[2:], false), "the file is UTF-16 (little-endian); it was read as such"
	case len(data) >= 2 && data[0] == 0xFE && data[1] == 0xFF:
		return fromUTF16(data[2:], true), "the file is UTF-16 (big-endian); it was read as such"
	}
	return data, ""
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
