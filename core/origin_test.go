package core

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// origins returns the sessions answer as "id tool project" lines, in order.
func origins(tb testing.TB, st *Store) []string {
	tb.Helper()
	var out []string
	for _, s := range ok[[]SessionSummary](tb, st, `{"operation":"sessions"}`) {
		out = append(out, s.SessionID+" "+s.Tool+" "+s.Project)
	}
	return out
}

func TestSessionsAnswerToolAndProject(t *testing.T) {
	codex, err := os.ReadFile(filepath.Join("testdata", "imports", "codex", "rollout-2025-10-06T09-15-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl"))
	require.NoError(t, err)
	claude := []byte(`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"cc-web","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"Add a footer"}}` + "\n")

	t.Run("a folder import records each session's tool and project, the path's project where the file has none", func(t *testing.T) {
		st := testStore(t)
		st.TrackChanges(true)
		ok[any](t, st, `{"operation":"create","sessionId":"mine","title":"Made here"}`)
		mustImportFiles(t, st, []ImportFile{
			{Path: ".codex/sessions/2025/10/06/rollout.jsonl", Data: codex},
			{Path: ".claude/projects/-home-me-web/cc-web.jsonl", Data: claude},
			{Path: "code/shop/.aider.chat.history.md", Data: []byte("# aider chat started at 2026-01-02 03:04:05\n\n#### Add a cart  \n\nThe cart is added.\n")},
		})
		assert.Equal(t, []string{ // in creation order: the files' own dates, then "mine", made now
			"0199a213-81c0-7800-8aa1-bbab2a035a53 codex /home/dev/bookshop", // the session_meta cwd
			"aider-eab8c90245b1ac3f aider code/shop",
			"cc-web claude-code /home/me/web",
			"mine  ",
		}, origins(t, st))
		drained := string(st.DrainChanges(false))
		assert.Contains(t, drained, `"tool":"claude-code","project":"/home/me/web"`, "the drained metadata carries them")
	})

	t.Run("one Aider history in two repositories: one session, reported with the project it keeps", func(t *testing.T) {
		st := testStore(t)
		history := []byte("# aider chat started at 2026-01-02 03:04:05\n\n#### Add a cart  \n\nThe cart is added.\n")
		res := mustImportFiles(t, st, []ImportFile{
			{Path: "code/shop/.aider.chat.history.md", Data: history},
			{Path: "code/blog/.aider.chat.history.md", Data: history},
		})
		assert.Equal(t, []string{"aider-eab8c90245b1ac3f aider code/shop"}, origins(t, st))
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, "code/shop", res.Sessions[0].Project, "the report names the project the session keeps")
		// Imported again from the second repository alone: the same.
		again := mustImportFiles(t, st, []ImportFile{{Path: "code/blog/.aider.chat.history.md", Data: history}})
		require.Len(t, again.Sessions, 1)
		assert.Equal(t, "code/shop", again.Sessions[0].Project)
		assert.Equal(t, []string{"aider-eab8c90245b1ac3f aider code/shop"}, origins(t, st))
	})

	t.Run("a later import whose file names another working folder reports the project the session keeps", func(t *testing.T) {
		st := testStore(t)
		line := func(uuid, parent, cwd string) string {
			p := "null"
			if parent != "" {
				p = `"` + parent + `"`
			}
			return `{"type":"user","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"cc-cwd","cwd":"` + cwd + `","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"step ` + uuid + `"}}` + "\n"
		}
		first := ok[ImportResult](t, st, obj{"operation": "import", "format": "claude-code", "data": line("u1", "", "/home/me/web")})
		require.Len(t, first.Sessions, 1)
		assert.Equal(t, "/home/me/web", first.Sessions[0].Project)
		again := ok[ImportResult](t, st, obj{"operation": "import", "format": "claude-code", "data": line("u1", "", "/home/me/moved") + line("u2", "u1", "/home/me/moved")})
		require.Len(t, again.Sessions, 1)
		assert.Equal(t, 1, again.Sessions[0].Added)
		assert.Equal(t, "/home/me/web", again.Sessions[0].Project, "the project the session keeps, not the file's")
		assert.Equal(t, []string{"cc-cwd claude-code /home/me/web"}, origins(t, st))
	})

	t.Run("a later import and a snapshot import keep the first origin", func(t *testing.T) {
		st := testStore(t)
		mustImportFiles(t, st, []ImportFile{{Path: "a/projects/-home-me-web/cc-web.jsonl", Data: claude}})
		mustImportFiles(t, st, []ImportFile{{Path: "b/projects/-home-me-other/cc-web.jsonl", Data: claude}})
		snap := ok[RawMessage](t, st, `{"operation":"snapshot.save","sessionId":"cc-web"}`)
		ok[any](t, st, map[string]any{"operation": "snapshot.load", "sessionId": "cc-web", "snapshot": snap})
		assert.Equal(t, []string{"cc-web claude-code /home/me/web"}, origins(t, st))
	})

	t.Run("restore and page.stub take them back, and a stub keeps them", func(t *testing.T) {
		st := testStore(t)
		snap := `{"version":1,"sessionId":"r","cursor":null,"activeBranch":"main","nodes":[]}`
		ok[any](t, st, `{"operation":"restore","snapshot":`+snap+`,"tool":"codex","project":"/home/me/api"}`)
		ok[any](t, st, `{"operation":"page.stub","sessions":[{"sessionId":"p","title":"Paged","createdAt":"2026-01-02T03:04:05.000Z","updatedAt":"2026-01-02T03:04:05.000Z","nodeCount":3,"tool":"gemini","project":"/home/me/g"}]}`)
		assert.Equal(t, []string{"p gemini /home/me/g", "r codex /home/me/api"}, origins(t, st)) // p was created first
		env := do(t, st, `{"operation":"restore","snapshot":`+snap+`,"tool":7}`)
		require.False(t, env.OK)
		assert.Equal(t, `field "tool" must be a string`, env.Error.Message)
	})
}
