package importer

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCloseCutObject: a cut-off object is closed after its last whole
// member whatever byte it ends on; garbled, whole or memberless data is
// not an object cut off.
func TestCloseCutObject(t *testing.T) {
	for _, tc := range []struct{ data, closed, inside string }{
		{`{"a":1,"b":[2`, `{"a":1}`, `"b"`},
		{`{"a":1,"b":`, `{"a":1}`, `"b"`},
		{`{"a":1,"b": `, `{"a":1}`, `"b"`},
		{`{"a":1,"b"`, `{"a":1}`, `"b"`},
		{`{"a":1,"b`, `{"a":1}`, ""},
		{`{"a":1,`, `{"a":1}`, ""},
		{`{"a":{"x":[1]} `, `{"a":{"x":[1]}}`, ""},
	} {
		closed, w, ok := closeCutObject([]byte(tc.data))
		if assert.True(t, ok, tc.data) {
			assert.Equal(t, tc.closed, string(closed), tc.data)
			if tc.inside == "" {
				assert.Contains(t, w.Message, "without the closing '}'", tc.data)
			} else {
				assert.Contains(t, w.Message, "ends inside its "+tc.inside+" (it begins on line 1)", tc.data)
			}
		}
	}
	for _, data := range []string{`{`, `{"a"`, `{"a":`, `{"a":1}`, `{"a":1 "b":2`, `{"a" 1,"b":2`, `{"a":#,"b":2`, `[{"a":1},`, `"x"`} {
		_, _, ok := closeCutObject([]byte(data))
		assert.False(t, ok, data)
	}
}
