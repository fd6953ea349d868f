package jsonx

import (
	"bytes"
	"encoding/json"
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
