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
	assert.Equal(t, `{"cursor":"n0003","state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null},"count":3,"roles":["user","assistant"],"other":[{"role":"user","content":"x","name":"n"}],"layout":1,"prefix":0}`, string(cols.Head))
	assert.Equal(t, "one", string(cols.ASCII))
	assert.Equal(t, "deux é", string(cols.Wide))
	assert.Equal(t, []int32{0, 0, 3, 1<<2 | 1<<1 | 1, 0, 6, -1, 0, 0}, cols.Rows)
	assert.NotZero(t, cols.Cache)
}

func TestCallColumnsHandsOverOnlyWhatFollowsAHeldLayout(t *testing.T) {
	st := newStore(t)
	mustCall(t, st, `{"operation":"create","sessionId":"s"}`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"one"}}`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"tool","content":"x","toolCallId":"c1"}}`)
	context := []byte(`{"operation":"context","sessionId":"s"}`)
	_, first := CallColumns(st, context)
	require.NotNil(t, first)
	type head struct {
		Count, Prefix int
		Layout        uint64
		Other         []json.RawMessage
	}
	var h head
	require.NoError(t, json.Unmarshal(first.Head, &h))
	assert.Equal(t, head{Count: 2, Prefix: 0, Layout: 1, Other: []json.RawMessage{json.RawMessage(`{"role":"tool","content":"x","toolCallId":"c1"}`)}}, h)
	held := Layout{first.Cache, h.Layout}

	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"assistant","content":"two"}}`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"tool","content":"y","toolCallId":"c2"}}`)
	// Without the layout held: every row and every other message.
	_, whole := CallColumns(st, context, Layout{first.Cache, 99}, Layout{first.Cache + 1, 1})
	var hw head
	require.NoError(t, json.Unmarshal(whole.Head, &hw))
	assert.Equal(t, head{Count: 4, Prefix: 0, Layout: 2, Other: []json.RawMessage{json.RawMessage(`{"role":"tool","content":"x","toolCallId":"c1"}`), json.RawMessage(`{"role":"tool","content":"y","toolCallId":"c2"}`)}}, hw)
	assert.Equal(t, []int32{0, 0, 3, -1, 0, 0, 1 << 2, 3, 6, -1, 0, 0}, whole.Rows)
	held = Layout{whole.Cache, hw.Layout}

	// With it: what follows only, and the first rows are unchanged.
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"three"}}`)
	_, next := CallColumns(st, context, Layout{whole.Cache, 1}, held)
	var hn head
	require.NoError(t, json.Unmarshal(next.Head, &hn))
	assert.Equal(t, head{Count: 5, Prefix: 4, Layout: 3, Other: []json.RawMessage{}}, hn)
	assert.Equal(t, []int32{0, 6, 11}, next.Rows)
	assert.Equal(t, []int32{0, 0, 3, -1, 0, 0, 1 << 2, 3, 6, -1, 0, 0}, whole.Rows, "the rows handed over before are not written again")
	assert.Equal(t, "onetwothree", string(next.ASCII))

	// A path that does not continue the layout (a branch at "one") starts
	// again: prefix 0 even though a layout is held. It holds less than
	// half of the cache, so its texts are a copy, not a layout of it.
	mustCall(t, st, `{"operation":"jump","sessionId":"s","nodeId":"n0001"}`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"b"}}`)
	_, branch := CallColumns(st, context, Layout{next.Cache, hn.Layout})
	var hb head
	require.NoError(t, json.Unmarshal(branch.Head, &hb))
	assert.Equal(t, 0, hb.Prefix)
	assert.Equal(t, 2, hb.Count)
	assert.Equal(t, uint64(0), hb.Layout)
	assert.Equal(t, uint64(0), branch.Cache)
	assert.Equal(t, "oneb", string(branch.ASCII))
	assert.Equal(t, []int32{0, 0, 3, 0, 3, 4}, branch.Rows)
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

func TestAContextWithIdsIsAnsweredAsJSONAndThePlainOneStillInColumns(t *testing.T) {
	st := newStore(t)
	mustCall(t, st, `{"operation":"create","sessionId":"s"}`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"one"}}`)
	req := []byte(`{"operation":"context","sessionId":"s","ids":true}`)
	out, cols := CallColumns(st, req)
	assert.Nil(t, cols)
	assert.Equal(t, string(st.Call(req)), string(out))
	assert.Contains(t, string(out), `"nodeIds":["n0001"],"siblings":[["n0001"]]}}`)
	for _, plain := range []string{`{"operation":"context","sessionId":"s"}`, `{"operation":"context","sessionId":"s","ids":false}`} {
		out, cols = CallColumns(st, []byte(plain))
		assert.Nil(t, out, plain)
		assert.NotNil(t, cols, plain)
	}
}
