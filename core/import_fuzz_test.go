package core

import (
	"bytes"
	"encoding/json"
	"testing"
)

// fuzzImport checks one importer on any input: the import operation
// always answers one envelope, a success makes at least one session whose
// snapshot loads back, every warning names one of its sessions or
// skipped conversations or none (warningMismatch), and a sliced import (ImportJob with small steps)
// gives the same answer as one call. Seeds: core/testdata/fuzz/<name>/
// (the fixtures and synthetic cases of every tolerance rule).
func fuzzImport(f *testing.F, format string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st := testStore(t)
		req, err := json.Marshal(obj{"operation": "import", "format": format, "data": string(data)})
		if err != nil {
			t.Skip()
		}
		out := st.Call(req)
		var env envelope
		if !json.Valid(out) || json.Unmarshal(out, &env) != nil {
			t.Fatalf("import answered no envelope: %s", out)
		}
		if env.OK == (env.Error != nil) {
			t.Fatalf("envelope is neither a value nor an error: %s", out)
		}
		if !env.OK {
			return
		}
		var res ImportResult
		if err := json.Unmarshal(env.Value, &res); err != nil || len(res.Sessions) == 0 {
			t.Fatalf("a successful import made no session: %s", out)
		}
		if bad := warningMismatch(res.Sessions, res.Skipped, res.Warnings); bad != "" {
			t.Fatalf("the report's warnings do not name its sessions: %s", bad)
		}
		for _, s := range res.Sessions {
			loadsBack(t, st, s.SessionID)
		}
		sliced := testStore(t)
		job, jerr := sliced.StartImport([]byte(string(data)), format)
		if jerr != nil {
			t.Fatalf("one call imported, a sliced import failed to start: %v", jerr)
		}
		for !job.Step(16) {
		}
		res2, jerr := job.Finish()
		if jerr != nil || len(res2.Sessions) != len(res.Sessions) {
			t.Fatalf("a sliced import differs: %v, %d sessions, want %d", jerr, len(res2.Sessions), len(res.Sessions))
		}
	})
}

// loadsBack fails the test unless the snapshot of session id loads into a
// new store.
func loadsBack(t *testing.T, st *Store, id string) {
	t.Helper()
	snap := snapshot(t, st, id)
	load := New(Options{}).Call([]byte(`{"operation":"snapshot.load","sessionId":` + string(mustJSON(t, id)) + `,"snapshot":` + snap + `}`))
	if !bytes.HasPrefix(load, []byte(`{"ok":true`)) {
		t.Fatalf("the snapshot of %q does not load back: %s", id, load)
	}
}

func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func FuzzImportAuto(f *testing.F) {
	fuzzImport(f, "auto", `[{"mapping":{}}]`, `{"conversationId":"x","messages":[]}`)
}

func FuzzImportOpenWebUI(f *testing.F) {
	fuzzImport(f, "openwebui", `[{"id":"w","chat":{"history":{"currentId":"b","messages":{"a":{"id":"a","parentId":null,"childrenIds":["b"],"role":"user","content":"q"},"b":{"id":"b","parentId":"a","role":"assistant","content":"r"}}}}}]`)
}

func FuzzImportLibreChat(f *testing.F) {
	fuzzImport(f, "librechat", `{"conversationId":"r","recursive":true,"messages":[{"messageId":"a","parentMessageId":"00000000-0000-0000-0000-000000000000","isCreatedByUser":true,"text":"q","children":[{"messageId":"b","parentMessageId":"a","text":"r","children":[]}]}]}`)
}

func FuzzImportClaudeCode(f *testing.F) {
	fuzzImport(f, "claude-code", "{\"type\":\"user\",\"uuid\":\"u\",\"parentUuid\":null,\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"type\":\"assistant\",\"uuid\":\"a\",\"parentUuid\":\"u\",\"sessionId\":\"s\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"yo\"}]}}\n")
}

func FuzzImportChatbotUI(f *testing.F) {
	fuzzImport(f, "chatbotui", `{"version":4,"history":[{"id":"c","name":"n","prompt":"be brief","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}],"folders":[]}`)
}

func FuzzImportPi(f *testing.F) {
	fuzzImport(f, "pi", piV3, "{\"type\":\"session\",\"id\":\"v1\",\"timestamp\":\"2025-01-01T00:00:00Z\",\"cwd\":\"\"}\n{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}\n{\"type\":\"compaction\",\"summary\":\"s\",\"firstKeptEntryIndex\":1,\"tokensBefore\":1}\n")
}

func FuzzImportClaudeAI(f *testing.F) {
	fuzzImport(f, "claudeai", `[{"uuid":"c","name":"n","current_leaf_message_uuid":"b","chat_messages":[{"uuid":"a","sender":"human","text":"q","parent_message_uuid":"00000000-0000-4000-8000-000000000000","attachments":[{"file_name":"f","extracted_content":"x"}]},{"uuid":"b","sender":"assistant","content":[{"type":"thinking","thinking":"t"},{"type":"text","text":"r"}],"parent_message_uuid":"a"}]}]`,
		`{"name":"n","chat_messages":[{"sender":"human","text":"a"},{"sender":"assistant","text":"b"}]}`)
}

func FuzzImportSillyTavern(f *testing.F) {
	fuzzImport(f, "sillytavern", "{\"user_name\":\"u\",\"character_name\":\"c\",\"create_date\":\"2025-04-05 @18h 00m 00s 000ms\",\"chat_metadata\":{}}\n{\"name\":\"c\",\"is_user\":false,\"mes\":\"b\",\"swipes\":[\"a\",\"b\"],\"swipe_id\":1,\"swipe_info\":[{\"extra\":{\"reasoning\":\"r\"}},{}]}\n{\"name\":\"u\",\"is_user\":true,\"is_system\":true,\"mes\":\"hidden\"}\n")
}

func FuzzImportOpenAI(f *testing.F) {
	fuzzImport(f, "openai", `[{"role":"system","content":"s"},{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"r"}]`,
		`{"model":"m","title":"t","messages":[{"role":"user","content":[{"type":"text","text":"q"}]}]}`,
		"{\"messages\":[{\"role\":\"user\",\"content\":\"a\"}]}\n{\"custom_id\":\"r\",\"body\":{\"messages\":[{\"role\":\"user\",\"content\":\"b\"}]}}\n{\"messages\":[]}\n")
}
