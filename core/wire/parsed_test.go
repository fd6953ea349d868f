package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of the answers CallParsed gives in ASCII (the escaping itself is
// tested in internal/jsonx).

func TestCallParsedEscapesMostlyASCIIContextAndLeavesOtherTextAlone(t *testing.T) {
	contextOf := func(ascii bool, content string, n int) []byte {
		st := newStore(t)
		st.Call([]byte(`{"operation":"create","sessionId":"s"}`))
		for i := 0; i < n; i++ {
			req, _ := json.Marshal(map[string]any{"operation": "append", "sessionId": "s", "message": map[string]any{"role": "user", "content": content}})
			if out := st.Call(req); !strings.HasPrefix(string(out), `{"ok":true`) {
				t.Fatalf("append: %s", out)
			}
		}
		req := []byte(`{"operation":"context","sessionId":"s"}`)
		if ascii {
			out := CallParsed(st, req)
			if again := st.Call(req); isASCII(again) {
				t.Fatal("Call after CallParsed still escapes") // every content here has non-ASCII
			}
			return out
		}
		return st.Call(req)
	}
	// Mostly ASCII (one accented letter in 150 bytes), past the free bytes.
	mostly := strings.Repeat("deploy the pipeline again ", 6) + "café"
	esc, plain := contextOf(true, mostly, 1000), contextOf(false, mostly, 1000)
	if !isASCII(esc) || isASCII(plain) {
		t.Fatalf("escaped context ASCII %v, plain ASCII %v", isASCII(esc), isASCII(plain))
	}
	require.JSONEq(t, string(plain), string(esc), "the escaped context is another value")
	if !strings.Contains(string(esc), `caf\u00e9`) {
		t.Fatalf("no escape in %.200s", esc)
	}
	// Mostly Chinese: escaping would cost more than it saves; the answer is plain UTF-8.
	chinese := strings.Repeat("这是一个关于部署流水线失败的中文消息", 4)
	if esc, plain := contextOf(true, chinese, 1000), contextOf(false, chinese, 1000); string(esc) != string(plain) {
		t.Fatal("mostly non-ASCII text was escaped")
	}
	// Below the free bytes everything is escaped.
	if esc := contextOf(true, chinese, 3); !isASCII(esc) {
		t.Fatalf("a small context was not escaped: %s", esc)
	}
}

func TestCallParsedEscapesOtherLargeAnswersInOnePass(t *testing.T) {
	for _, c := range []struct {
		name, content string
		escaped       bool
	}{
		{"mostly ASCII", strings.Repeat("deploy the pipeline again ", 6) + "café 🙂", true},
		{"mostly Chinese", strings.Repeat("这是一个关于部署流水线失败的中文消息", 4), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := newStore(t)
			st.Call([]byte(`{"operation":"create","sessionId":"s"}`))
			for i := 0; i < 600; i++ {
				req, _ := json.Marshal(map[string]any{"operation": "append", "sessionId": "s", "message": map[string]any{"role": "user", "content": c.content}})
				st.Call(req)
			}
			for _, req := range []string{`{"operation":"snapshot.save","sessionId":"s"}`, `{"operation":"tree","sessionId":"s"}`, `{"operation":"list","sessionId":"s"}`} {
				plain := st.Call([]byte(req))
				parsed := CallParsed(st, []byte(req))
				require.Greater(t, len(plain), asciiPassBytes, req)
				assert.False(t, isASCII(plain), req)
				assert.Equal(t, c.escaped, isASCII(parsed), req)
				if c.escaped {
					assert.JSONEq(t, string(plain), string(parsed), "%s: another value", req)
				} else {
					assert.Equal(t, string(plain), string(parsed), req)
				}
			}
			small := `{"operation":"session","sessionId":"s"}`
			assert.Equal(t, string(st.Call([]byte(small))), string(CallParsed(st, []byte(small))), "small answers are left as they are")
		})
	}
}

func TestCallParsedGivesCallsAnswerWhenAnImportHeldBytesThatAreNotUTF8(t *testing.T) {
	// Store.Import reads each byte that is not UTF-8 as U+FFFD (and says
	// so), so no message holds one: the answers, escaped or not, are
	// Call's, with the replacement characters.
	st := newStore(t)
	data := "{\"version\":1,\"sessionId\":\"raw\",\"cursor\":\"a\",\"activeBranch\":\"main\",\"nodes\":[{\"id\":\"a\",\"parentId\":null,\"branch\":\"main\",\"kind\":\"message\",\"timestamp\":\"2026-11-29T12:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"caf\xc3\xa9 x\xe2\x82y\xff\"}}]}"
	_, err := st.Import([]byte(data), "snapshot")
	require.Nil(t, err)
	mustCall(t, st, `{"operation":"jump","sessionId":"raw","nodeId":"a"}`)
	req := []byte(`{"operation":"context","sessionId":"raw"}`)
	plain := st.Call(req)
	assert.Contains(t, string(plain), "\"content\":\"caf\xc3\xa9 x\ufffd\ufffdy\ufffd\"")
	sameJSON := func(a, b []byte) {
		t.Helper()
		var x, y any
		require.NoError(t, json.Unmarshal(a, &x))
		require.NoError(t, json.Unmarshal(b, &y))
		assert.Equal(t, x, y)
	}
	sameJSON(plain, CallParsed(st, req))
	// The same for a large answer escaped in a pass of its own.
	for i := 0; i < 600; i++ {
		mustCall(t, st, `{"operation":"append","sessionId":"raw","message":{"role":"user","content":"deploy the pipeline again, deploy the pipeline again, deploy the pipeline again, café"}}`)
	}
	req = []byte(`{"operation":"snapshot.save","sessionId":"raw"}`)
	plain = st.Call(req)
	require.Greater(t, len(plain), asciiPassBytes)
	sameJSON(plain, CallParsed(st, req))
}

// mustCall sends a request that must succeed.
func mustCall(tb testing.TB, st *core.Store, req string) {
	tb.Helper()
	out := st.Call([]byte(req))
	require.True(tb, strings.HasPrefix(string(out), `{"ok":true`), "%s: %s", req, out)
}
