package jsonx

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// loneSurrogateByParse is the reference: every \uXXXX escape read with
// strconv, a high surrogate followed by a low one skipped as a pair.
func loneSurrogateByParse(raw []byte) int {
	hexAt := func(i int) (rune, bool) {
		if i+6 > len(raw) || raw[i] != '\\' || raw[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 16)
		return rune(v), err == nil
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		if raw[i+1] != 'u' {
			i++
			continue
		}
		r, _ := hexAt(i)
		switch {
		case r >= 0xd800 && r < 0xdc00:
			if r2, ok := hexAt(i + 6); ok && r2 >= 0xdc00 && r2 < 0xe000 {
				i += 11
				continue
			}
			return i
		case r >= 0xdc00 && r < 0xe000:
			return i
		}
		i += 5
	}
	return -1
}

func TestLoneSurrogateFindsTheFirstUnpairedHalf(t *testing.T) {
	cases := []struct {
		raw  string
		want int
	}{
		{`"plain"`, -1},
		{`"\ud83c\udf89"`, -1},
		{`"a \ud800 b"`, 3},
		{`"\udc00"`, 1},
		{`"\ud83c\udf89 then \udfff"`, 19},
		{`"\\ud800"`, -1},
		{`{"a":"\ud800\u0041"}`, 6},
		{`"\ud800\ud800\udc00"`, 1},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, LoneSurrogate([]byte(tc.raw)), "LoneSurrogate(%s)", tc.raw)
		assert.Equal(t, tc.want, loneSurrogateByParse([]byte(tc.raw)), "reference(%s)", tc.raw)
	}
}

// FuzzLoneSurrogate compares LoneSurrogate with the reference on valid JSON.
func FuzzLoneSurrogate(f *testing.F) {
	for _, s := range []string{`"\ud800"`, `"\ud83c\udf89"`, `["\udc00",1]`, `{"k":"\\u12"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		if got, want := LoneSurrogate(raw), loneSurrogateByParse(raw); got != want {
			t.Fatalf("LoneSurrogate(%q) = %d, want %d", raw, got, want)
		}
	})
}
