package core

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestImportClaudeCodeTwoConversationsUnderOneID: two conversations that
// carry one Claude Code sessionId are both imported, neither merged into
// the other, and the report says where the second went; a session that
// goes on from another (a resume or compaction under a new id) stays one
// tree. The transcripts are lines of the shared fixtures, copied.
func TestImportClaudeCodeTwoConversationsUnderOneID(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile("testdata/fixtures/claude-code/" + name)
		require.NoError(t, err)
		return string(data)
	}
	const sideID = "88a8d761-7b9a-4bf1-a8ca-c1febe6bf358"
	const sideLeaf = "91c82c1c-29b0-4149-a261-e5582d944ac6"
	rewind := read("dag_compact_after_rewind.jsonl") // session "s1": 12 lines, leaf p1a, first prompt "Start"
	side := read("sidechain_integrated.jsonl")       // session sideID: 6 lines, leaf sideLeaf
	sideAsS1 := strings.ReplaceAll(side, sideID, "s1")
	const sideTitle = "Research data-border-color usage and CSS class mat..."
	// a session's id, title, node count and cursor
	shape := func(t *testing.T, st *Store, id string) []any {
		t.Helper()
		s := st.s.ByID[id]
		require.NotNil(t, s, "session %q", id)
		return []any{id, s.Title, s.Len(), s.NodeID(s.Cursor)}
	}
	texts := func(ws []ImportWarning) string {
		var out []string
		for _, w := range ws {
			out = append(out, w.SessionID+": "+w.Message)
		}
		return strings.Join(out, "\n")
	}

	t.Run("two files of one folder with one sessionId and no message in common: the second becomes <id>-2, and the report says so", func(t *testing.T) {
		st := testStore(t)
		files := []ImportFile{{Path: "projects/-tmp/s1.jsonl", Data: []byte(rewind)}, {Path: "backup/-tmp/s1.jsonl", Data: []byte(sideAsS1)}}
		res := mustImportFiles(t, st, files)
		assert.Equal(t, []string{"claude-code s1 /tmp | Start | 12/12", "claude-code s1-2 e:\\Workspace\\src\\github\\claude-code-log | " + sideTitle + " | 6/6"}, fileSessions(res))
		assert.Equal(t, []any{"s1", "Start", 12, "p1a"}, shape(t, st, "s1"))
		assert.Equal(t, []any{"s1-2", sideTitle, 6, sideLeaf}, shape(t, st, "s1-2"))
		assert.Contains(t, texts(res.Warnings), `s1-2: backup/-tmp/s1.jsonl: session "s1" already holds another conversation (no node in common with this one); it is imported as session "s1-2"`)
		again := mustImportFiles(t, st, files)
		for _, s := range again.Sessions {
			assert.Equal(t, 0, s.Added, "importing the folder again adds nothing to %q", s.SessionID)
		}
		assert.Len(t, st.s.ByID, 2)
	})
	t.Run("the same two files in separate imports: the same two sessions, and either again adds nothing", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, []byte(rewind), "auto")
		res := mustImport(t, st, []byte(sideAsS1), "auto")
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, []any{"s1-2", false, 6}, []any{res.Sessions[0].SessionID, res.Sessions[0].Existing, res.Sessions[0].Added})
		assert.Contains(t, texts(res.Warnings), `s1-2: session "s1" already holds another conversation (no node in common with this one); it is imported as session "s1-2"`)
		assert.Equal(t, []any{"s1", "Start", 12, "p1a"}, shape(t, st, "s1"), "the first conversation is left as it was")
		assertReimportAddsNothing(t, st, []byte(sideAsS1))
		assertReimportAddsNothing(t, st, []byte(rewind))
		assert.Len(t, st.s.ByID, 2)
	})
	t.Run("one file naming two sessions that share no message: two sessions, each its own title, cursor and context", func(t *testing.T) {
		for _, order := range []string{"its own first", "the other first"} {
			t.Run(order, func(t *testing.T) {
				st := testStore(t)
				summary := `{"type":"summary","summary":"Border colours","leafUuid":"` + sideLeaf + `"}` + "\n"
				data, second, line := summary+rewind+side, sideID, 14
				if order == "the other first" {
					data, second, line = summary+side+rewind, "s1", 8
				}
				res := mustImport(t, st, []byte(data), "auto")
				require.Len(t, res.Sessions, 2)
				assert.Equal(t, []any{"s1", "Start", 12, "p1a"}, shape(t, st, "s1"))
				assert.Equal(t, []any{sideID, "Border colours", 6, sideLeaf}, shape(t, st, sideID), "the summary of its leaf titles it")
				first := map[string]string{"s1": sideID, sideID: "s1"}[second]
				assert.Contains(t, texts(res.Warnings), second+`: session "`+st.s.ByID[second].Title+`": the file names another Claude Code session, "`+second+`" (first on line `+strconv.Itoa(line)+`), that shares no message with session "`+first+`": it is imported as a session of its own, not merged into "`+first+`"`)
				ctx := contextOf(t, st, "s1")
				assert.Contains(t, ctx, "After compaction")
				assert.NotContains(t, ctx, "data-border-color", "the other conversation is not in this one's context")
				assert.Contains(t, contextOf(t, st, sideID), "data-border-color")
				assertReimportAddsNothing(t, st, []byte(data))
			})
		}
	})
	t.Run("one file whose second session goes on from the first (a compaction under a new id) stays one session", func(t *testing.T) {
		st := testStore(t)
		lines := strings.SplitAfter(rewind, "\n")
		data := strings.Join(lines[:8], "") + strings.ReplaceAll(strings.Join(lines[8:], ""), `"sessionId":"s1"`, `"sessionId":"s2"`)
		res := mustImport(t, st, []byte(data), "auto")
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, []any{"s1", "Start", 12, "p1a"}, shape(t, st, "s1"))
		assert.NotContains(t, texts(res.Warnings), "second Claude Code session")
	})
	t.Run("a resumed session's file, holding the lines it went on from, grows the session it continues in a folder", func(t *testing.T) {
		st := testStore(t)
		lines := strings.SplitAfter(rewind, "\n")
		before := strings.Join(lines[:8], "")
		resumed := before + strings.ReplaceAll(strings.Join(lines[8:], ""), `"sessionId":"s1"`, `"sessionId":"s2"`)
		res := mustImportFiles(t, st, []ImportFile{{Path: "projects/-tmp/s1.jsonl", Data: []byte(before)}, {Path: "projects/-tmp/s2.jsonl", Data: []byte(resumed)}})
		assert.Equal(t, []string{"claude-code s1 /tmp | Start | 12/12"}, fileSessions(res), "one session, its 4 new messages added")
		assert.Equal(t, []any{"s1", "Start", 12, "p1a"}, shape(t, st, "s1"))
		assert.Len(t, st.s.ByID, 1)
	})
	t.Run("a session split off a file has the project its own lines name, not the first session's", func(t *testing.T) {
		for _, data := range []string{rewind + side, side + rewind} {
			st := testStore(t)
			require.Len(t, mustImport(t, st, []byte(data), "auto").Sessions, 2)
			assert.Equal(t, "/tmp", st.s.ByID["s1"].Project)
			assert.Equal(t, `e:\Workspace\src\github\claude-code-log`, st.s.ByID[sideID].Project)
		}
	})
	t.Run("an id whose lines carry no message is no session of its own", func(t *testing.T) {
		lines := strings.SplitAfter(rewind, "\n")
		queued := func(id string) string { // a line Claude Code writes with no uuid
			return `{"type":"queue-operation","operation":"enqueue","timestamp":"2025-07-01T10:05:00.000Z","sessionId":"` + id + `","content":"later"}` + "\n"
		}
		for name, c := range map[string]struct{ data, id string }{
			"between the first id's lines":                                            {strings.Join(lines[:4], "") + queued("s2") + strings.Join(lines[4:], ""), "s1"},
			"before them (the session takes the id named first, as before the split)": {queued("s0") + rewind, "s0"},
		} {
			t.Run(name, func(t *testing.T) {
				st := testStore(t)
				res := mustImport(t, st, []byte(c.data), "auto")
				assert.Equal(t, []any{c.id, "Start", 12, "p1a"}, shape(t, st, c.id))
				assert.Empty(t, res.Skipped)
				assert.NotContains(t, texts(res.Warnings), "second Claude Code session")
				assert.Len(t, st.s.ByID, 1)
			})
		}
	})
	t.Run("a message in the lines of two ids (a copied root) makes them one session", func(t *testing.T) {
		st := testStore(t)
		data := rewind + strings.Replace(strings.SplitAfter(rewind, "\n")[0], `"sessionId":"s1"`, `"sessionId":"s2"`, 1)
		res := mustImport(t, st, []byte(data), "auto")
		assert.Equal(t, []any{"s1", "Start", 12, "p1a"}, shape(t, st, "s1"))
		assert.Contains(t, texts(res.Warnings), `message "u1" appears again`)
		assert.Len(t, st.s.ByID, 1)
		assertReimportAddsNothing(t, st, []byte(data))
	})
}
