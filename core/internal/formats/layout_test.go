package formats

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGroupFilesByTheToolsLayouts groups a home folder of every layout:
// OpenCode's storage tree as one group, a Cline task folder as one, every
// other session file alone, the rest skipped with the reason.
func TestGroupFilesByTheToolsLayouts(t *testing.T) {
	paths := []string{
		"home/.codex/sessions/2026/01/02/rollout-a.jsonl",
		"home/.local/share/opencode/storage/session/p/ses_1.json",
		"home/.local/share/opencode/storage/message/ses_1/msg_1.json",
		"home/cline/tasks/42/api_conversation_history.json",
		"home/cline/tasks/42/ui_messages.json",
		"home/cline/tasks/42/settings.json",
		"home/notes.txt",
		"home/repo/.aider.chat.history.md",
		"home/repo/node_modules/left-pad/package.json",
		"home/repo/.git/logs/HEAD.json",
		"home/.claude/projects/-home-me/5d1e/subagents/agent-a1.meta.json",
		"home/.claude/projects/-home-me/5d1e/subagents/agent-a1.jsonl",
		"home/node_modules.json",
	}
	files := make([]File, len(paths))
	for i, p := range paths {
		files[i] = File{Path: p}
	}
	groups, skipped := GroupFiles(files)
	assert.Equal(t, []FileGroup{
		{Layout: "file", Path: paths[0], Files: []int{0}},
		{Layout: "opencode", Path: "home/.local/share/opencode/storage", Files: []int{1, 2}},
		{Layout: "cline", Path: "home/cline/tasks/42", Files: []int{3, 4}},
		{Layout: "file", Path: paths[7], Files: []int{7}},
		{Layout: "file", Path: paths[11], Files: []int{11}},
		{Layout: "file", Path: paths[12], Files: []int{12}},
	}, groups)
	assert.Equal(t, "inside node_modules (packages), not a session file; skipped", skipped[8])
	assert.Equal(t, "inside .git (version control), not a session file; skipped", skipped[9])
	assert.Equal(t, "a Claude Code sub-agent's metadata (its type), not a session file; skipped", skipped[10])
	assert.Equal(t, "not a conversation file of the task folder; skipped", skipped[5])
	assert.Equal(t, "not a session file (JSON, JSON lines or an Aider history); skipped", skipped[6])
	assert.Equal(t, "", skipped[0])
}

func TestPathProjectAndCleanPath(t *testing.T) {
	for p, want := range map[string]string{
		"x/.claude/projects/-home-me-api/abc.jsonl":    "/home/me/api",
		"x/.pi/agent/sessions/--home-me-web--/s.jsonl": "/home/me/web",
		"x/.gemini/tmp/9f86d08/chats/session-1.json":   "9f86d08",
		"work/repo/.aider.chat.history.md":             "work/repo",
		"x/.codex/sessions/2026/01/02/rollout-a.jsonl": "",
		"x/.claude/projects/plain/abc.jsonl":           "plain",
	} {
		assert.Equal(t, want, PathProject(p), p)
	}
	assert.Equal(t, "a/b/c.json", CleanPath(`./\a\b/c.json`))
	assert.Equal(t, "a/b", CleanPath("/./a/b"))
}
