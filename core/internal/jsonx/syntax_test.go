package jsonx

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSyntaxErrorsSayWhatAndWhere pins the wording and the position of
// each kind of syntax error.
func TestSyntaxErrorsSayWhatAndWhere(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"empty input", ``, `unexpected end of JSON input at line 1, column 1`},
		{"only white space", "\n\n", `unexpected end of JSON input at line 3, column 1`},
		{"a cut-off object", "{\n  \"a\": [1,\n", `unexpected end of JSON input at line 3, column 1`},
		{"a cut-off string", `"abc`, `unexpected end of JSON input at line 1, column 5`},
		{"a cut-off literal", `tru`, `unexpected end of JSON input at line 1, column 4`},
		{"a bad character after a key", "{\n  \"name\": \"x\",\n  \"b\" x\n}", `invalid character 'x' after object key, expected ':' at line 3, column 7`},
		{"a bad character after a member", `{"a":1 "b":2}`, `invalid character '"' after object member, expected ',' or '}' at line 1, column 8`},
		{"a bad character after an element", `[1 2]`, `invalid character '2' after array element, expected ',' or ']' at line 1, column 4`},
		{"a trailing comma in an object", `{"a":1,}`, `invalid character '}' looking for an object key at line 1, column 8`},
		{"a trailing comma in an array", `[1,]`, `invalid character ']' looking for a value at line 1, column 4`},
		{"a single quote", `{'a':1}`, `invalid character '\'' looking for an object key at line 1, column 2`},
		{"data after the value", "{}\n x", `invalid character 'x' after the top-level value at line 2, column 2`},
		{"a bad escape", `"a\x"`, `invalid character 'x' in string escape, expected ", \, /, b, f, n, r, t or u at line 1, column 4`},
		{"a bad unicode escape", `"\u12g4"`, `invalid character 'g' in \u escape, expected a hex digit at line 1, column 6`},
		{"a control character in a string", "\"a\tb\"", `invalid character '\t' in string, control characters must be escaped at line 1, column 3`},
		{"a misspelt literal", `[nul]`, `invalid character ']' in literal null at line 1, column 5`},
		{"a number without digits", `-x`, `invalid character 'x' in number, expected a digit at line 1, column 2`},
		{"a number without a fraction", `1.e5`, `invalid character 'e' after decimal point in number, expected a digit at line 1, column 3`},
		{"a number without an exponent", `1e+`, `unexpected end of JSON input at line 1, column 4`},
		{"a leading zero", `01`, `invalid character '1' after the top-level value at line 1, column 2`},
		{"a non-ASCII character is named whole", `[é]`, `invalid character 'é' looking for a value at line 1, column 2`},
		{"a byte that is not UTF-8 is named as a byte", "[\xff]", `invalid character byte 0xFF looking for a value at line 1, column 2`},
		{"columns count bytes", `["é" x]`, `invalid character 'x' after array element, expected ',' or ']' at line 1, column 7`},
		{"too deep", strings.Repeat("[", MaxDepth+1), `nesting deeper than 10000 arrays and objects at line 1, column 10001`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckSyntax([]byte(tc.in))
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.False(t, Valid([]byte(tc.in)))
		})
	}
}

func TestNestingUpToMaxDepthIsValidAsInEncodingJSON(t *testing.T) {
	for _, depth := range []int{MaxDepth, MaxDepth + 1} {
		in := []byte(strings.Repeat(`{"a":[`, depth/2) + strings.Repeat(`]}`, depth/2))
		if depth%2 == 1 {
			in = []byte("[" + string(in) + "]")
		}
		assert.Equal(t, json.Valid(in), Valid(in), "depth %d", depth)
		assert.Equal(t, depth <= MaxDepth, Valid(in), "depth %d", depth)
	}
	s := Scanner{Data: []byte(strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1))}
	_, _, err := s.Value()
	assert.Nil(t, err, "a Scanner without MaxDepth takes any depth")
}

func TestAPositionInAFieldCanBeMoved(t *testing.T) {
	se, ok := CheckSyntax([]byte(`{"a" 1}`)).(*SyntaxError)
	require.True(t, ok)
	assert.Equal(t, SyntaxError{Offset: 5, Line: 1, Column: 6, Msg: `invalid character '1' after object key, expected ':'`}, *se)
	se.Line, se.Column = 7, se.Column+2
	assert.Equal(t, `invalid character '1' after object key, expected ':' at line 7, column 8`, se.Error())
}
