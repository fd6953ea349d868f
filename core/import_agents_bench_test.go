package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// codexRollout writes a Codex rollout of turns turns, shaped like the
// ones codex-rs/core/src/rollout/recorder.rs writes: a session_meta with
// about 6 KB of base instructions, then per turn a turn_context, events
// (task_started, user_message, agent_message, token_count), the user
// message, a reasoning item with encrypted content, a shell call and its
// output, and the reply (about 4.6 KB a turn).
func codexRollout(k, turns int) []byte {
	var b strings.Builder
	line := func(sec int, typ string, payload obj) {
		raw, _ := json.Marshal(obj{"timestamp": isoTime(sec), "type": typ, "payload": payload})
		b.Write(raw)
		b.WriteByte('\n')
	}
	id := fmt.Sprintf("0199a213-81c0-7800-8aa1-%012d", k)
	line(0, "session_meta", obj{"id": id, "timestamp": isoTime(0), "cwd": "/home/dev/project", "originator": "codex_cli_rs",
		"cli_version": "0.46.0", "model_provider": "openai", "base_instructions": obj{"text": strings.Repeat("You are Codex. ", 400)}})
	text := func(role, typ, s string) obj {
		return obj{"type": "message", "role": role, "content": []any{obj{"type": typ, "text": s}}}
	}
	for t := 0; t < turns; t++ {
		s := 10 * t
		line(s, "turn_context", obj{"cwd": "/home/dev/project", "approval_policy": "on-request", "model": "gpt-5-codex", "effort": "medium", "summary": "auto"})
		line(s, "event_msg", obj{"type": "task_started", "model_context_window": 272000})
		prompt := fmt.Sprintf("turn %d: %s", t, strings.Repeat("please change the parser ", 10))
		line(s+1, "response_item", text("user", "input_text", prompt))
		line(s+1, "event_msg", obj{"type": "user_message", "message": prompt, "images": []any{}})
		line(s+2, "response_item", obj{"type": "reasoning", "summary": []any{obj{"type": "summary_text", "text": "**Reading the parser**"}},
			"content": nil, "encrypted_content": "gAAAAAB" + strings.Repeat("Zm9v", 300)})
		line(s+3, "response_item", obj{"type": "function_call", "name": "shell", "arguments": `{"command":["bash","-lc","rg parse src"]}`, "call_id": fmt.Sprintf("call_%d", t)})
		line(s+4, "response_item", obj{"type": "function_call_output", "call_id": fmt.Sprintf("call_%d", t), "output": strings.Repeat("src/parse.rs:12: fn parse(input: &str)\n", 30)})
		reply := strings.Repeat("I changed the parser to accept commas. ", 10)
		line(s+5, "response_item", text("assistant", "output_text", reply))
		line(s+5, "event_msg", obj{"type": "agent_message", "message": reply})
		line(s+6, "event_msg", obj{"type": "token_count", "info": obj{"total_token_usage": obj{"input_tokens": 5120 * t, "output_tokens": 310 * t}}})
	}
	return []byte(b.String())
}

// BenchmarkImportAgents imports about 20 MB of each coding agent's
// files: 40 Codex rollouts of about 0.5 MB (one Import each, as a folder
// of them is read), and, as peers in the same run, a Claude Code
// transcript and a Pi session of the same size in one file; the floor is
// jsonx.Valid over every line of the rollouts (reading the bytes once,
// building nothing). MB/s is the import rate (go test -bench
// ImportAgents -benchmem ./core).
func BenchmarkImportAgents(b *testing.B) {
	var rollouts [][]byte
	size := 0
	for k := 0; k < 40; k++ {
		r := codexRollout(k, 110)
		rollouts = append(rollouts, r)
		size += len(r)
	}
	recs := make([]rec, 42000)
	for i := range recs {
		recs[i] = rec{id: fmt.Sprintf("u%07d", i), text: strings.Repeat("y", 400), t: i}
		if i > 0 {
			recs[i].parent = recs[i-1].id
		}
	}
	peers := []struct {
		name string
		data []byte
	}{{"claude-code-20MB", writeClaudeCode("big", recs)}, {"pi-20MB", writePi("big", recs, "")}}
	b.Run(fmt.Sprintf("codex-40-rollouts-%dMB", size>>20), func(b *testing.B) {
		b.SetBytes(int64(size))
		for i := 0; i < b.N; i++ {
			st := New(Options{})
			for _, r := range rollouts {
				res, err := st.Import(r, "auto")
				if err != nil {
					b.Fatal(err)
				}
				importSink = res
			}
		}
	})
	for _, p := range peers {
		b.Run(fmt.Sprintf("%s-%dMB", strings.TrimSuffix(p.name, "-20MB"), len(p.data)>>20), func(b *testing.B) {
			b.SetBytes(int64(len(p.data)))
			for i := 0; i < b.N; i++ {
				res, err := New(Options{}).Import(p.data, "auto")
				if err != nil {
					b.Fatal(err)
				}
				importSink = res
			}
		})
	}
	b.Run("floor-jsonx-valid-codex-lines", func(b *testing.B) {
		b.SetBytes(int64(size))
		for i := 0; i < b.N; i++ {
			for _, r := range rollouts {
				for _, l := range strings.Split(string(r), "\n") {
					if l != "" && !jsonx.Valid([]byte(l)) {
						b.Fatal("not JSON")
					}
				}
			}
		}
	})
}
