package jsonx

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fieldInputs are values tried with each narrow reader: every JSON type,
// white space around, escapes, numbers out of range or with fractions.
var fieldInputs = []string{
	`null`, ` null `, `"s"`, ` "a\"\u00e9\ud800" `, `""`, `0`, `-2`, ` 7 `, `1.5`, `1e3`, `1e400`, `-9223372036854775809`,
	`9223372036854775807`, `true`, `false`, `{}`, `{"a":1}`, `[]`, ` [ 1 , "x" , null , {"b" : [ ] } ] `, `["a","b"]`, `["a",null,2]`,
}

// TestReadersDecodeLikeEncodingJSON reads each input with each Read
// function and with json.Unmarshal into the same Go type, starting from
// the same value, and compares the results and whether both failed.
func TestReadersDecodeLikeEncodingJSON(t *testing.T) {
	for _, in := range fieldInputs {
		data := []byte(in)
		t.Run(in, func(t *testing.T) {
			s, ws := "keep", "keep"
			assert.Equal(t, json.Unmarshal(data, &ws) == nil, ReadString(data, &s), "ReadString ok")
			assert.Equal(t, ws, s, "ReadString")

			var sp, wsp *string
			assert.Equal(t, json.Unmarshal(data, &wsp) == nil, ReadStringPtr(data, &sp), "ReadStringPtr ok")
			assert.Equal(t, wsp, sp, "ReadStringPtr")

			b, wb := true, true
			assert.Equal(t, json.Unmarshal(data, &wb) == nil, ReadBool(data, &b), "ReadBool ok")
			assert.Equal(t, wb, b, "ReadBool")

			f, wf := 3.0, 3.0
			assert.Equal(t, json.Unmarshal(data, &wf) == nil, ReadFloat(data, &f), "ReadFloat ok")
			assert.Equal(t, wf, f, "ReadFloat")

			n, wn := 3, 3
			assert.Equal(t, json.Unmarshal(data, &wn) == nil, ReadInt(data, &n), "ReadInt ok")
			assert.Equal(t, wn, n, "ReadInt")

			u, wu := uint64(3), uint64(3)
			assert.Equal(t, json.Unmarshal(data, &wu) == nil, ReadUint(data, &u), "ReadUint ok")
			assert.Equal(t, wu, u, "ReadUint")

			var np, wnp *int
			assert.Equal(t, json.Unmarshal(data, &wnp) == nil, ReadIntPtr(data, &np), "ReadIntPtr ok")
			assert.Equal(t, wnp, np, "ReadIntPtr")

			var raws, wraws []RawMessage
			assert.Equal(t, json.Unmarshal(data, &wraws) == nil, ReadRaws(data, &raws), "ReadRaws ok")
			assert.Equal(t, wraws, raws, "ReadRaws")

			var m, wm map[string]RawMessage
			assert.Equal(t, json.Unmarshal(data, &wm) == nil, ReadRawMap(data, &m), "ReadRawMap ok")
			assert.Equal(t, wm, m, "ReadRawMap")

			var strs, wstrs []string
			assert.Equal(t, json.Unmarshal(data, &wstrs) == nil, ReadStrings(data, &strs), "ReadStrings ok")
			assert.Equal(t, wstrs, strs, "ReadStrings")
		})
	}
}

func TestMatchFindsFieldsAsEncodingJSONDoes(t *testing.T) {
	names := []string{"id", "Name", "parentID", "skip"}
	cases := []struct {
		key  string
		want int
	}{{"id", 0}, {"ID", 0}, {"name", 1}, {"Name", 1}, {"parentid", 2}, {"PARENTID", 2}, {"\u212aey", -1}, {"other", -1}, {"", -1}, {"\u017fkip", 3}}
	for _, tc := range cases {
		assert.Equal(t, tc.want, Match([]byte(tc.key), names), "Match(%q)", tc.key)
	}
}

// unmarshalText is err's Error() (encoding/json's wording) with, for a
// *TypeError, the offset where it stands.
func unmarshalText(err error) string {
	if e, ok := err.(*TypeError); ok {
		return Sprintf("%s at byte %d", e.Error(), e.Offset)
	}
	return err.Error()
}

// TestMismatchWordsTheErrorAsUnmarshal holds Mismatch to encoding/json's
// wording of the same misfit (with its offset: unmarshalText).
func TestMismatchWordsTheErrorAsUnmarshal(t *testing.T) {
	jsonText := func(err error) string {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// encoding/json places an object's or array's misfit past its
			// bracket; jsonx at the value's first byte.
			off := te.Offset
			if te.Value == "object" || te.Value == "array" {
				off--
			}
			return Sprintf("%s at byte %d", err.Error(), off)
		}
		return err.Error()
	}
	type rec struct {
		History []RawMessage `json:"history"`
	}
	for _, in := range []string{`{"history":"x"}`, `{"history":1.5}`, `{"history": true }`, `{"history":{}}`} {
		data := []byte(in)
		var r rec
		want := json.Unmarshal(data, &r)
		var got error
		ReadObject(data, []string{"history"}, func(_ int, v []byte) {
			if !ReadRaws(v, &r.History) {
				got = Mismatch(data, v, "[]jsonx.RawMessage", "rec", "history")
			}
		})
		assert.Equal(t, jsonText(want), unmarshalText(got), "%s", in)
	}
	type sized struct {
		Size *int `json:"size"`
	}
	for _, in := range []string{`{"size":1.5}`, `{"size":"1"}`, `{"size":1e99}`} {
		data := []byte(in)
		var r sized
		want := json.Unmarshal(data, &r)
		var got error
		ReadObject(data, []string{"size"}, func(_ int, v []byte) {
			if !ReadIntPtr(v, &r.Size) {
				got = Mismatch(data, v, "int", "sized", "size")
			}
		})
		assert.Equal(t, jsonText(want), unmarshalText(got), "%s", in)
	}
	for _, in := range []string{`"x"`, ` 1 `, `{"a":1}`, `true`} {
		var list []RawMessage
		want := json.Unmarshal([]byte(in), &list)
		assert.Equal(t, jsonText(want), unmarshalText(Mismatch([]byte(in), []byte(in), "[]jsonx.RawMessage", "", "")), "%s", in)
	}
}

func TestReadersRejectTextThatIsNotJSON(t *testing.T) {
	for _, in := range []string{``, ` `, `[1,`, `{"a":}`, `{"a":1} x`, `"x`, `1 2`, `tru`, `nul`, `[1] ]`, `-`, `01`} {
		data := []byte(in)
		var s string
		var sp *string
		var b bool
		var f float64
		var n int
		var np *int
		var raws []RawMessage
		var m map[string]RawMessage
		var strs []string
		got := []bool{ReadString(data, &s), ReadStringPtr(data, &sp), ReadBool(data, &b), ReadFloat(data, &f), ReadInt(data, &n),
			ReadIntPtr(data, &np), ReadRaws(data, &raws), ReadRawMap(data, &m), ReadStrings(data, &strs),
			ReadObject(data, nil, func(int, []byte) {}), ReadArray(data, func(int, []byte) {})}
		assert.Equal(t, make([]bool, len(got)), got, "readers of %q", in)
	}
}
