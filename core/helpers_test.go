package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// testStore returns a store with a fixed clock (advancing 1 ms a call) and
// counting ids n0001, n0002, …
func testStore(tb testing.TB) *Store {
	tb.Helper()
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	seq := 0
	return New(Options{
		Now: func() time.Time {
			clock = clock.Add(time.Millisecond)
			return clock
		},
		NewID: func() string {
			seq++
			return fmt.Sprintf("n%04d", seq)
		},
	})
}

// envelope is a decoded reply.
type envelope struct {
	OK    bool       `json:"ok"`
	Value RawMessage `json:"value"`
	Error *struct {
		Code    Code   `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// do sends a request (a JSON string or any value to marshal) and decodes
// the envelope, failing the test if the reply is not one valid envelope.
// A request for an internal operation goes through CallInternal, every
// other through Call, as the JS shim sends them.
func do(tb testing.TB, st *Store, req any) envelope {
	tb.Helper()
	var raw []byte
	switch r := req.(type) {
	case string:
		raw = []byte(r)
	case []byte:
		raw = r
	default:
		var err error
		raw, err = json.Marshal(r)
		require.NoError(tb, err)
	}
	call := st.Call
	if internalRequest(raw) {
		call = st.CallInternal
	}
	out := call(raw)
	require.True(tb, json.Valid(out), "reply is not JSON: %s", out)
	var env envelope
	require.NoError(tb, json.Unmarshal(out, &env))
	return env
}

// internalRequest reports whether raw is a JSON object whose (last)
// "operation" member names an internal operation.
func internalRequest(raw []byte) bool {
	var r struct{ Operation string }
	if json.Unmarshal(raw, &r) != nil {
		return false
	}
	op, ok := operations[r.Operation]
	return ok && op.flags&internal != 0
}

// ok sends a request that must succeed and decodes its value into T.
func ok[T any](tb testing.TB, st *Store, req any) T {
	tb.Helper()
	env := do(tb, st, req)
	require.True(tb, env.OK, "request %v failed: %+v", req, env.Error)
	var v T
	require.NoError(tb, json.Unmarshal(env.Value, &v))
	return v
}

// fails sends a request that must fail with code and returns the message.
func fails(tb testing.TB, st *Store, req any, code Code) string {
	tb.Helper()
	env := do(tb, st, req)
	require.False(tb, env.OK, "request %v succeeded: %s", req, env.Value)
	require.Equal(tb, code, env.Error.Code, "request %v: %s", req, env.Error.Message)
	return env.Error.Message
}

// snapshot returns the session's snapshot text ("" when it does not exist).
func snapshot(tb testing.TB, st *Store, id string) string {
	tb.Helper()
	env := do(tb, st, map[string]any{"operation": "snapshot.save", "sessionId": id})
	if !env.OK {
		return ""
	}
	return string(env.Value)
}

type obj = map[string]any

// isASCII reports whether b holds only ASCII bytes.
func isASCII(b []byte) bool {
	return bytes.IndexFunc(b, func(r rune) bool { return r >= utf8.RuneSelf }) < 0
}
