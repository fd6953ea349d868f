package core

import (
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// utf16Bytes writes s as UTF-16 with its byte order mark.
func utf16Bytes(s string, big bool) []byte {
	var b []byte
	var order binary.AppendByteOrder = binary.LittleEndian
	b = append(b, 0xFF, 0xFE)
	if big {
		order = binary.BigEndian
		b = []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = order.AppendUint16(b, u)
	}
	return b
}

func TestImportEncodingReadsBOMsAndUTF16(t *testing.T) {
	// A pair split across the converter's 4,096-unit chunks stays one character.
	long := strings.Repeat("a", 4095) + "🎉 é 漢字"
	for _, tc := range []struct {
		name, note string
		in         []byte
		want       string
	}{
		{"plain UTF-8", "", []byte(`{"a":"é"}`), `{"a":"é"}`},
		{"UTF-8 with a BOM", "", append([]byte{0xEF, 0xBB, 0xBF}, `{"a":"é"}`...), `{"a":"é"}`},
		{"UTF-16 LE", "the file is UTF-16 (little-endian); it was read as such", utf16Bytes(`{"a":"é 🎉"}`, false), `{"a":"é 🎉"}`},
		{"UTF-16 BE", "the file is UTF-16 (big-endian); it was read as such", utf16Bytes(`{"a":"漢字"}`, true), `{"a":"漢字"}`},
		{"UTF-16 LE across chunks", "the file is UTF-16 (little-endian); it was read as such", utf16Bytes(long, false), long},
		{"a lone surrogate", "the file is UTF-16 (little-endian); it was read as such", []byte{0xFF, 0xFE, 'x', 0, 0x00, 0xD8, 'y', 0}, "x\uFFFDy"},
		{"an odd last byte", "the file is UTF-16 (little-endian); it was read as such", []byte{0xFF, 0xFE, '[', 0, ']', 0, 'z'}, "[]"},
		{"a BOM alone", "the file is UTF-16 (little-endian); it was read as such", []byte{0xFF, 0xFE}, ""},
	} {
		out, note := importEncoding(tc.in)
		assert.Equal(t, tc.want, string(out), tc.name)
		assert.Equal(t, tc.note, note, tc.name)
	}
}

func TestImportReadsAUTF16OrBOMExport(t *testing.T) {
	pi := "{\"type\":\"session\",\"version\":3,\"id\":\"enc\",\"timestamp\":\"2025-10-09T08:53:20.000Z\",\"cwd\":\"/w\"}\n" +
		"{\"type\":\"message\",\"id\":\"a1\",\"parentId\":null,\"timestamp\":\"2025-10-09T08:53:26.649Z\",\"message\":{\"role\":\"user\",\"content\":\"héllo 🎉\"}}\n"
	plain, err := New(Options{}).Import([]byte(pi), "auto")
	require.Nil(t, err)
	for _, tc := range []struct {
		name string
		data []byte
		note string
	}{
		{"UTF-8 with a BOM", append([]byte{0xEF, 0xBB, 0xBF}, pi...), ""},
		{"UTF-16 LE", utf16Bytes(pi, false), "the file is UTF-16 (little-endian); it was read as such"},
		{"UTF-16 BE", utf16Bytes(pi, true), "the file is UTF-16 (big-endian); it was read as such"},
	} {
		st := New(Options{})
		res, err := st.Import(tc.data, "auto")
		require.Nil(t, err, tc.name)
		assert.Equal(t, "pi", res.Format, tc.name)
		assert.Equal(t, plain.Sessions, res.Sessions, tc.name)
		var notes []string
		for _, w := range res.Warnings {
			notes = append(notes, w.Message)
		}
		if tc.note == "" {
			assert.Equal(t, len(plain.Warnings), len(res.Warnings), tc.name)
		} else {
			assert.Equal(t, tc.note, notes[0], tc.name)
		}
		ctx := string(st.Call([]byte(`{"operation":"context","sessionId":"enc"}`)))
		assert.Contains(t, ctx, `"content":"héllo 🎉"`, tc.name)
	}
}
