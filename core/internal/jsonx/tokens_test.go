package jsonx

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTokensReadAsJSONDecoder reads each input token by token with Tokens
// and with json.Decoder and compares the tokens (a Delim as json.Delim).
func TestTokensReadAsJSONDecoder(t *testing.T) {
	for _, in := range []string{
		`{"a":[1,"x\u00e9",true,false,null,{"b":{}}],"c":-2.5e3}`,
		` [ {"k" : "v"} , [ ] , 7 ] `,
		`{"big":1e400}`,
	} {
		var got, want []any
		toks := NewTokens([]byte(in))
		dec := json.NewDecoder(bytes.NewReader([]byte(in)))
		for {
			w, werr := dec.Token()
			if werr != nil {
				break
			}
			if d, ok := w.(json.Delim); ok {
				w = Delim(d)
			}
			want = append(want, w)
			g, err := toks.Token()
			if err != nil {
				got = append(got, err.Error())
				break
			}
			got = append(got, g)
		}
		assert.Equal(t, want, got, "tokens of %s", in)
	}
	_, err := NewTokens([]byte(`1e400`)).Token()
	assert.EqualError(t, err, "json: cannot unmarshal number 1e400 into Go value of type float64")
}

func TestTypeErrorPlainNamesTheFieldAndNoGoType(t *testing.T) {
	data := []byte(`{"a":{"b":"x"},"n":1.5,"l":{},"f":true,"big":1e400}`)
	cases := []struct {
		v, goType, strct, field, want string
	}{
		{`"x"`, "formats.ocTime", "ocMessage", "a.b", `"a.b" must be an object, not a string at byte 13`},
		{`1.5`, "int", "", "n", `"n" must be a whole number in range, not the number 1.5 at byte 22`},
		{`{}`, "[]jsonx.RawMessage", "", "", `the value must be an array, not an object at byte 27`},
		{`true`, "*string", "s", "f", `"f" must be a string, not true or false at byte 38`},
		{`1e400`, "float64", "", "big", `"big" must be a number in range, not the number 1e400 at byte 50`},
	}
	for _, c := range cases {
		at := strings.Index(string(data), c.v)
		err := Mismatch(data, data[at:at+len(c.v)], c.goType, c.strct, c.field)
		assert.Equal(t, c.want, ErrorText(err))
		assert.NotContains(t, ErrorText(err), "Go ")
	}
}
