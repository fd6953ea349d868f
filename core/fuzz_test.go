package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/importplan"
)

// FuzzCall: any bytes in give exactly one valid JSON envelope out, and no
// panic. The seed corpus (testdata/fuzz/FuzzCall) holds one request of
// every operation. Requests go through CallInternal, which answers every
// operation; Call gives the same answer, or refuses an internal operation
// as unknown and changes nothing.
func FuzzCall(f *testing.F) {
	seeds := []string{
		`{"operation":"create","sessionId":"s","title":"t"}`,
		`{"operation":"append","sessionId":"s","message":{"role":"user","content":"hi"}}`,
		`{"operation":"append","sessionId":"s","branch":"main","message":{"role":"assistant","content":[{"type":"text","text":"x"}]}}`,
		`{"operation":"list","sessionId":"s"}`,
		`{"operation":"tree","sessionId":"s"}`,
		`{"operation":"branches","sessionId":"s"}`,
		`{"operation":"jump","sessionId":"s","nodeId":"n0001"}`,
		`{"operation":"branch","sessionId":"s","nodeId":"n0001","branch":"b"}`,
		`{"operation":"branch.summary","sessionId":"s","nodeId":"n0001","branch":"c","summary":"sum"}`,
		`{"operation":"fork","sessionId":"s","nodeId":"n0001"}`,
		`{"operation":"clone","sessionId":"s","newSessionId":"s2"}`,
		`{"operation":"context","sessionId":"s"}`,
		`{"operation":"session","sessionId":"s"}`,
		`{"operation":"snapshot.save","sessionId":"s"}`,
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}}`,
		`{"operation":"sessions"}`,
		`{"operation":"import","data":"[{\"id\":\"c\",\"mapping\":{\"a\":{\"id\":\"a\",\"message\":{\"author\":{\"role\":\"user\"},\"content\":{\"content_type\":\"text\",\"parts\":[\"hi\"]}},\"parent\":null,\"children\":[]}}}]"}`,
		`{"operation":"node","sessionId":"s","nodeId":"n0001"}`,
		`[`, `{"operation":"\ud800"}`, "\xff",
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"hi"}}]}}`,
		// The snapshot not last, or followed by an object: the guess of its end fails.
		`{"operation":"snapshot.load","snapshot":{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]},"sessionId":"s"}`,
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]},"x":{}}`,
		`{"snapshot":{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]} , "operation":"restore","title":{}}`,
		`{"operation":"restore","snapshot":{"version":1,"sessionId":"r","cursor":null,"activeBranch":"main","nodes":[]} }`,
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}}}`,
		// sessiontree's own layout and near misses of it (fastNodeFields, fastMessage).
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":"b","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"h\u00e9 \"q\""}},{"id":"b","parentId":"a","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.001Z","message":{"role":"assistant","content":[{"type":"text","text":"x"}],"n":1}}]}}`,
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"hi"},"label":"x"}]}}`,
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"hi","role":"tool"}}]}}`,
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":[ {"type":"text"} ]}}]}}`,
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"hi"},"id":"b"}]}}`,
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"summary","timestamp":"2026-11-29T12:00:00.000Z","summary":"s"}]}}`,
		`{"operation":"append","sessionId":"s","message":{"role":"user","content":"a\tb"}}`,
		`{"operation":"append","sessionId":"s","message":{"role":"user","content":null}}`,
		`{"operation":"append","sessionId":"s","message":{"role":"us\u0065r","content":"x"}}`,
		// A snapshot only delimited, then replaced by a later "snapshot" member: its bytes are still JSON to check.
		`{"operation":"restore","snapshot":{"x":tru},"snapshot":{"version":1,"sessionId":"r","cursor":null,"activeBranch":"main","nodes":[]}}`,
		`{"operation":"snapshot.load","sessionId":"s","snapshot":{"a":"\x"},"snapshot":null,"snapshot":{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, req []byte) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				panic(fmt.Sprintf("HANG on %q", req))
			}
		}()
		// A session with some history, so requests can reach deep paths.
		setup := func() *Store {
			st := testStore(t)
			st.TrackChanges(true)
			st.Call([]byte(`{"operation":"create","sessionId":"s"}`))
			st.Call([]byte(`{"operation":"append","sessionId":"s","message":{"role":"user","content":"hi"}}`))
			st.Call([]byte(`{"operation":"append","sessionId":"s","message":{"role":"assistant","content":"yo"}}`))
			return st
		}
		st := setup()
		before := st.Call([]byte(`{"operation":"snapshot.save","sessionId":"s"}`))
		out := st.CallInternal(req)
		pub := setup()
		// CallInternal reads bytes that are not UTF-8 as U+FFFD (stored
		// records of earlier builds), where Call refuses the request.
		pubReq := req
		if !utf8.Valid(req) {
			pubReq, _, _ = importplan.ReplaceInvalidUTF8(req)
		}
		if got := pub.Call(pubReq); string(got) != string(out) {
			if !strings.Contains(string(got), `"message":"unknown operation `) {
				t.Fatalf("Call and CallInternal answer %q differently:\nCall         %s\nCallInternal %s", req, got, out)
			}
			if after := pub.Call([]byte(`{"operation":"snapshot.save","sessionId":"s"}`)); string(after) != string(before) {
				t.Fatalf("a refused internal operation changed the session:\nbefore %s\nafter  %s", before, after)
			}
		}
		// The same request without the guess that a snapshot is the last
		// member (see scanRequest) gives the same bytes.
		plain := setup()
		if want := plain.call(req, false, true).Envelope(); string(out) != string(want) {
			t.Fatalf("guessing the snapshot's end changed the reply to %q:\nguess    %s\nno guess %s", req, out, want)
		}
		if !json.Valid(out) {
			t.Fatalf("reply is not JSON: %q", out)
		}
		var env struct {
			OK    *bool      `json:"ok"`
			Value RawMessage `json:"value"`
			Error *struct {
				Code    Code   `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(out, &env); err != nil || env.OK == nil {
			t.Fatalf("reply is not an envelope: %q", out)
		}
		if *env.OK && !json.Valid(req) {
			t.Fatalf("a request that is not valid JSON was accepted: %q", req)
		}
		if !*env.OK {
			switch env.Error.Code {
			case InvalidArgument, SessionNotFound, SessionAlreadyExists, NodeNotFound, InvalidSnapshot, NotFound:
			default:
				t.Fatalf("unknown error code %q", env.Error.Code)
			}
			if env.Error.Message == "" {
				t.Fatalf("error without message: %q", out)
			}
			if after := st.Call([]byte(`{"operation":"snapshot.save","sessionId":"s"}`)); string(after) != string(before) {
				t.Fatalf("a failed call changed the session:\nbefore %s\nafter  %s", before, after)
			}
		}
		st.DrainChanges(true)
	})
}
