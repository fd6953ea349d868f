package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFailuresCarryTheirReason: an import that finds nothing to import
// says so in error.reason (the explorer skips such a file inside a ZIP or
// a folder by it, never by the message's wording); other failures carry
// no reason.
func TestFailuresCarryTheirReason(t *testing.T) {
	cases := []struct {
		name   string
		req    string
		code   Code
		reason Reason
	}{
		{"data no format detects has nothing to import", `{"operation":"import","data":{"theme":"dark"}}`, InvalidArgument, NothingToImport},
		{"an empty array has nothing to import", `{"operation":"import","data":[]}`, InvalidArgument, NothingToImport},
		{"data cut off inside its first record is not JSON and has no reason", `{"operation":"import","data":"[{\"mapping\":"}`, InvalidArgument, ""},
		{"an unknown session has no reason", `{"operation":"session","sessionId":"nope"}`, SessionNotFound, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := testStore(t)
			var env struct {
				OK    bool `json:"ok"`
				Error struct {
					Code    string  `json:"code"`
					Message string  `json:"message"`
					Reason  *string `json:"reason"`
				} `json:"error"`
			}
			require.NoError(t, json.Unmarshal(st.Call([]byte(c.req)), &env))
			assert.False(t, env.OK)
			assert.Equal(t, string(c.code), env.Error.Code)
			assert.NotEmpty(t, env.Error.Message)
			if c.reason == "" {
				assert.Nil(t, env.Error.Reason, "no reason member")
			} else if assert.NotNil(t, env.Error.Reason) {
				assert.Equal(t, string(c.reason), *env.Error.Reason)
			}
		})
	}
}

// TestErrorEnvelopeWritesTheReasonAfterTheMessage: the envelope keeps
// code first (its head is the contract's EnvelopeFailedHead) and adds
// reason only when set.
func TestErrorEnvelopeWritesTheReasonAfterTheMessage(t *testing.T) {
	assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"m","reason":"NOTHING_TO_IMPORT"}}`,
		string(ErrorEnvelope(&Error{Code: InvalidArgument, Message: "m", Reason: NothingToImport})))
	assert.Equal(t, `{"ok":false,"error":{"code":"NOT_FOUND","message":"m"}}`, string(ErrorEnvelope(&Error{Code: NotFound, Message: "m"})))
	assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"m","files":[{"path":"a.md","sessions":0,"skipped":"not a session file"}]}}`,
		string(ErrorEnvelope(&Error{Code: InvalidArgument, Message: "m", Files: []FileReport{{Path: "a.md", Skipped: "not a session file"}}})))
}
