//go:build js && wasm

package main

import (
	"encoding/json"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall/js"
	"testing"
	"unsafe"

	"github.com/sessiontree/sessiontree/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run in headless Chromium (wasm_test.sh): they drive the
// binding exactly as the JS shim does, through js.Value calls.

func storeHandle(t *testing.T) js.Value {
	t.Helper()
	h := newStore(nil).(js.Value)
	t.Cleanup(func() { h.Call("free") })
	return h
}

func TestBindingAnswersEnvelopesAsStrings(t *testing.T) {
	h := storeHandle(t)
	out := h.Call("call", `{"operation":"create","sessionId":"demo"}`).String()
	assert.True(t, strings.HasPrefix(out, `{"ok":true,"value":{"sessionId":"demo",`), out)
	out = h.Call("call", `{"operation":"append","sessionId":"demo","message":{"role":"user","content":"héllo 🙂 <b>"}}`).String()
	var env struct {
		OK    bool
		Value struct{ ID string }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &env))
	require.True(t, env.OK)
	assert.Len(t, env.Value.ID, 8, "generated ids are 8 hex characters")
	out = h.Call("call", `{"operation":"context","sessionId":"demo"}`).String()
	assert.Equal(t, `{"ok":true,"value":{"cursor":"`+env.Value.ID+`","messages":[{"role":"user","content":"héllo 🙂 <b>"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}}`, out)
	// call(request, true) is for answers parsed at once: context comes back
	// in ASCII (wire.CallParsed), the same value with é and 🙂 escaped.
	out = h.Call("call", `{"operation":"context","sessionId":"demo"}`, true).String()
	assert.Equal(t, `{"ok":true,"value":{"cursor":"`+env.Value.ID+`","messages":[{"role":"user","content":"h\u00e9llo \ud83d\ude42 <b>"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}}`, out)
	out = h.Call("call", `{"operation":"node","sessionId":"demo","nodeId":"`+env.Value.ID+`"}`, true).String()
	assert.Contains(t, out, `"content":"héllo 🙂 <b>"`, "other answers are plain UTF-8")
}

func TestBindingRejectsNonStringRequests(t *testing.T) {
	h := storeHandle(t)
	const refusal = `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"call takes the request as a JSON string or as UTF-8 bytes in a Uint8Array"}}`
	assert.Equal(t, refusal, h.Call("call", 42).String())
	assert.Equal(t, refusal, h.Call("call").String())
	assert.Equal(t, refusal, h.Call("call", js.Global().Get("Object").New()).String())
	out := h.Call("importText", js.Null()).String()
	assert.Contains(t, out, `"code":"INVALID_ARGUMENT"`)
}

func TestBindingTakesRequestsAsBytes(t *testing.T) {
	h := storeHandle(t)
	req := []byte(`{"operation":"create","sessionId":"b","title":"héllo 🙂"}`)
	u8 := js.Global().Get("Uint8Array").New(len(req))
	js.CopyBytesToJS(u8, req)
	out := h.Call("call", u8).String()
	const want = `{"ok":true,"value":{"sessionId":"b","title":"héllo 🙂","cursor":null,"activeBranch":"main","nodeCount":0,"branchCount":1,"leafCount":0,"depth":0,"createdAt":"`
	assert.True(t, strings.HasPrefix(out, want), "got %s", out)
	bad := js.Global().Get("Uint8Array").New(2)
	js.CopyBytesToJS(bad, []byte{0xff, '{'})
	assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"request is not valid UTF-8"}}`, h.Call("call", bad).String())
}

func TestBindingDrainsChanges(t *testing.T) {
	h := storeHandle(t)
	h.Call("call", `{"operation":"create","sessionId":"s"}`)
	h.Call("call", `{"operation":"append","sessionId":"s","message":{"role":"user","content":"a"}}`)
	text := h.Call("drain", true).String()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	require.Len(t, lines, 2)
	assert.Contains(t, lines[0], `"sessionId":"s","operation":"append","reset":false,"from":0,"count":1,`)
	assert.Contains(t, lines[1], `"message":{"role":"user","content":"a"}`)
	assert.Equal(t, "", h.Call("drain", true).String(), "a drain forgets what it returned")
}

func TestBindingImportsText(t *testing.T) {
	h := storeHandle(t)
	data := `{"id":"c","title":"T","current_node":"a","mapping":{"a":{"id":"a","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}},"parent":null,"children":[]}}}`
	out := h.Call("importText", data, "auto").String()
	assert.Equal(t, `{"ok":true,"value":{"format":"chatgpt","sessions":[{"sessionId":"c","title":"T","existing":false,"added":1,"nodeCount":1,"cursor":"a","branchCount":1,"rootCount":1,"warnings":0}],"skipped":[],"warnings":[]}}`, out)
}

func TestBindingImportsInSlices(t *testing.T) {
	h := storeHandle(t)
	data := `[{"id":"c","chat":{"history":{"currentId":"b","messages":{"a":{"id":"a","parentId":null,"childrenIds":["b"],"role":"user","content":"q"},"b":{"id":"b","parentId":"a","childrenIds":[],"role":"assistant","content":"r"}}}}},` +
		`{"id":"d","chat":{"history":{"currentId":"x","messages":{"x":{"id":"x","parentId":null,"childrenIds":[],"role":"user","content":"s"}}}}}]`
	start := h.Call("importStart", data, "auto").String()
	var env struct {
		OK    bool
		Value struct{ Job, Total int }
	}
	require.NoError(t, json.Unmarshal([]byte(start), &env), start)
	require.True(t, env.OK, start)
	assert.Equal(t, 2*len(data), env.Value.Total, "reading, then storing")
	var steps []string
	for len(steps) < 10 {
		step := h.Call("importStep", env.Value.Job, 1).String()
		steps = append(steps, step)
		if len(steps) == 2 {
			assert.Equal(t, `{"ok":true,"value":[]}`, h.Call("call", `{"operation":"sessions"}`).String(), "nothing is added while reading")
		}
		if strings.HasPrefix(step, `{"done":true`) {
			break
		}
	}
	assert.Equal(t, []string{
		`{"done":false,"read":220,"total":716}`, `{"done":false,"read":357,"total":716}`, `{"done":false,"read":358,"total":716}`, // reading
		`{"done":false,"read":600,"total":716}`, `{"done":true,"read":716,"total":716}`, // storing, one session a step
	}, steps)
	out := h.Call("importFinish", env.Value.Job).String()
	assert.Contains(t, out, `"sessions":[{"sessionId":"c",`)
	assert.Contains(t, h.Call("importFinish", env.Value.Job).String(), "no such import job")

	// The same text in UTF-8 slices through an import buffer.
	other := storeHandle(t)
	buf := other.Call("importBuffer", 10)
	for i := 0; i < len(data); i += 100 {
		chunk := []byte(data[i:min(i+100, len(data))])
		arr := js.Global().Get("Uint8Array").New(len(chunk))
		js.CopyBytesToJS(arr, chunk)
		require.Equal(t, "", other.Call("importAppend", buf, arr).String())
	}
	start = other.Call("importStart", buf, "auto").String()
	require.NoError(t, json.Unmarshal([]byte(start), &env), start)
	for !strings.HasPrefix(other.Call("importStep", env.Value.Job, 1000).String(), `{"done":true`) {
	}
	assert.Equal(t, out, other.Call("importFinish", env.Value.Job).String())
	assert.Contains(t, other.Call("importStart", buf, "auto").String(), "the id of an import buffer", "a buffer is used once")
}

func TestGuardTurnsAPanicIntoAnEnvelope(t *testing.T) {
	out := guard("test", func() any { panic("boom") })
	assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"internal error in test: boom"}}`, out)
}

func TestBulkPausesTheCollectorOnlyForLargeRequests(t *testing.T) {
	// Whatever percentage is in force comes back after a bulk call, and a
	// panic in the call restores it too.
	prev := debug.SetGCPercent(150)
	defer debug.SetGCPercent(prev)
	during := func(size int) int {
		var got int
		bulk(size, func() string {
			got = debug.SetGCPercent(-1)
			debug.SetGCPercent(got)
			return ""
		})
		return got
	}
	assert.Equal(t, 150, during(bulkBytes-1), "a small request runs with the collector as it is")
	assert.Equal(t, -1, during(bulkBytes), "a large request runs with the collector paused")
	assert.Equal(t, 150, debug.SetGCPercent(150), "the percentage is restored after the call")

	out := guard("call", func() any {
		return bulk(bulkBytes, func() string { panic("boom") })
	})
	assert.Contains(t, out, "internal error in call: boom")
	assert.Equal(t, 150, debug.SetGCPercent(150), "the percentage is restored after a panic")

	// A load large enough to be a bulk call answers as usual.
	h := storeHandle(t)
	var b strings.Builder
	b.WriteString(`{"operation":"snapshot.load","sessionId":"big","snapshot":{"version":1,"sessionId":"big","cursor":null,"activeBranch":"main","nodes":[`)
	text := strings.Repeat("x", 1000)
	for i := 0; b.Len() < bulkBytes+1000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		parent := "null"
		if i > 0 {
			parent = `"n` + strconv.Itoa(i-1) + `"`
		}
		b.WriteString(`{"id":"n` + strconv.Itoa(i) + `","parentId":` + parent + `,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"` + text + `"}}`)
	}
	b.WriteString(`]}}`)
	loaded := h.Call("call", b.String()).String()
	assert.True(t, strings.HasPrefix(loaded, `{"ok":true`), loaded[:min(len(loaded), 300)])
	assert.Equal(t, 150, debug.SetGCPercent(150))
}

func TestBindingAnswersContextInColumns(t *testing.T) {
	h := storeHandle(t)
	h.Call("call", `{"operation":"create","sessionId":"c"}`)
	h.Call("call", `{"operation":"append","sessionId":"c","message":{"role":"user","content":"plain text"}}`)
	h.Call("call", `{"operation":"append","sessionId":"c","message":{"content":"wide: café 🙂","role":"assistant"}}`)
	h.Call("call", `{"operation":"append","sessionId":"c","message":{"role":"user","content":[{"type":"text","text":"parts"}]}}`)
	head := h.Call("context", `{"operation":"context","sessionId":"c"}`).String()
	var env struct {
		OK      bool `json:"ok"`
		Columns struct {
			ASCII  [2]uintptr        `json:"ascii"`
			Wide   [2]uintptr        `json:"wide"`
			Rows   [2]uintptr        `json:"rows"`
			Cursor string            `json:"cursor"`
			Count  int               `json:"count"`
			Roles  []string          `json:"roles"`
			Other  []json.RawMessage `json:"other"`
		} `json:"columns"`
	}
	require.NoError(t, json.Unmarshal([]byte(head), &env), head)
	c := env.Columns
	// The addresses are where the buffers kept in lastColumns are in wasm
	// memory, which is where Go's pointers point.
	addr := func(p unsafe.Pointer) uintptr { return uintptr(p) }
	require.NotNil(t, lastColumns)
	assert.Equal(t, [2]uintptr{addr(unsafe.Pointer(unsafe.SliceData(lastColumns.ASCII))), 10}, c.ASCII)
	assert.Equal(t, [2]uintptr{addr(unsafe.Pointer(unsafe.SliceData(lastColumns.Wide))), uintptr(len("wide: café 🙂"))}, c.Wide)
	assert.Equal(t, [2]uintptr{addr(unsafe.Pointer(unsafe.SliceData(lastColumns.Rows))), 9}, c.Rows)
	assert.Equal(t, "plain text", string(lastColumns.ASCII))
	assert.Equal(t, "wide: café 🙂", string(lastColumns.Wide))
	rows := lastColumns.Rows
	// user plain (role 0, ASCII, 0..10); assistant first content (role 1,
	// wide, content first: code 1<<2|2|1, 0..13 UTF-16 units); parts: other.
	assert.Equal(t, []int32{0, 0, 10, 7, 0, 13, -1, 0, 0}, rows)
	assert.Equal(t, 3, c.Count)
	assert.Equal(t, []string{"user", "assistant"}, c.Roles)
	assert.JSONEq(t, `[{"role":"user","content":[{"type":"text","text":"parts"}]}]`, string(mustMarshal(t, c.Other)))
	var plain struct {
		Value struct {
			Cursor string `json:"cursor"`
		} `json:"value"`
	}
	require.NoError(t, json.Unmarshal([]byte(h.Call("call", `{"operation":"context","sessionId":"c"}`).String()), &plain))
	assert.Equal(t, plain.Value.Cursor, c.Cursor)
	assert.NotEmpty(t, c.Cursor)

	// Anything else gets the envelope call(request, true) gives.
	for _, req := range []string{`{"operation":"context","sessionId":"nope"}`, `{"operation":"sessions"}`, `[`} {
		assert.Equal(t, h.Call("call", req, true).String(), h.Call("context", req).String(), req)
	}
	assert.Contains(t, h.Call("context", 42).String(), `"code":"INVALID_ARGUMENT"`)
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func TestABulkCallThatFailsChangesNothingAndRestoresTheCollector(t *testing.T) {
	prev := debug.SetGCPercent(120)
	defer debug.SetGCPercent(prev)
	h := storeHandle(t)
	require.Contains(t, h.Call("call", `{"operation":"create","sessionId":"big"}`).String(), `"ok":true`)
	require.Contains(t, h.Call("call", `{"operation":"append","sessionId":"big","message":{"role":"user","content":"kept"}}`).String(), `"ok":true`)
	before := h.Call("call", `{"operation":"snapshot.save","sessionId":"big"}`).String()
	require.NotEmpty(t, h.Call("drain", false).String())

	// A snapshot.load of more than bulkBytes whose last node names an
	// unknown parent: refused as a whole, after the collector was paused.
	var b strings.Builder
	b.WriteString(`{"operation":"snapshot.load","sessionId":"big","snapshot":{"version":1,"sessionId":"big","cursor":null,"activeBranch":"main","nodes":[`)
	text := strings.Repeat("y", 1000)
	for i := 0; b.Len() < bulkBytes; i++ {
		parent := "null"
		if i > 0 {
			parent = `"m` + strconv.Itoa(i-1) + `"`
		}
		b.WriteString(`{"id":"m` + strconv.Itoa(i) + `","parentId":` + parent + `,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"` + text + `"}},`)
	}
	b.WriteString(`{"id":"last","parentId":"nowhere","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"x"}}]}}`)
	require.GreaterOrEqual(t, b.Len(), bulkBytes)
	for _, parsed := range []bool{false, true} {
		out := h.Call("call", b.String(), parsed).String()
		assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_SNAPSHOT","message":"snapshot: node \"last\" has parentId \"nowhere\", which is not an earlier node"}}`, out)
		assert.Equal(t, 120, debug.SetGCPercent(120), "the percentage is restored after a refused bulk call")
		assert.Equal(t, before, h.Call("call", `{"operation":"snapshot.save","sessionId":"big"}`).String(), "the session is as it was")
	}
	assert.Equal(t, "", h.Call("drain", false).String(), "no change recorded")
}

func TestBindingListsOperations(t *testing.T) {
	h := storeHandle(t)
	var infos []struct {
		Name        string `json:"name"`
		ReadOnly    bool   `json:"readOnly"`
		KeepsCursor bool   `json:"keepsCursor"`
		Public      bool   `json:"public"`
	}
	out := h.Call("operations").String()
	require.NoError(t, json.Unmarshal([]byte(out), &infos), out)
	byName := map[string]int{}
	for i, info := range infos {
		byName[info.Name] = i
	}
	require.Len(t, byName, len(infos), "each operation once")
	for _, name := range []string{"restore", "sync.merge", "sync.forget"} {
		require.Contains(t, byName, name)
		assert.False(t, infos[byName[name]].Public, name)
	}
	assert.True(t, infos[byName["list"]].ReadOnly)
	assert.True(t, infos[byName["list"]].Public)
	assert.True(t, infos[byName["label"]].KeepsCursor)
	assert.False(t, infos[byName["command"]].ReadOnly)
}

func TestBindingCallsInternalOperationsOnlyThroughCallInternal(t *testing.T) {
	h := storeHandle(t)
	h.Call("call", `{"operation":"create","sessionId":"s"}`)
	h.Call("drain", true)
	snap := h.Call("call", `{"operation":"snapshot.save","sessionId":"s"}`).String()
	var env struct{ Value json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(snap), &env))
	restore := `{"operation":"restore","snapshot":` + strings.Replace(string(env.Value), `"sessionId":"s"`, `"sessionId":"r"`, 1) + `}`
	for _, parsed := range []bool{false, true} {
		for _, req := range []string{restore, `{"operation":"sync.forget","sessionId":"s"}`, `{"operation":"sync.merge","sessionId":"s","nodes":[]}`} {
			out := h.Call("call", req, parsed).String()
			assert.Contains(t, out, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"unknown operation \"`, req)
			known := out[strings.Index(out, "(known: "):]
			assert.NotContains(t, known, "sync.", req)
			names := strings.Split(strings.TrimPrefix(known[:strings.Index(known, ")")], "(known: "), ", ")
			assert.NotContains(t, names, "restore", req) // trash.restore is public; restore is not
			assert.Equal(t, out, h.Call("context", req).String(), "context refuses it too")
		}
	}
	assert.True(t, strings.HasPrefix(h.Call("call", `{"operation":"sessions"}`).String(), `{"ok":true,"value":[{"sessionId":"s",`), "s is still there")
	assert.Equal(t, "", h.Call("drain", true).String(), "no change recorded")

	out := h.Call("callInternal", restore).String()
	assert.True(t, strings.HasPrefix(out, `{"ok":true,"value":{"sessionId":"r",`), out)
	u8 := js.Global().Get("Uint8Array").New(len(`{"operation":"sync.forget","sessionId":"s"}`))
	js.CopyBytesToJS(u8, []byte(`{"operation":"sync.forget","sessionId":"s"}`))
	assert.Equal(t, `{"ok":true,"value":{"sessionId":"s"}}`, h.Call("callInternal", u8).String())
	assert.Contains(t, h.Call("callInternal", `{"operation":"session","sessionId":"r"}`).String(), `"ok":true`, "public operations too")
	assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"callInternal takes the request as a JSON string or as UTF-8 bytes in a Uint8Array"}}`, h.Call("callInternal", 1).String())
}

func TestPageStubTakesPackedSummaries(t *testing.T) {
	h := storeHandle(t)
	// One summary: 2 nodes, no optional member, id "p", the other strings empty.
	packed := []byte{1, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 'p', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	u8 := js.Global().Get("Uint8Array").New(len(packed))
	js.CopyBytesToJS(u8, packed)
	assert.Equal(t, `{"ok":true,"value":{"stubs":1}}`, h.Call("pageStub", u8).String())
	assert.Contains(t, h.Call("call", `{"operation":"sessions"}`).String(), `{"sessionId":"p","title":"","nodeCount":2,`)
	cut := js.Global().Get("Uint8Array").New(len(packed) - 1)
	js.CopyBytesToJS(cut, packed[:len(packed)-1])
	assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"page.stub: packed summary 0 (from byte 4) is cut short"}}`, h.Call("pageStub", cut).String())
	assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"pageStub takes the packed summaries as a Uint8Array"}}`, h.Call("pageStub", "x").String())
}

// grown keeps a large allocation alive (TestPageStubHoldsTheCollectorUntilSettle).
var grown []byte

// gcPercent reads the collector's percentage without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

func TestPageStubHoldsTheCollectorUntilSettle(t *testing.T) {
	h := storeHandle(t)
	before := gcPercent()
	require.Positive(t, before)
	packed := []byte{1, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 'p', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	u8 := js.Global().Get("Uint8Array").New(len(packed))
	js.CopyBytesToJS(u8, packed)

	// Without hold, pageStub gives the percentage back (bulk's pause only).
	assert.Equal(t, `{"ok":true,"value":{"stubs":1}}`, h.Call("pageStub", u8).String())
	assert.Equal(t, before, gcPercent())
	assert.Equal(t, int64(memoryLimit), debug.SetMemoryLimit(-1))

	// With hold, the collector stays paused under a lowered limit until settle.
	packed[13] = 'q'
	js.CopyBytesToJS(u8, packed)
	assert.Equal(t, `{"ok":true,"value":{"stubs":2}}`, h.Call("pageStub", u8, true).String())
	assert.Equal(t, -1, gcPercent())
	assert.Less(t, debug.SetMemoryLimit(-1), int64(memoryLimit))
	assert.Contains(t, h.Call("call", `{"operation":"sessions"}`).String(), `"sessionId":"q"`, "calls answer while it is held")
	assert.True(t, h.Call("settle").IsNull())
	assert.Equal(t, before, gcPercent())
	assert.Equal(t, int64(memoryLimit), debug.SetMemoryLimit(-1))
	h.Call("settle") // nothing held: nothing changes
	assert.Equal(t, before, gcPercent())

	// A refused pageStub holds nothing.
	cut := js.Global().Get("Uint8Array").New(len(packed) - 1)
	js.CopyBytesToJS(cut, packed[:len(packed)-1])
	assert.Contains(t, h.Call("pageStub", cut, true).String(), `"code":"INVALID_ARGUMENT"`)
	assert.Equal(t, before, gcPercent())

	// A call after which the heap has grown holdHeadroom ends the hold.
	assert.Equal(t, `{"ok":true,"value":{"stubs":2}}`, h.Call("pageStub", u8, true).String())
	require.Equal(t, -1, gcPercent())
	h.Call("memory")
	assert.Equal(t, -1, gcPercent(), "a call that grew the heap little keeps it")
	grown = make([]byte, holdHeadroom+1<<20)
	h.Call("memory")
	assert.Equal(t, before, gcPercent(), "held no more")
	assert.Equal(t, int64(memoryLimit), debug.SetMemoryLimit(-1))
	grown = nil

	// An import job that begins while it is held settles it, and gives the
	// percentage back when it has ended and drained.
	holdCollector()
	require.Equal(t, -1, gcPercent())
	job := importJob{job: -7}
	importBegan(job, 1<<10)
	assert.Equal(t, 0, heldGCPercent, "the import took over")
	assert.Equal(t, -1, gcPercent(), "paused by the import")
	importEnded(job)
	importDrained()
	assert.Equal(t, before, gcPercent())
	assert.Equal(t, int64(memoryLimit), debug.SetMemoryLimit(-1))
}

func TestTheHandleHasExactlyTheMethodsOfTheTable(t *testing.T) {
	h := storeHandle(t)
	keys := js.Global().Get("Object").Call("keys", h)
	var got []string
	for i := 0; i < keys.Length(); i++ {
		got = append(got, keys.Index(i).String())
	}
	var want []string
	for _, m := range methods {
		want = append(want, m.name)
	}
	assert.ElementsMatch(t, want, got)
	for _, name := range got {
		assert.Equal(t, js.TypeFunction, h.Get(name).Type(), name)
	}
}

func TestEveryMethodOfTheTableIsGuarded(t *testing.T) {
	// Every entry of the table, replaced by one that panics, answers the
	// envelope naming it: object builds each through the guard.
	var panicking []methodEntry
	for _, m := range methods {
		panicking = append(panicking, methodEntry{m.name, func(*handle, []js.Value) any { panic("boom in " + m.name) }})
	}
	h := (&handle{}).object(panicking)
	for _, m := range methods {
		name := m.name
		t.Run(name+" turns a panic into an envelope", func(t *testing.T) {
			out := h.Call(name, 1, "x")
			require.Equal(t, js.TypeString, out.Type())
			assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"internal error in `+name+`: boom in `+name+`"}}`, out.String())
		})
	}
}

func TestTheRealMethodsTurnPanicsIntoEnvelopes(t *testing.T) {
	// A handle without a store or imports: every method that gets as far as
	// core panics on the nil pointer, and the guard answers for it.
	bytes := js.Global().Get("Uint8Array").New(2)
	args := map[string][]any{
		"call":         {`{"operation":"sessions"}`},
		"callInternal": {`{"operation":"sessions"}`},
		"pageStub":     {js.Global().Get("Uint8Array").New(4)},
		"context":      {`{"operation":"context","sessionId":"s"}`},
		// A snapshot with no nodes gets past the checks that need no store
		// (an empty array does not).
		"importText":      {`{"version":1,"sessionId":"x","cursor":null,"activeBranch":"main","nodes":[]}`, "auto"},
		"importBuffer":    {10},
		"importAppend":    {1, bytes},
		"importStart":     {`[]`, "auto"},
		"importStep":      {1, 10},
		"importFinish":    {1},
		"importFiles":     {`[]`, 1},
		"importCancel":    {1},
		"warm":            {10},
		"searchSave":      {},
		"searchLoad":      {bytes},
		"drain":           {true},
		"drainBytes":      {},
		"setMemoryBudget": {10},
		"memory":          {},
	}
	// Methods that never reach the store answer as usual.
	answers := map[string]func(t *testing.T, out js.Value){
		"operations": func(t *testing.T, out js.Value) {
			assert.True(t, strings.HasPrefix(out.String(), `[{"name":"append",`), out.String())
		},
		"settle": func(t *testing.T, out js.Value) { assert.True(t, out.IsNull()) },
		// Its scratch store is its own: true when it ran, false after.
		"warmLoad": func(t *testing.T, out js.Value) { assert.Equal(t, js.TypeBoolean, out.Type()) },
	}
	h := (&handle{}).object(methods[:])
	defer func() { assert.True(t, h.Call("free").IsNull()) }()
	for _, m := range methods {
		name := m.name
		if name == "free" {
			continue // last (deferred): it releases the others
		}
		if check, ok := answers[name]; ok {
			check(t, h.Call(name, bytes))
			continue
		}
		a, ok := args[name]
		if !assert.True(t, ok, "no arguments for method %q", name) {
			continue
		}
		t.Run(name+" answers the panic as an envelope", func(t *testing.T) {
			out := h.Call(name, a...)
			require.Equal(t, js.TypeString, out.Type())
			assert.True(t, strings.HasPrefix(out.String(), `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"internal error in `+name+`: runtime error: invalid memory address or nil pointer dereference`), out.String())
		})
	}
}

func TestFreeReleasesTheMethodsAndMayBeCalledAgain(t *testing.T) {
	h := newStore(nil).(js.Value)
	h.Call("call", `{"operation":"create","sessionId":"s"}`)
	assert.True(t, h.Call("free").IsNull())
	assert.True(t, h.Call("call", `{"operation":"sessions"}`).IsUndefined(), "a released method answers undefined")
	assert.True(t, h.Call("free").IsNull(), "a second free is harmless")
}

func TestImportAppendTakesByteArraysOnly(t *testing.T) {
	h := storeHandle(t)
	const usage = `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"importAppend takes an import buffer id and a Uint8Array"}}`
	buf := h.Call("importBuffer", 0)
	array := js.Global().Get("Array").Call("of", 1, 2)
	assert.Equal(t, usage, h.Call("importAppend", buf, array).String(), "an Array is not bytes")
	assert.Equal(t, usage, h.Call("importAppend", buf, "[]").String())
	assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"no import buffer 999 to append 1 bytes to"}}`, h.Call("importAppend", 999, js.Global().Get("Uint8Array").New(1)).String(), "no such buffer")
	clamped := js.Global().Get("Uint8ClampedArray").New(2)
	js.CopyBytesToJS(clamped, []byte("[]"))
	assert.Equal(t, "", h.Call("importAppend", buf, clamped).String())
	out := h.Call("importStart", buf, "auto").String()
	assert.Equal(t, `{"ok":false,"error":{"code":"INVALID_ARGUMENT","message":"import data is an empty array or holds no object: nothing to import","reason":"NOTHING_TO_IMPORT"}}`, out, "the buffer holds exactly the bytes appended")
}

func TestTheMemoryBudgetRefusesARequestBeforeItIsCopied(t *testing.T) {
	h := storeHandle(t)
	var m struct{ InUse, Budget int64 }
	require.NoError(t, json.Unmarshal([]byte(h.Call("memory").String()), &m))
	assert.Equal(t, core.DefaultMemoryBudget, m.Budget, "the default budget")
	assert.Positive(t, m.InUse)
	h.Call("setMemoryBudget", m.InUse+100_000)
	big := js.Global().Get("Uint8Array").New(1 << 20) // zeros: not JSON, but refused before it is read
	out := h.Call("call", big).String()
	assert.Contains(t, out, `"code":"INVALID_ARGUMENT"`)
	assert.Contains(t, out, "request of 1048576 bytes refused")
	assert.Contains(t, out, "memory budget of "+strconv.FormatInt(m.InUse+100_000, 10)+" bytes")
	assert.Contains(t, h.Call("importBuffer", 1<<20).String(), "import buffer of 1048576 bytes refused")
	h.Call("setMemoryBudget", 0)
	assert.Contains(t, h.Call("call", `{"operation":"sessions"}`).String(), `"ok":true`, "no budget")
}

func TestAnImportLowersTheMemoryLimitUntilItsChangesAreDrained(t *testing.T) {
	limit := func() int64 { return debug.SetMemoryLimit(-1) } // -1 reads it
	debug.SetMemoryLimit(memoryLimit)
	h := storeHandle(t)
	data := `{"id":"c","title":"T","mapping":{"a":{"id":"a","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}},"parent":null,"children":[]}}}`
	var env struct {
		Value struct{ Job int }
	}
	start := h.Call("importStart", data, "auto").String()
	require.NoError(t, json.Unmarshal([]byte(start), &env), start)
	during := limit()
	assert.Less(t, during, int64(memoryLimit), "lowered while the job runs")
	assert.Equal(t, importBase+int64(importHeadroomMin), during, "the memory in use at the start and, for a small file, importHeadroomMin")
	percent := debug.SetGCPercent(-1)
	assert.Equal(t, -1, percent, "the collector's percentage is paused while the job runs")
	h.Call("importFinish", env.Value.Job)
	assert.Equal(t, during, limit(), "still lowered after the job, until its changes are drained")
	h.Call("drain", false)
	assert.Equal(t, int64(memoryLimit), limit(), "back after the drain")
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	assert.NotEqual(t, -1, percent, "the collector's percentage is back after the drain")

	// A cancelled job, and a handle freed while its job runs.
	start = h.Call("importStart", data, "auto").String()
	require.NoError(t, json.Unmarshal([]byte(start), &env), start)
	h.Call("importCancel", env.Value.Job)
	assert.Equal(t, int64(memoryLimit), limit(), "back at once after a cancel")
	other := newStore(nil).(js.Value)
	other.Call("importStart", data, "auto")
	assert.Less(t, limit(), int64(memoryLimit))
	other.Call("free")
	assert.Equal(t, int64(memoryLimit), limit(), "back when the handle is freed")
}
