package wire

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/sessiontree/sessiontree/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of CallColumns' answer around the layout (core.ContextTexts, tested
// in core) and of the store having no answer mode: the golden test holds
// the bytes.

func TestCallColumnsWritesTheHeadAndHandsOverTheTexts(t *testing.T) {
	st := newStore(t)
	mustCall(t, st, `{"operation":"create","sessionId":"s"}`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"one"}}`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"content":"deux é","role":"assistant"}}`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"x","name":"n"}}`)
	out, cols := CallColumns(st, []byte(`{"operation":"context","sessionId":"s"}`))
	assert.Nil(t, out)
	require.NotNil(t, cols)
	assert.Equal(t, `{"cursor":"n0003","state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null},"count":3,"roles":["user","assistant"],"other":[{"role":"user","content":"x","name":"n"}]}`, string(cols.Head))
	assert.Equal(t, "one", string(cols.ASCII))
	assert.Equal(t, "deux é", string(cols.Wide))
	assert.Equal(t, []int32{0, 0, 3, 1<<2 | 1<<1 | 1, 0, 6, -1, 0, 0}, cols.Rows)
	assert.NotZero(t, cols.Cache)
}

func TestCallColumnsAnswersOtherRequestsAsCallParsed(t *testing.T) {
	st := newStore(t)
	mustCall(t, st, `{"operation":"create","sessionId":"e"}`)
	for _, req := range []string{
		`{"operation":"context","sessionId":"missing"}`,
		`{"operation":"context"}`,
		`{"operation":"context","sessionId":"e","extra":1}`,
		`not json`,
		`{"operation":"sessions"}`,
		`{"operation":"restore","snapshot":{}}`,
		`{"operation":"sync.merge","sessionId":"e","nodes":[]}`,
		`{"operation":"sync.forget","sessionId":"e"}`,
	} {
		out, cols := CallColumns(st, []byte(req))
		assert.Nil(t, cols, req)
		assert.Equal(t, string(CallParsed(st, []byte(req))), string(out), req)
		assert.Equal(t, string(st.Call([]byte(req))), string(out), "%s: small answers are Call's", req)
	}
	out, _ := CallColumns(st, []byte(`{"operation":"sync.forget","sessionId":"e"}`))
	assert.Contains(t, string(out), `"message":"unknown operation \"sync.forget\" (known: `)
	assert.NotNil(t, st.Session("e"), "an internal operation through CallColumns changes nothing")
}

func TestAPanicInsideCallColumnsOrCallParsedLeavesLaterCallsAsTheyWere(t *testing.T) {
	// The wasm binding recovers a panic in a call into an error envelope
	// and keeps using the store. The store holds no answer mode that a
	// panic could leave set: later calls answer as before. A clock that
	// panics once stands for any bug in an operation.
	clock := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	boom, seq := false, 0
	st := core.New(core.Options{
		Now: func() time.Time {
			if boom {
				boom = false
				panic("boom")
			}
			clock = clock.Add(time.Millisecond)
			return clock
		},
		NewID: func() string {
			seq++
			return "n" + strconv.Itoa(seq)
		},
	})
	mustCall(t, st, `{"operation":"create","sessionId":"p"}`)
	mustCall(t, st, `{"operation":"append","sessionId":"p","message":{"role":"user","content":"café"}}`)
	context := []byte(`{"operation":"context","sessionId":"p"}`)
	want := string(st.Call(context))
	require.Contains(t, want, `"messages":[{"role":"user","content":"café"}]`)

	panics := func(call func()) (recovered any) {
		defer func() { recovered = recover() }()
		call()
		return nil
	}
	appendReq := []byte(`{"operation":"append","sessionId":"p","message":{"role":"user","content":"x"}}`)
	for _, tc := range []struct {
		name string
		call func()
	}{
		{"CallColumns", func() { CallColumns(st, appendReq) }},
		{"CallParsed", func() { CallParsed(st, appendReq) }},
	} {
		t.Run("after a panic in "+tc.name+", Call answers context as JSON, byte for byte", func(t *testing.T) {
			boom = true
			require.Equal(t, "boom", panics(tc.call))
			assert.Equal(t, want, string(st.Call(context)))
			out, cols := CallColumns(st, context)
			assert.Nil(t, out)
			require.NotNil(t, cols)
			assert.Equal(t, "café", string(cols.Wide))
		})
	}
}

func TestCallColumnsEscapesALargeHead(t *testing.T) {
	// 700 messages that are not plain, mostly ASCII: a head past 64 KiB,
	// escaped as CallParsed escapes a large answer.
	st := newStore(t)
	mustCall(t, st, `{"operation":"create","sessionId":"o"}`)
	for i := 0; i < 700; i++ {
		mustCall(t, st, `{"operation":"append","sessionId":"o","message":{"role":"user","content":"not plain, not plain, not plain, not plain, not plain, not plain, not plain, é","n":`+strconv.Itoa(i)+`}}`)
	}
	_, cols := CallColumns(st, []byte(`{"operation":"context","sessionId":"o"}`))
	require.NotNil(t, cols)
	require.Greater(t, len(cols.Head), asciiPassBytes)
	assert.True(t, isASCII(cols.Head))
	var h struct{ Other []json.RawMessage }
	require.NoError(t, json.Unmarshal(cols.Head, &h))
	require.Len(t, h.Other, 700)
	var m struct{ Content string }
	require.NoError(t, json.Unmarshal(h.Other[0], &m))
	assert.Contains(t, m.Content, "é")
}
