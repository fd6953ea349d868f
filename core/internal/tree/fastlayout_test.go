package tree

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The fast paths for the layout sessiontree writes (fastNodeFields,
// fastMessage) must answer exactly as the general parser: the same
// session, the same bytes saved, the same error message.

// parsed is what a parse gives, in bytes: the snapshot saved again (or the
// message and its role), or the error's code and message.
func parsed(fast bool, parse func() string) string {
	defer func(was bool) { fastLayouts = was }(fastLayouts)
	fastLayouts = fast
	return parse()
}

// compact reports whether data is valid JSON without insignificant white
// space: what Call hands on with valid true.
func compact(data []byte) bool {
	var b bytes.Buffer
	return json.Valid(data) && json.Compact(&b, data) == nil && bytes.Equal(b.Bytes(), data)
}

func FuzzFastLayouts(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/*.snapshot.json")
	if len(files) == 0 {
		f.Fatal("no snapshot in core/testdata")
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		var b bytes.Buffer
		if json.Compact(&b, data) == nil {
			f.Add(b.Bytes())
		}
	}
	for _, seed := range []string{
		`{"role":"user","content":"hi"}`,
		`{"role":"assistant","content":null}`,
		`{"role":"user","content":[{"type":"text","text":"a\nb"}]}`,
		`{"role":"us\u0065r","content":"escaped role"}`,
		`{"role":"user","content":"x","name":"extra"}`,
		`{"content":"no role first","role":"user"}`,
		`{"role":"","content":"empty role"}`,
		`{"role":"user","content":5}`,
		`{"role":"user" ,"content":"spaced"}`,
		`{"version":1,"sessionId":"s","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi"}}]}`,
		`{"version":1,"sessionId":"s","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi"},"extra":1}]}`,
		`{"version":1,"sessionId":"s","cursor":"b","activeBranch":"main","nodes":[{"parentId":null,"id":"a","branch":"main","timestamp":"t","message":{"role":"user","content":"hi"}}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		snapshot := func(valid bool) func() string {
			return func() string {
				s, _, err := ParseSnapshotOf(data, "", valid)
				if err != nil {
					return string(err.Code) + " " + err.Message
				}
				return string(s.AppendSnapshot(nil))
			}
		}
		message := func(valid bool) func() string {
			return func() string {
				msg, role, err := ValidateMessageOf(data, "message", valid)
				if err != nil {
					return string(err.Code) + " " + err.Message
				}
				return role + " " + string(msg)
			}
		}
		checks := []func(bool) func() string{snapshot, message}
		for _, check := range checks {
			for _, valid := range []bool{false, true} {
				if valid && !compact(data) {
					continue
				}
				if fast, general := parsed(true, check(valid)), parsed(false, check(valid)); fast != general {
					t.Fatalf("the fast layout paths changed the answer to %q (valid %v):\nfast    %s\ngeneral %s", data, valid, fast, general)
				}
			}
		}
	})
}
