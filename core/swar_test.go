package core

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plainRunByBytes is plainRun one byte at a time: the reference.
func plainRunByBytes(b []byte, i int) int {
	for i < len(b) && plainStringByte[b[i]] {
		i++
	}
	return i
}

func TestPlainRunStopsWhereTheByteLoopStops(t *testing.T) {
	inputs := []string{
		"", "a", "abcdefgh", "abcdefghi\"", `abc\n`, "abcdefg\x1f", "\x00", "é漢字🎉 and more text\"",
		strings.Repeat("x", 64) + `"`, strings.Repeat("x", 63) + "\\", "\x7f\x80\xff\xfe\x20\x21\x5b\x5d\x5c",
	}
	for c := 0; c < 256; c++ { // every byte value at every position of a word
		for at := 0; at < 9; at++ {
			b := []byte(strings.Repeat("y", 17))
			b[at] = byte(c)
			inputs = append(inputs, string(b))
		}
	}
	for _, in := range inputs {
		for i := 0; i <= len(in); i++ {
			if got, want := plainRun([]byte(in), i), plainRunByBytes([]byte(in), i); got != want {
				t.Fatalf("plainRun(%q, %d) = %d, want %d", in, i, got, want)
			}
		}
	}
}

func FuzzPlainRun(f *testing.F) {
	f.Add([]byte(`hello "world"`), 0)
	f.Fuzz(func(t *testing.T, b []byte, i int) {
		if i < 0 || i > len(b) {
			return
		}
		if got, want := plainRun(b, i), plainRunByBytes(b, i); got != want {
			t.Fatalf("plainRun(%q, %d) = %d, want %d", b, i, got, want)
		}
	})
}

func TestValidUTF8AgreesWithTheStandardLibrary(t *testing.T) {
	inputs := []string{
		"", "ascii only, longer than a word", "é", "漢字", "🎉", "\xff", "\xc3", "\xc3\x28", "\xed\xa0\x80",
		"\xef\xbf\xbd", "\xf4\x90\x80\x80", "\xc0\xaf", strings.Repeat("a", 15) + "\xe2\x82", strings.Repeat("a", 7) + "é" + strings.Repeat("b", 9),
		"\x7f\x80", strings.Repeat("ab", 40) + "\xf0\x9f\x8e\x89" + strings.Repeat("c", 3),
	}
	for _, in := range inputs {
		for i := 0; i <= len(in); i++ { // every alignment
			if got, want := validUTF8([]byte(in[i:])), utf8.Valid([]byte(in[i:])); got != want {
				t.Fatalf("validUTF8(%q) = %v, utf8.Valid says %v", in[i:], got, want)
			}
		}
	}
}

func FuzzValidUTF8(f *testing.F) {
	f.Add([]byte("héllo wörld, 漢字 and 🎉"))
	f.Add([]byte("\xed\xa0\x80abcdefgh"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validUTF8(b), utf8.Valid(b); got != want {
			t.Fatalf("validUTF8(%q) = %v, utf8.Valid says %v", b, got, want)
		}
	})
}

// jsonSame reports whether a and b are JSON texts of the same value.
func jsonSame(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("not JSON: %v: %q", err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("not JSON: %v: %q", err, b)
	}
	return reflect.DeepEqual(va, vb)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func TestAppendASCIIEscapesEveryNonASCIICharacter(t *testing.T) {
	for _, in := range []string{
		`"plain"`, `"café"`, `{"role":"user","content":"漢字 and 🎉, née \"quoted\" \\ back"}`,
		`["` + strings.Repeat("x", 13) + `é` + strings.Repeat("y", 29) + `"]`, `"\u00e9 already escaped, é not"`,
		`{"ключ":"значение","emoji":"👩‍👩‍👧","max":"` + "\U0010FFFF" + `","fffd":"` + "\uFFFD" + `"}`,
	} {
		var budget asciiBudget
		out, ok := appendASCII([]byte("prefix"), []byte(in), &budget)
		if !ok {
			t.Fatalf("%q: gave up within the free bytes", in)
		}
		if !strings.HasPrefix(string(out), "prefix") || !isASCII(out) {
			t.Fatalf("%q: got %q", in, out)
		}
		if !jsonSame(t, out[len("prefix"):], []byte(in)) {
			t.Fatalf("%q: escaped to %q, another value", in, out)
		}
	}
}

func FuzzAppendASCII(f *testing.F) {
	f.Add(`{"role":"user","content":"héllo 漢字 🎉"}`)
	f.Fuzz(func(t *testing.T, s string) {
		in, err := json.Marshal(s)
		if err != nil {
			return
		}
		var budget asciiBudget
		out, _ := appendASCII(nil, in, &budget)
		if len(in) <= asciiFreeBytes && (!isASCII(out) || !jsonSame(t, out, in)) {
			t.Fatalf("%q escaped to %q", in, out)
		}
	})
}

func TestCallParsedEscapesMostlyASCIIContextAndLeavesOtherTextAlone(t *testing.T) {
	contextOf := func(ascii bool, content string, n int) []byte {
		st := testStore(t)
		st.Call([]byte(`{"operation":"create","sessionId":"s"}`))
		for i := 0; i < n; i++ {
			req, _ := json.Marshal(map[string]any{"operation": "append", "sessionId": "s", "message": map[string]any{"role": "user", "content": content}})
			if out := st.Call(req); !strings.HasPrefix(string(out), `{"ok":true`) {
				t.Fatalf("append: %s", out)
			}
		}
		req := []byte(`{"operation":"context","sessionId":"s"}`)
		if ascii {
			out := st.CallParsed(req)
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
	if !jsonSame(t, esc, plain) {
		t.Fatal("the escaped context is another value")
	}
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
			st := testStore(t)
			st.Call([]byte(`{"operation":"create","sessionId":"s"}`))
			for i := 0; i < 600; i++ {
				req, _ := json.Marshal(map[string]any{"operation": "append", "sessionId": "s", "message": map[string]any{"role": "user", "content": c.content}})
				st.Call(req)
			}
			for _, req := range []string{`{"operation":"snapshot.save","sessionId":"s"}`, `{"operation":"tree","sessionId":"s"}`, `{"operation":"list","sessionId":"s"}`} {
				plain := st.Call([]byte(req))
				parsed := st.CallParsed([]byte(req))
				require.Greater(t, len(plain), asciiPassBytes, req)
				assert.False(t, isASCII(plain), req)
				assert.Equal(t, c.escaped, isASCII(parsed), req)
				if c.escaped {
					assert.True(t, jsonSame(t, parsed, plain), "%s: another value", req)
				} else {
					assert.Equal(t, string(plain), string(parsed), req)
				}
			}
			small := `{"operation":"session","sessionId":"s"}`
			assert.Equal(t, string(st.Call([]byte(small))), string(st.CallParsed([]byte(small))), "small answers are left as they are")
		})
	}
}

func TestCallParsedGivesCallsAnswerWhenItHoldsBytesThatAreNotUTF8(t *testing.T) {
	// Store.Import takes bytes as they are, so a message can hold bytes
	// that are not UTF-8. A browser decodes them with one U+FFFD per
	// maximal invalid subpart ("\xe2\x82" is one); escaping them one by one
	// would give another string than callText's, so the answer is Call's.
	st := testStore(t)
	data := "{\"version\":1,\"sessionId\":\"raw\",\"cursor\":\"a\",\"activeBranch\":\"main\",\"nodes\":[{\"id\":\"a\",\"parentId\":null,\"branch\":\"main\",\"kind\":\"message\",\"timestamp\":\"2026-11-29T12:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"caf\xc3\xa9 x\xe2\x82y\xff\"}}]}"
	_, err := st.Import([]byte(data), "snapshot")
	require.Nil(t, err)
	ok[Node](t, st, `{"operation":"jump","sessionId":"raw","nodeId":"a"}`)
	req := []byte(`{"operation":"context","sessionId":"raw"}`)
	plain := st.Call(req)
	assert.Contains(t, string(plain), "\"content\":\"caf\xc3\xa9 x\xe2\x82y\xff\"")
	assert.Equal(t, string(plain), string(st.CallParsed(req)))
	// The same for a large answer escaped in a pass of its own.
	for i := 0; i < 600; i++ {
		ok[Node](t, st, `{"operation":"append","sessionId":"raw","message":{"role":"user","content":"deploy the pipeline again, deploy the pipeline again, deploy the pipeline again, café"}}`)
	}
	req = []byte(`{"operation":"snapshot.save","sessionId":"raw"}`)
	plain = st.Call(req)
	require.Greater(t, len(plain), asciiPassBytes)
	assert.Equal(t, string(plain), string(st.CallParsed(req)))
}

// BenchmarkScans measures the word-at-a-time scans over a snapshot of
// 20,000 chat messages (about 5 MB): the UTF-8 check of a request and the
// string scan of the parser.
func BenchmarkScans(b *testing.B) {
	data := perfSnapshot(20000)
	b.Run("validUTF8", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			if !validUTF8(data) {
				b.Fatal("not UTF-8")
			}
		}
	})
	b.Run("value", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for i := 0; i < b.N; i++ {
			s := scanner{data: data}
			if _, _, err := s.value(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
