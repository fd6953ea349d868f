package core

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unsafe"

	"github.com/sessiontree/sessiontree/core/internal/views"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// columnsHead is what package wire writes as the columns' head, read
// from ContextTexts.
type columnsHead struct {
	Cursor *string           `json:"cursor"`
	State  json.RawMessage   `json:"state"`
	Count  int               `json:"count"`
	Roles  []string          `json:"roles"`
	Other  []json.RawMessage `json:"other"`
}

// rebuildMessages does what the JS shim does with the columns of
// ContextTexts: decode each buffer once, slice the contents out by UTF-16
// offsets, and take the other messages in order. Each message comes back
// as its JSON; a plain one with its members in the order the row says.
func rebuildMessages(t *testing.T, cols *ContextTexts) (columnsHead, []string) {
	t.Helper()
	h := columnsHead{Cursor: cols.Cursor, State: cols.State.AppendJSON(nil), Count: len(cols.Rows) / 3}
	for _, r := range cols.Roles {
		h.Roles = append(h.Roles, string(r))
	}
	for _, m := range cols.Other {
		h.Other = append(h.Other, json.RawMessage(m))
	}
	require.Len(t, cols.Rows, 3*h.Count)
	texts := [2][]uint16{utf16.Encode([]rune(string(cols.ASCII))), utf16.Encode([]rune(string(cols.Wide)))}
	require.True(t, isASCII(cols.ASCII))
	var out []string
	other := 0
	for i := 0; i < h.Count; i++ {
		code, start, end := cols.Rows[3*i], cols.Rows[3*i+1], cols.Rows[3*i+2]
		if code < 0 {
			require.Less(t, other, len(h.Other))
			out = append(out, string(h.Other[other]))
			other++
			continue
		}
		buf := (code >> 1) & 1
		require.True(t, 0 <= start && start <= end && int(end) <= len(texts[buf]), "row %d: %d..%d of %d", i, start, end, len(texts[buf]))
		content := string(utf16.Decode(texts[buf][start:end]))
		role, _ := json.Marshal(h.Roles[code>>2])
		text, _ := json.Marshal(content)
		if code&1 == 1 {
			out = append(out, `{"content":`+string(text)+`,"role":`+string(role)+`}`)
		} else {
			out = append(out, `{"role":`+string(role)+`,"content":`+string(text)+`}`)
		}
	}
	assert.Equal(t, len(h.Other), other, "every other message is used")
	return h, out
}

// contextTexts runs a context request that must succeed and lays its
// answer out (ContextView.Texts).
func contextTexts(t testing.TB, st *Store, req string) *ContextTexts {
	t.Helper()
	a := st.Run([]byte(req))
	require.Nil(t, a.Err, req)
	require.Equal(t, "context", a.Operation)
	v, ok := a.Value.(ContextView)
	require.True(t, ok, "%T", a.Value)
	return v.Texts()
}

// contextBothWays returns the messages of the session's context as Call
// answers them, and as rebuilt from its ContextTexts.
func contextBothWays(t *testing.T, st *Store, sessionID string) (want []json.RawMessage, got []string, h columnsHead) {
	t.Helper()
	req := []byte(`{"operation":"context","sessionId":` + strings.TrimSpace(string(mustJSON(t, sessionID))) + `}`)
	var env struct {
		Value struct {
			Cursor   *string           `json:"cursor"`
			Messages []json.RawMessage `json:"messages"`
			State    json.RawMessage   `json:"state"`
		} `json:"value"`
	}
	require.NoError(t, json.Unmarshal(st.Call(req), &env))
	h, got = rebuildMessages(t, contextTexts(t, st, string(req)))
	assert.Equal(t, env.Value.Cursor, h.Cursor)
	assert.JSONEq(t, string(env.Value.State), string(h.State))
	return env.Value.Messages, got, h
}

// mustCall sends a request that must succeed.
func mustCall(t *testing.T, st *Store, req string) {
	t.Helper()
	out := st.Call([]byte(req))
	require.True(t, strings.HasPrefix(string(out), `{"ok":true`), "%s: %s", req, out)
}

func TestContextColumnsGiveTheSameMessages(t *testing.T) {
	st := testStore(t)
	mustCall(t, st, `{"operation":"create","sessionId":"s"}`)
	messages := []string{
		`{"role":"user","content":"plain ASCII"}`,
		`{"role":"assistant","content":"café, 漢字 and 🎉 (a pair in UTF-16)"}`,
		`{"role":"user","content":"escapes: \n \t \" \\ \/ \b \f \r \u0041 \u00e9 \u20ac"}`,
		`{"content":"content first","role":"user"}`,
		`{"role":"user","content":""}`,
		`{"role":"tool","content":"a new role"}`,
		`{"role":"user","content":"an escaped pair \ud83c\udf89"}`,
		`{"role":"user","content":"a lone surrogate \ud800 stays JSON"}`,
		`{"role":"user","content":[{"type":"text","text":"parts"}]}`,
		`{"role":"assistant","content":"with a name","name":"bot"}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
		`{"role":"user","content":"a big number","n":12345678901234567890}`,
		`{"role":"us\"er","content":"an escaped role"}`,
		`{"role":"user","content":"ünïcödé again after JSON ones"}`,
	}
	for _, m := range messages {
		mustCall(t, st, `{"operation":"append","sessionId":"s","message":`+m+`}`)
	}
	mustCall(t, st, `{"operation":"branch.summary","sessionId":"s","nodeId":"n0014","branch":"b","summary":"a summary node: «résumé»"}`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"after the summary"}}`)

	want, got, h := contextBothWays(t, st, "s")
	require.Len(t, got, len(want))
	for i := range want {
		assert.JSONEq(t, string(want[i]), got[i], "message %d", i)
		assert.Equal(t, strings.HasPrefix(string(want[i]), `{"content"`), strings.HasPrefix(got[i], `{"content"`), "message %d keeps its key order", i)
	}
	assert.Equal(t, []string{"user", "assistant", "tool"}, h.Roles)
	// The lone surrogate, content parts, extra members, the escaped role
	// and the escaped pair stay JSON: 7 messages.
	assert.Len(t, h.Other, 7)

	// Asked again, the same answer, from the cache itself: no text copied.
	cols := contextTexts(t, st, `{"operation":"context","sessionId":"s"}`)
	assert.Equal(t, uintptr(unsafe.Pointer(unsafe.SliceData(st.views.TextsOf(st.s.ByID["s"]).Ascii))), uintptr(unsafe.Pointer(unsafe.SliceData(cols.ASCII))), "the cache's own buffer")
	want2, got2, _ := contextBothWays(t, st, "s")
	assert.Equal(t, want, want2)
	assert.Equal(t, got, got2)

	// A short path in a session whose cache holds much more: the path's
	// texts are copied out (and still right).
	mustCall(t, st, `{"operation":"jump","sessionId":"s","nodeId":"n0001"}`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"a short branch, é"}}`)
	want, got, _ = contextBothWays(t, st, "s")
	require.Len(t, got, 2)
	for i := range want {
		assert.JSONEq(t, string(want[i]), got[i], "message %d", i)
	}
	cols = contextTexts(t, st, `{"operation":"context","sessionId":"s"}`)
	assert.NotEqual(t, uintptr(unsafe.Pointer(unsafe.SliceData(st.views.TextsOf(st.s.ByID["s"]).Ascii))), uintptr(unsafe.Pointer(unsafe.SliceData(cols.ASCII))), "a copy")
	assert.Equal(t, "plain ASCII", string(cols.ASCII))
}

func TestContextColumnsAfterACompaction(t *testing.T) {
	st := testStore(t)
	mustCall(t, st, `{"operation":"create","sessionId":"c"}`)
	for i := 0; i < 4; i++ {
		mustCall(t, st, `{"operation":"append","sessionId":"c","message":{"role":"user","content":"before `+strconv.Itoa(i)+`"}}`)
	}
	mustCall(t, st, `{"operation":"append","sessionId":"c","entry":{"kind":"compaction","summary":"squeezed «text»","firstKeptNodeId":"n0003","tokensBefore":100}}`)
	mustCall(t, st, `{"operation":"append","sessionId":"c","message":{"role":"assistant","content":"after"}}`)
	want, got, _ := contextBothWays(t, st, "c")
	require.Len(t, got, 4, "the compaction's summary, n0003, n0004, after")
	for i := range want {
		assert.JSONEq(t, string(want[i]), got[i], "message %d", i)
	}
}

func TestContextColumnsOfAnEmptySession(t *testing.T) {
	st := testStore(t)
	mustCall(t, st, `{"operation":"create","sessionId":"e"}`)
	want, got, h := contextBothWays(t, st, "e")
	assert.Empty(t, want)
	assert.Empty(t, got)
	assert.Nil(t, h.Cursor)
}

func FuzzContextColumns(f *testing.F) {
	for _, s := range []string{"plain", "é", "🎉", "a\nb", `"\`, "\u2028", "\x00"} {
		f.Add(s, "user", false)
	}
	f.Add("x", "assistant", true)
	f.Fuzz(func(t *testing.T, content, role string, contentFirst bool) {
		st := testStore(t)
		mustCall(t, st, `{"operation":"create","sessionId":"f"}`)
		m := `{"role":` + string(mustJSON(t, role)) + `,"content":` + string(mustJSON(t, content)) + `}`
		if contentFirst {
			m = `{"content":` + string(mustJSON(t, content)) + `,"role":` + string(mustJSON(t, role)) + `}`
		}
		for i := 0; i < 3; i++ {
			if out := st.Call([]byte(`{"operation":"append","sessionId":"f","message":` + m + `}`)); !strings.HasPrefix(string(out), `{"ok":true`) {
				t.Skip("not a message the store takes:", string(out))
			}
		}
		want, got, _ := contextBothWays(t, st, "f")
		require.Len(t, got, len(want))
		for i := range want {
			assert.JSONEq(t, string(want[i]), got[i])
		}
	})
}

func TestTextCacheLeavesBytesThatAreNotUTF8AsJSON(t *testing.T) {
	// Only Store.Import (Go API) keeps such bytes; a browser's decoder
	// would replace them in its own way, so the offsets could not be known.
	var tc views.TextCache
	assert.Equal(t, int32(-1), tc.Add(RawMessage("{\"role\":\"user\",\"content\":\"a\xf0\x9f\x98b\"}")).Code)
	assert.Empty(t, tc.Ascii)
	assert.Empty(t, tc.Wide)
	sp := tc.Add(RawMessage(`{"role":"user","content":"é"}`))
	assert.Equal(t, views.TextSpan{Code: 2 + 1, Start: 0, End: 1, From: 0, To: 2}, sp)
}

func TestContextColumnsOfSessionsThatShareNodes(t *testing.T) {
	// Each session has its own text cache: a clone, a fork and a loaded
	// copy share the nodes (and a cache filled before they were made) but
	// never a buffer, so texts appended to one never show in another. A
	// refused sync.merge leaves the cache as it was.
	st := testStore(t)
	mustCall(t, st, `{"operation":"create","sessionId":"s"}`)
	for _, m := range []string{`"one"`, `"deux é"`, `"three \n"`, `"vier 🙂"`} {
		mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":`+m+`}}`)
	}
	_, got, _ := contextBothWays(t, st, "s")
	require.Len(t, got, 4)
	mustCall(t, st, `{"operation":"clone","sessionId":"s","newSessionId":"c"}`)
	mustCall(t, st, `{"operation":"fork","sessionId":"s","nodeId":"n0003","newSessionId":"f"}`)
	mustCall(t, st, `{"operation":"snapshot.load","sessionId":"l","snapshot":`+strings.Replace(snapshot(t, st, "s"), `"sessionId":"s"`, `"sessionId":"l"`, 1)+`}`)

	base := map[string][]string{
		"s": {`{"role":"user","content":"one"}`, `{"role":"user","content":"deux é"}`, `{"role":"user","content":"three \n"}`, `{"role":"user","content":"vier 🙂"}`},
	}
	base["c"], base["l"], base["f"] = base["s"], base["s"], base["s"][:3]
	for round := 0; round < 2; round++ {
		for _, id := range []string{"s", "c", "f", "l"} {
			text := id + " round " + strconv.Itoa(round) + " é"
			if round == 1 {
				text = id + " ascii"
			}
			mustCall(t, st, `{"operation":"append","sessionId":"`+id+`","message":{"content":`+string(mustJSON(t, text))+`,"role":"assistant"}}`)
			base[id] = append(base[id][:len(base[id]):len(base[id])], `{"content":`+string(mustJSON(t, text))+`,"role":"assistant"}`)
		}
		for _, id := range []string{"s", "c", "f", "l"} {
			want, got, _ := contextBothWays(t, st, id)
			require.Len(t, got, len(base[id]), id)
			for i := range want {
				assert.JSONEq(t, base[id][i], string(want[i]), "%s: message %d", id, i)
				assert.JSONEq(t, base[id][i], got[i], "%s: message %d", id, i)
				assert.Equal(t, strings.HasPrefix(base[id][i], `{"content"`), strings.HasPrefix(got[i], `{"content"`), "%s: message %d keeps its key order", id, i)
			}
		}
	}

	// A merge refused at its second node pushed (and took back) the first.
	out := st.CallInternal([]byte(`{"operation":"sync.merge","sessionId":"s","nodes":[` +
		`{"id":"m1","parentId":"n0004","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:01.000Z","message":{"role":"user","content":"merged"}},` +
		`{"id":"m2","parentId":"nowhere","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:01.000Z","message":{"role":"user","content":"x"}}]}`))
	require.Contains(t, string(out), `"code":"INVALID_SNAPSHOT"`)
	mustCall(t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"after the refused merge"}}`)
	want, got, _ := contextBothWays(t, st, "s")
	base["s"] = append(base["s"], `{"role":"user","content":"after the refused merge"}`)
	require.Len(t, got, len(base["s"]))
	for i := range want {
		assert.JSONEq(t, base["s"][i], got[i], "message %d", i)
	}
}

func TestContextColumnsNameTheCacheTheyHandOver(t *testing.T) {
	st := testStore(t)
	mustCall(t, st, `{"operation":"create","sessionId":"k"}`)
	for i := 0; i < 6; i++ {
		mustCall(t, st, `{"operation":"append","sessionId":"k","message":{"role":"user","content":"message `+strconv.Itoa(i)+` é"}}`)
	}
	req := `{"operation":"context","sessionId":"k"}`
	first := contextTexts(t, st, req)
	require.NotZero(t, first.Cache, "the whole path: the cache itself")
	firstWide := len(first.Wide)
	mustCall(t, st, `{"operation":"append","sessionId":"k","message":{"role":"user","content":"one more"}}`)
	second := contextTexts(t, st, req)
	assert.Equal(t, first.Cache, second.Cache, "the same cache, grown")
	assert.Equal(t, string(first.Wide[:firstWide]), string(second.Wide[:firstWide]), "what was in it is unchanged")
	assert.Equal(t, "one more", string(second.ASCII))

	// A short branch: a copy, not the cache.
	mustCall(t, st, `{"operation":"jump","sessionId":"k","nodeId":"n0001"}`)
	short := contextTexts(t, st, req)
	assert.Zero(t, short.Cache)

	// A new session under the same id has a new cache.
	snap := snapshot(t, st, "k")
	mustCall(t, st, `{"operation":"snapshot.load","sessionId":"k","snapshot":`+snap+`}`)
	mustCall(t, st, `{"operation":"jump","sessionId":"k","nodeId":"n0007"}`)
	loaded := contextTexts(t, st, req)
	assert.NotZero(t, loaded.Cache)
	assert.NotEqual(t, first.Cache, loaded.Cache)
}
