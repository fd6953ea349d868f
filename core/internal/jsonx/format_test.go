package jsonx

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

type kindName string

// TestSprintfFormatsLikeFmt compares sprintf with fmt.Sprintf for every
// verb and argument kind core's messages use.
func TestSprintfFormatsLikeFmt(t *testing.T) {
	var nilErr error
	tests := []struct {
		name   string
		format string
		args   []any
	}{
		{"plain text and %%", "100%% done, no verbs", nil},
		{"%s of strings, named strings, errors and Stringers", "%s|%s|%s|%s|%s", []any{"a b", kindName("k"), errors.New("boom"), Delim('['), []byte("raw")}},
		{"%q of strings with quotes, control characters and non-ASCII", "%q %q %q %q", []any{`say "hi"`, "tab\there\n", "é🙂\u2028", "\xff"}},
		{"%q of bytes and runes is a character literal", "%q %q %q %q %q", []any{byte('x'), byte('\''), byte('"'), byte(0x01), rune(0x1F642)}},
		{"%q of an error quotes its text", "%q", []any{errors.New(`bad "x"`)}},
		{"%d of every integer size", "%d %d %d %d %d", []any{-1, int8(-8), int64(math.MinInt64), uint8(200), uint64(math.MaxUint64)}},
		{"%v of integers, floats, bools, nil, errors", "%v %v %v %v %v %v %v %v", []any{42, 1.5, 1e21, 1e6, 123456789.0, true, nil, errors.New("e")}},
		{"%v of a nil error is <nil>", "%v", []any{nilErr}},
		{"%t of bools", "%t %t", []any{true, false}},
		{"a verb that does not fit", "%d %t %q", []any{"s", 3, 1.5}},
		{"a missing argument", "%s and %d", []any{"one"}},
		{"an extra argument", "%s", []any{"one", 2, "three"}},
		{"a trailing percent", "50%", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, fmt.Sprintf(tt.format, tt.args...), Sprintf(tt.format, tt.args...))
		})
	}
}
