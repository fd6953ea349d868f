package core

import "testing"

func FuzzImportCline(f *testing.F) {
	fuzzImport(f, "cline", `[{"role":"user","content":[{"type":"text","text":"<task>\nq\n</task>"}],"ts":1},{"role":"assistant","content":[{"type":"text","text":"r"},{"type":"tool_use","id":"t","name":"n","input":{}}]},{"role":"user","content":"[n] Result: ok"}]`)
}

func FuzzImportLobeChat(f *testing.F) {
	fuzzImport(f, "lobechat", `{"exportType":"all","version":7,"state":{"sessions":[{"id":"s","config":{"systemRole":"be kind"},"meta":{"title":"A"}}],"topics":[{"id":"t","title":"T","sessionId":"s"}],"messages":[{"id":"a","role":"user","content":"q","sessionId":"s","topicId":"t","createdAt":1},{"id":"b","role":"assistant","content":"r","parentId":"a","sessionId":"s","topicId":"t","createdAt":2},{"id":"c","role":"assistant","content":"r2","parentId":"a","sessionId":"s","topicId":"t","createdAt":3,"tools":[{"id":"x","apiName":"f","arguments":"{}"}]}]}}`,
		`{"exportType":"sessions","version":1,"state":{"sessions":{"s":{"config":{"systemRole":"x"},"meta":{},"chats":{"a":{"id":"a","role":"user","content":"q","createAt":1},"b":{"id":"b","role":"function","content":"r","parentId":"gone","createAt":2}},"topics":{}}}}}`)
}

// fuzzFiles checks ImportFiles on a folder of three fuzzed files at fixed
// paths: it answers a report or an error, never panics, and every session
// it reports has a snapshot that loads back, and every warning names one
// of its sessions or skipped conversations or none (warningMismatch).
func fuzzFiles(f *testing.F, paths [3]string, seeds ...[3]string) {
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]), []byte(s[2]))
	}
	f.Fuzz(func(t *testing.T, a, b, c []byte) {
		st := testStore(t)
		res, err := st.ImportFiles([]ImportFile{{Path: paths[0], Data: a}, {Path: paths[1], Data: b}, {Path: paths[2], Data: c}})
		if err != nil {
			if len(st.s.ByID) != 0 {
				t.Fatalf("a failed import added sessions: %v", err)
			}
			return
		}
		var sessions []ImportedSession
		for _, s := range res.Sessions {
			sessions = append(sessions, s.SessionReport)
		}
		if bad := warningMismatch(sessions, res.Skipped, res.Warnings); bad != "" {
			t.Fatalf("the report's warnings do not name its sessions: %s", bad)
		}
		for _, s := range res.Sessions {
			loadsBack(t, st, s.SessionID)
		}
	})
}

func FuzzImportFilesCline(f *testing.F) {
	fuzzFiles(f, [3]string{"tasks/1/api_conversation_history.json", "tasks/1/ui_messages.json", "tasks/1/task_metadata.json"},
		[3]string{`[{"role":"user","content":"<task>q</task>"},{"role":"assistant","content":"a"}]`, `[{"ts":1,"type":"say","say":"task","text":"q"},{"ts":2,"type":"say","say":"text","conversationHistoryIndex":1}]`, `{"files_in_context":[]}`})
}

func FuzzImportFilesOpenCode(f *testing.F) {
	fuzzFiles(f, [3]string{"storage/session/p/ses_1.json", "storage/message/ses_1/msg_1.json", "storage/part/msg_1/prt_1.json"},
		[3]string{`{"id":"ses_1","directory":"/d","title":"t","time":{"created":1}}`, `{"id":"msg_1","sessionID":"ses_1","role":"user","time":{"created":1}}`, `{"id":"prt_1","sessionID":"ses_1","messageID":"msg_1","type":"text","text":"hi"}`},
		[3]string{`{"id":"ses_1"}`, `{"id":"msg_1","sessionID":"ses_1","role":"assistant","parentID":"msg_0","error":{"name":"x"}}`, `{"id":"prt_1","messageID":"msg_1","type":"tool","callID":"c","tool":"t","state":{"status":"running","input":{}}}`})
}
