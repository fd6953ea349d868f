package jsonx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

type unmarshalSample struct {
	Name     string             `json:"name"`
	Skip     string             `json:"-"`
	Count    int                `json:"count"`
	Small    int8               `json:"small"`
	U        uint16             `json:"u"`
	F        float64            `json:"f"`
	F32      float32            `json:"f32"`
	Ptr      *string            `json:"ptr"`
	PF       *float64           `json:"pf"`
	OK       bool               `json:"ok"`
	Raw      RawMessage         `json:"raw"`
	Raws     []RawMessage       `json:"raws"`
	List     []string           `json:"list"`
	Arr      [2]int             `json:"arr"`
	Map      map[string]int     `json:"map"`
	IntMap   map[int]string     `json:"intMap"`
	Any      any                `json:"any"`
	Nested   *struct{ A int }   `json:"nested"`
	Anon     struct{ B string } `json:"anon"`
	Untagged string
}

// TestUnmarshalDecodesLikeEncodingJSON decodes each input with unmarshal
// and with json.Unmarshal into fresh values of each target type and
// compares the values and the error texts.
func TestUnmarshalDecodesLikeEncodingJSON(t *testing.T) {
	targets := []func() any{
		func() any { return new(unmarshalSample) },
		func() any { return new(any) },
		func() any { return new(string) },
		func() any { return new(float64) },
		func() any { return new(int) },
		func() any { return new(bool) },
		func() any { return new(*string) },
		func() any { return new([]RawMessage) },
		func() any { return new(map[string]RawMessage) },
		func() any { return new(RawMessage) },
		func() any { return new([]string) },
	}
	inputs := []struct{ name, in string }{
		{"a full object", `{"name":"n","count":3,"small":-7,"u":9,"f":1.5,"f32":0.1,"ptr":"p","pf":2,"ok":true,
			"raw":{ "a" : [1, 2] },"raws":[1, "x" ,null],"list":["a","b"],"arr":[1,2,3],"map":{"a":1},
			"intMap":{"1":"one","-2":"x"},"any":{"k":[1,"s",true,null,{"z":{}}]},"nested":{"A":4},"anon":{"B":"b"},
			"untagged":"case-insensitive","Skip":"no","unknown":[1,{"x":2}]}`},
		{"keys matched ignoring case", `{"NAME":"upper","Count":1,"OK":true}`},
		{"a later duplicate key wins", `{"name":"a","name":"b","list":["x","y"],"list":["z"]}`},
		{"nulls clear pointers, slices, maps and interfaces and keep the rest", `{"name":null,"count":null,"ptr":null,"list":null,"map":null,"any":null,"raw":null,"nested":null}`},
		{"strings decode escapes, surrogate pairs and lone surrogates", `{"name":"a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x\udc00"}`},
		{"invalid UTF-8 becomes U+FFFD", "{\"name\":\"a\xffb\xc3\"}"},
		{"wrong types are skipped with the first error", `{"name":1,"count":"x","list":{"a":1},"ok":"yes","f":"1"}`},
		{"a fraction does not fit an integer", `{"count":1.5}`},
		{"an overflow does not fit", `{"small":300,"u":-1,"f32":1e40,"count":1e30}`},
		{"a bad integer map key", `{"intMap":{"x":"y"}}`},
		{"an array into a struct", `[1,2]`},
		{"a top-level string", `"s\u0041"`},
		{"a top-level number", `-12.5e3`},
		{"a huge number", `1e400`},
		{"a top-level literal", `true`},
		{"top-level null", `null`},
		{"an empty array", `[]`},
		{"an empty object", ` { } `},
		{"syntax: empty input", ``},
		{"syntax: cut off", `{"name":"x`},
		{"syntax: a bad character after a key", `{"a" 1}`},
		{"syntax: a bad character in an array", `[1,]`},
		{"syntax: trailing data", `{} x`},
		{"syntax: a bad escape", `"\x"`},
		{"syntax: a control character", "\"a\x01\""},
		{"syntax: a bad literal", `tru`},
		{"syntax: a bad number", `-`},
		{"syntax: a quote as the bad character", `{"a":1"`},
	}
	for _, in := range inputs {
		for _, newTarget := range targets {
			want, got := newTarget(), newTarget()
			name := in.name + " into " + reflect.TypeOf(want).Elem().String()
			t.Run(name, func(t *testing.T) {
				wantErr := json.Unmarshal([]byte(in.in), want)
				gotErr := Unmarshal([]byte(in.in), got)
				assert.Equal(t, want, got)
				if msg := unmarshalErrorsDiffer([]byte(in.in), gotErr, wantErr); msg != "" {
					t.Error(msg)
				}
			})
		}
	}
}

func TestCompactRawCompactsLikeEncodingJSON(t *testing.T) {
	for _, in := range []string{` { "a" : [ 1 , 2.50 , "x y\u00e9" ] , "b" : { } } `, "[\n]", `"<&>\u2028"`, `{"a":}`, ``, "\t\"a\\\" b\"\r\n"} {
		t.Run(in, func(t *testing.T) {
			var buf bytes.Buffer
			wantErr := json.Compact(&buf, []byte(in))
			got, err := CompactRaw([]byte(in))
			if (err == nil) != (wantErr == nil) { // json.Compact's Offset is always 0
				t.Fatalf("CompactRaw(%q): error %v, json.Compact's %v", in, err, wantErr)
			}
			if wantErr == nil {
				assert.Equal(t, buf.String(), string(got))
			}
		})
	}
}
