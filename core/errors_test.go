package core

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorsIsComparesCodes(t *testing.T) {
	err := error(&Error{Code: NodeNotFound, Message: "node \"x\" is not in session \"s\""})
	assert.True(t, errors.Is(err, ErrNodeNotFound))
	assert.False(t, errors.Is(err, ErrSessionNotFound))
	assert.Equal(t, `NODE_NOT_FOUND: node "x" is not in session "s"`, err.Error())
}

// TestEveryErrorCode reaches each of the six codes with the input that
// should give it, and checks that the session is unchanged afterwards.
func TestEveryErrorCode(t *testing.T) {
	st := testStore(t)
	buildBranchy(t, st, "s")
	cases := []struct {
		name    string
		req     string
		code    Code
		mention string
	}{
		{"a request that is not JSON is an invalid argument", `{"operation":`, InvalidArgument, "not valid JSON"},
		{"a request that is an array is an invalid argument", `[1,2]`, InvalidArgument, "JSON object"},
		{"a request without operation is an invalid argument", `{"sessionId":"s"}`, InvalidArgument, `"operation"`},
		{"an unknown operation is an invalid argument", `{"operation":"destroy","sessionId":"s"}`, InvalidArgument, `"destroy"`},
		{"an unknown field is an invalid argument", `{"operation":"jump","sessionId":"s","node":"n0002"}`, InvalidArgument, `"node"`},
		{"a request that begins with a byte order mark names it", "\uFEFF{\"operation\":\"sessions\"}", InvalidArgument, "byte order mark (U+FEFF)"},
		{"a field for an operation that takes none says so", `{"operation":"trash.list","limit":5}`, InvalidArgument, `unknown field "limit" for operation "trash.list" (it takes no field but "operation")`},
		{"a page of sessions in creation order is refused", `{"operation":"sessions","limit":5}`, InvalidArgument, `field "limit" needs "order": "updated"`},
		{"a missing sessionId is an invalid argument", `{"operation":"context"}`, InvalidArgument, `"sessionId"`},
		{"an ill-typed sessionId is an invalid argument", `{"operation":"context","sessionId":7}`, InvalidArgument, `"sessionId"`},
		{"a message without role is an invalid argument", `{"operation":"append","sessionId":"s","message":{"content":"hi"}}`, InvalidArgument, "message.role"},
		{"a message with an empty role is an invalid argument", `{"operation":"append","sessionId":"s","message":{"role":"","content":"hi"}}`, InvalidArgument, "message.role"},
		{"a message that is a string is an invalid argument", `{"operation":"append","sessionId":"s","message":"hi"}`, InvalidArgument, "JSON object"},
		{"a user message with null content is an invalid argument", `{"operation":"append","sessionId":"s","message":{"role":"user","content":null}}`, InvalidArgument, "null"},
		{"a message with numeric content is an invalid argument", `{"operation":"append","sessionId":"s","message":{"role":"user","content":5}}`, InvalidArgument, "message.content"},
		{"a content part that is not an object is an invalid argument", `{"operation":"append","sessionId":"s","message":{"role":"user","content":["hi"]}}`, InvalidArgument, "message.content[0]"},
		{"a branch name with a control character is an invalid argument", `{"operation":"branch","sessionId":"s","nodeId":"n0001","branch":"a\u0007b"}`, InvalidArgument, "branch name"},
		{"a branch name longer than 128 characters is an invalid argument", `{"operation":"branch","sessionId":"s","nodeId":"n0001","branch":"` + strings.Repeat("x", 129) + `"}`, InvalidArgument, "128"},
		{"branching to an existing name elsewhere is an invalid argument", `{"operation":"branch","sessionId":"s","nodeId":"n0001","branch":"main"}`, InvalidArgument, `"main"`},
		{"an empty summary is an invalid argument", `{"operation":"branch.summary","sessionId":"s","nodeId":"n0001","branch":"x","summary":"  "}`, InvalidArgument, `"summary"`},
		{"an unknown session is not found", `{"operation":"context","sessionId":"nope"}`, SessionNotFound, `"nope"`},
		{"creating an existing session is refused", `{"operation":"create","sessionId":"s"}`, SessionAlreadyExists, `"s"`},
		{"cloning onto an existing session is refused", `{"operation":"clone","sessionId":"s","newSessionId":"s"}`, SessionAlreadyExists, `"s"`},
		{"forking onto an existing session is refused", `{"operation":"fork","sessionId":"s","nodeId":"n0001","newSessionId":"s"}`, SessionAlreadyExists, `"s"`},
		{"jumping to an unknown node is not found", `{"operation":"jump","sessionId":"s","nodeId":"zzz"}`, NodeNotFound, `"zzz"`},
		{"branching at an unknown node is not found", `{"operation":"branch","sessionId":"s","nodeId":"zzz","branch":"b"}`, NodeNotFound, `"zzz"`},
		{"forking at an unknown node is not found", `{"operation":"fork","sessionId":"s","nodeId":"zzz"}`, NodeNotFound, `"zzz"`},
		{"a snapshot with the wrong version is invalid", `{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":2,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}}`, InvalidSnapshot, "version 2"},
		{"appending on an unknown branch is not found", `{"operation":"append","sessionId":"s","branch":"ghost","message":{"role":"user","content":"x"}}`, NotFound, `"ghost"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot(t, st, "s")
			sessionsBefore := do(t, st, `{"operation":"sessions"}`)
			msg := fails(t, st, tc.req, tc.code)
			assert.Contains(t, msg, tc.mention)
			assert.Equal(t, before, snapshot(t, st, "s"), "the session changed")
			assert.Equal(t, string(sessionsBefore.Value), string(do(t, st, `{"operation":"sessions"}`).Value), "the session list changed")
		})
	}
}

func TestFailedCallRecordsNoChange(t *testing.T) {
	st := testStore(t)
	st.TrackChanges(true)
	ok[Status](t, st, `{"operation":"create","sessionId":"s"}`)
	st.DrainChanges(true)
	fails(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user"}}`, InvalidArgument)
	assert.Empty(t, st.DrainChanges(true))
}

func TestInvalidUTF8RequestGetsAnEnvelope(t *testing.T) {
	st := testStore(t)
	msg := fails(t, st, []byte("{\"operation\":\"create\",\"sessionId\":\"\xff\"}"), InvalidArgument)
	require.Equal(t, "request is not valid UTF-8", msg)
}

// TestNamesAndIdsAreRefusedWhenBlankOrAmbiguous: a branch name or id that
// is empty, only white space, holds a lone surrogate (which decoding would
// merge with U+FFFD) or a bidi override is INVALID_ARGUMENT, and nothing
// changes; such a name could otherwise reach a snapshot that no longer loads.
func TestNamesAndIdsAreRefusedWhenBlankOrAmbiguous(t *testing.T) {
	st := testStore(t)
	buildBranchy(t, st, "s")
	cases := []struct{ name, req, mention string }{
		{"an empty branch name", `{"operation":"branch","sessionId":"s","nodeId":"n0001","branch":""}`, `"branch"`},
		{"a blank branch name", `{"operation":"branch","sessionId":"s","nodeId":"n0001","branch":"   "}`, `"branch"`},
		{"an empty summary branch", `{"operation":"branch.summary","sessionId":"s","nodeId":"n0001","branch":"","summary":"x"}`, `"branch"`},
		{"a lone surrogate branch", `{"operation":"branch","sessionId":"s","nodeId":"n0001","branch":"\ud800"}`, "lone UTF-16 surrogate"},
		{"a bidi override branch", `{"operation":"branch","sessionId":"s","nodeId":"n0001","branch":"a\u202eb"}`, `"branch"`},
		{"a blank session id", `{"operation":"create","sessionId":"  "}`, `"sessionId"`},
		{"a lone surrogate session id", `{"operation":"create","sessionId":"\udc00"}`, "lone UTF-16 surrogate"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			before := snapshot(t, st, "s")
			assert.Contains(t, fails(t, st, tc.req, InvalidArgument), tc.mention)
			assert.Equal(t, before, snapshot(t, st, "s"))
		})
	}
	// A valid surrogate pair is a character like any other.
	ok[Status](t, st, `{"operation":"create","sessionId":"\ud83d\ude00"}`)
	assert.NotNil(t, st.Session("😀"))
}

func TestARefusedLongIdIsQuotedShort(t *testing.T) {
	st := testStore(t)
	buildBranchy(t, st, "s")
	long := strings.Repeat("x", 10000)
	for _, req := range []string{
		`{"operation":"node","sessionId":"s","nodeId":"` + long + `"}`,
		`{"operation":"create","sessionId":"` + long + `"}`,
		`{"operation":"branch","sessionId":"s","nodeId":"n0001","branch":"` + long + `"}`,
	} {
		msg := fails(t, st, req, InvalidArgument)
		assert.Less(t, len(msg), 300, "the message quotes the start of the id: %s", msg)
		assert.Contains(t, msg, `"`+strings.Repeat("x", 64)+`"…`)
	}
}
