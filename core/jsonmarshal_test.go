package core

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stdMarshal is what marshal replaced: encoding/json without HTML escaping.
func stdMarshal(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

type marshalInner struct {
	A int    `json:"a"`
	B string `json:"b,omitempty"`
}

type marshalEmbedded struct {
	E1 string `json:"e1"`
	E2 int
}

type marshalSample struct {
	Name            string            `json:"name"`
	Skip            string            `json:"-"`
	private         int               //nolint:unused // unexported fields are not encoded
	Plain           int               // no tag: the Go name
	marshalEmbedded                   // flattened where it stands
	Opt             *string           `json:"opt,omitempty"`
	Ptr             *marshalInner     `json:"ptr"`
	Inner           marshalInner      `json:"inner"`
	List            []marshalInner    `json:"list"`
	Empty           []string          `json:"empty,omitempty"`
	Nil             []string          `json:"nil"`
	Map             map[string]any    `json:"map"`
	IntMap          map[int]bool      `json:"intMap,omitempty"`
	Any             any               `json:"any"`
	Raw             RawMessage        `json:"raw"`
	NilRaw          RawMessage        `json:"nilRaw"`
	F32             float32           `json:"f32"`
	U               uint8             `json:"u"`
	Arr             [2]bool           `json:"arr"`
	Strs            map[string]string `json:"strs"`
}

func TestMarshalEncodesLikeEncodingJSON(t *testing.T) {
	s := "x"
	tree := Tree{SessionID: "s", Rows: []TreeRow{{ID: "a", Preview: "p\b\f<>&\u2028"}}}
	node := Node{ID: "n1", Kind: KindMessage, Message: RawMessage(`{"role":"user","content":"<hi>"}`), Branch: DefaultBranch}
	tests := []struct {
		name string
		v    any
	}{
		{"strings escape control characters, U+2028/9 and invalid UTF-8 but not HTML",
			"a\"b\\c\n\r\t\b\f\x01\x1f<>&\u2028\u2029\xff\xfe é 🙂"},
		{"floats use the shortest form, with an exponent only outside [1e-6, 1e21)",
			[]float64{0, -0.0, 1, -1.5, 1e-6, 1e-7, 123456789, 1e20, 1e21, 1.5e300, 5e-324, math.MaxFloat64, 0.1, 100}},
		{"float32 values keep 32-bit shortest digits", []float32{0.1, 1e-7, 3.4e38, 16777216}},
		{"integers of every size", []any{int8(-8), int16(300), int32(-70000), int64(math.MinInt64), uint64(math.MaxUint64), uint(7)}},
		{"nil values are null", []any{nil, (*string)(nil), []int(nil), map[string]int(nil), (*Node)(nil), (*Tree)(nil)}},
		{"maps have sorted keys, escaped like strings", map[string]int{"b": 1, "a": 2, "<\n>": 3, "": 4}},
		{"integer map keys sort as their text", map[int]string{10: "ten", 9: "nine", -1: "minus"}},
		{"structs follow tags, omitempty, embedding and pointers", marshalSample{
			Name: "n", Skip: "no", Plain: 3, marshalEmbedded: marshalEmbedded{"e", 2}, Opt: &s,
			Ptr: &marshalInner{A: 1, B: "b"}, List: []marshalInner{{A: 2}}, Empty: []string{},
			Map:    map[string]any{"z": []any{1.5, "two", true, nil, map[string]any{}}, "a": 12.0},
			IntMap: map[int]bool{2: true}, Any: &marshalInner{}, Raw: RawMessage(`{"k":[1,2]}`),
			F32: 0.3, U: 200, Arr: [2]bool{true, false}, Strs: map[string]string{"k": "v"}}},
		{"empty omitempty fields are left out", marshalSample{}},
		{"types with MarshalJSON are encoded by it, by value or by pointer", []any{tree, &tree, node, &node, []Node{node}, Context{}}},
		{"a struct holding nodes by value uses their MarshalJSON only when addressable",
			struct {
				N  Node  `json:"n"`
				P  *Node `json:"p"`
				NS []Node
			}{N: node, P: &node, NS: []Node{node}}},
		{"import results encode alike", ImportResult{Sessions: []ImportedSession{}, Warnings: []ImportWarning{{Message: "m\bx"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsonx.Marshal(tt.v)
			require.NoError(t, err)
			assert.Equal(t, string(stdMarshal(t, tt.v)), string(got))
		})
	}
}

func TestMarshalRefusesWhatEncodingJSONRefuses(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(1), []any{math.Inf(-1)}, make(chan int), func() {}, complex(1, 2), RawMessage{}} {
		_, err := jsonx.Marshal(v)
		assert.Error(t, err, "marshal(%T)", v)
	}
}
