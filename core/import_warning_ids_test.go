package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertWarningsNameTheirSessions checks the import report's promise
// (warningMismatch).
func assertWarningsNameTheirSessions(t *testing.T, sessions []ImportedSession, skipped []ImportSkipped, warnings []ImportWarning) {
	t.Helper()
	assert.Empty(t, warningMismatch(sessions, skipped, warnings))
}

// warningMismatch checks the import report's promise (static/report-lines.js
// reportTitles): each warning names a session of the report, under the id
// it was stored as, or a conversation skipped, or none (a file's own
// warning); each session's Warnings counts the warnings that name it. It
// returns what breaks it, "" when nothing does.
func warningMismatch(sessions []ImportedSession, skipped []ImportSkipped, warnings []ImportWarning) string {
	named := map[string]int{}
	for _, w := range warnings {
		if w.SessionID != "" {
			named[w.SessionID]++
		}
	}
	known := map[string]bool{}
	var out []string
	for _, s := range sessions {
		known[s.SessionID] = true
		if named[s.SessionID] != s.Warnings {
			out = append(out, fmt.Sprintf("session %q counts %d warnings, %d name it", s.SessionID, s.Warnings, named[s.SessionID]))
		}
	}
	for _, k := range skipped {
		known[k.SessionID] = true
	}
	for _, w := range warnings {
		if w.SessionID != "" && !known[w.SessionID] {
			out = append(out, fmt.Sprintf("warning %q names session %q, which the report does not hold", w.Message, w.SessionID))
		}
	}
	return strings.Join(out, "\n")
}

// warningsOf returns the texts of the warnings that name session id.
func warningsOf(ws []ImportWarning, id string) []string {
	var out []string
	for _, w := range ws {
		if w.SessionID == id {
			out = append(out, w.Message)
		}
	}
	return out
}

// sidLine is a Claude Code transcript line of session sid: parent "" is
// none (null), "!" a parentUuid that is not a string; uuid "" leaves the
// uuid out (a line that is skipped).
func sidLine(sid, uuid, parent, role, text string) string {
	p := `null`
	switch parent {
	case "":
	case "!":
		p = `7`
	default:
		p = `"` + parent + `"`
	}
	u := ""
	if uuid != "" {
		u = `"uuid":"` + uuid + `",`
	}
	return `{"type":"` + role + `",` + u + `"parentUuid":` + p + `,"sessionId":"` + sid + `","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"` + role + `","content":"` + text + `"}}` + "\n"
}

// TestImportWarningsNameTheStoredSession: a conversation imported under
// another id than its own (its own refused, or another conversation's)
// has every warning of it under the id it was stored as, counted there;
// a warning's text still says the id the file gives.
func TestImportWarningsNameTheStoredSession(t *testing.T) {
	t.Run("a Claude Code transcript whose sessionId holds U+2028: its line warnings name the derived id", func(t *testing.T) {
		st := testStore(t)
		const sid = `s\u2028x` // as JSON writes it
		data := sidLine(sid, "u1", "", "user", "hello") +
			sidLine(sid, "a1", "!", "assistant", "hi") + // line 2: a parentUuid that is not a string
			sidLine(sid, "", "a1", "user", "lost") + // line 3: no uuid, skipped
			"{not json\n" + // line 4: the file's own warning
			sidLine(sid, "a2", "u1", "assistant", "again")
		res := mustImport(t, st, []byte(data), "auto")
		require.Len(t, res.Sessions, 1)
		id := res.Sessions[0].SessionID
		assert.Regexp(t, `^import-[0-9a-f]{16}$`, id)
		assertWarningsNameTheirSessions(t, res.Sessions, res.Skipped, res.Warnings)
		mine := strings.Join(warningsOf(res.Warnings, id), "\n")
		assert.Contains(t, mine, `line 2: record "a1" has a parentUuid that is not a string`)
		assert.Contains(t, mine, `1 user line(s) have no uuid; skipped (lines 3)`)
		assert.Contains(t, mine, `the conversation's id "s\u2028x" holds U+2028`, "the text says the id the file gives")
		assert.Equal(t, []string{"line 4 is not valid JSON: invalid character 'n' looking for an object key at line 4, column 2; it is skipped"}, warningsOf(res.Warnings, ""))
		assert.Equal(t, 3, res.Sessions[0].Warnings)
	})
	t.Run("a Claude Code file naming another session whose id holds a control character: its split warning names the derived id", func(t *testing.T) {
		st := testStore(t)
		const other = `t\u0007`
		data := sidLine("S1", "u1", "", "user", "first") + sidLine("S1", "a1", "u1", "assistant", "one") +
			sidLine(other, "v1", "", "user", "second") + sidLine(other, "b1", "v1", "assistant", "two")
		res := mustImport(t, st, []byte(data), "auto")
		require.Len(t, res.Sessions, 2)
		assert.Equal(t, "S1", res.Sessions[0].SessionID)
		id := res.Sessions[1].SessionID
		assert.Regexp(t, `^import-[0-9a-f]{16}$`, id)
		assertWarningsNameTheirSessions(t, res.Sessions, res.Skipped, res.Warnings)
		mine := strings.Join(warningsOf(res.Warnings, id), "\n")
		assert.Contains(t, mine, `the file names another Claude Code session, "t\a" (first on line 3)`)
	})
	chatgpt := func(id, title, a, b string) string {
		return `{"id":"` + id + `","title":"` + title + `","mapping":{"` + a + `":{"id":"` + a + `","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}},"parent":null,"children":["` + b + `","ghost"]},` +
			`"` + b + `":{"id":"` + b + `","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["yo"]}},"parent":"` + a + `","children":[]}},"current_node":"` + b + `"}`
	}
	t.Run("a ChatGPT conversation whose id holds a control character: its warnings name the derived id, another's stay its own", func(t *testing.T) {
		st := testStore(t)
		data := "[" + chatgpt(`c\u0001`, "Bad id", "a", "b") + "," + chatgpt("good", "Good id", "a", "b") + "]"
		res := mustImport(t, st, []byte(data), "auto")
		require.Len(t, res.Sessions, 2)
		id := res.Sessions[0].SessionID
		assert.Regexp(t, `^import-[0-9a-f]{16}$`, id)
		assert.Equal(t, "good", res.Sessions[1].SessionID)
		assertWarningsNameTheirSessions(t, res.Sessions, res.Skipped, res.Warnings)
		assert.Equal(t, []string{
			`conversation "Bad id": message "a" lists child "ghost", which is not in the mapping; ignored`,
			`the conversation's id "c\x01" holds U+0001, a control character; it is imported as "` + id + `"`,
		}, warningsOf(res.Warnings, id))
		assert.Equal(t, []string{`conversation "Good id": message "a" lists child "ghost", which is not in the mapping; ignored`}, warningsOf(res.Warnings, "good"))
	})
	t.Run("a conversation whose refused id's derived id holds another conversation: its warnings name <derived>-2", func(t *testing.T) {
		st := testStore(t)
		first := mustImport(t, st, []byte("["+chatgpt(`c\u0001`, "First", "a", "b")+"]"), "auto")
		derived := first.Sessions[0].SessionID
		res := mustImport(t, st, []byte("["+chatgpt(`c\u0001`, "Second", "x", "y")+"]"), "auto")
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, derived+"-2", res.Sessions[0].SessionID)
		assertWarningsNameTheirSessions(t, res.Sessions, res.Skipped, res.Warnings)
		assert.Len(t, warningsOf(res.Warnings, derived+"-2"), 3, "the reader's, the refused id's and the move's")
		assert.Equal(t, 3, res.Sessions[0].Warnings)
	})
	t.Run("a conversation whose id another holds: its warnings name <id>-2", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, []byte(sidLine("S", "p", "", "user", "first chat")), "auto")
		res := mustImport(t, st, []byte(sidLine("S", "x", "", "user", "second chat")+sidLine("S", "y", "!", "assistant", "reply")), "auto")
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, "S-2", res.Sessions[0].SessionID)
		assertWarningsNameTheirSessions(t, res.Sessions, res.Skipped, res.Warnings)
		assert.Equal(t, []string{
			`session "second chat": line 2: record "y" has a parentUuid that is not a string; it becomes a root`,
			`session "S" already holds another conversation (no node in common with this one); it is imported as session "S-2"`,
		}, warningsOf(res.Warnings, "S-2"))
	})
}

// TestImportFilesWarningsOfASubAgentFollowItsParent: a Claude Code
// sub-agent's transcript goes to its parent's session, which another
// session's id sent to "<id>-2": its warnings name "<id>-2" too, in
// the call that moved the parent and in a later one.
func TestImportFilesWarningsOfASubAgentFollowItsParent(t *testing.T) {
	const id = "5d1e0000-0000-4000-8000-0000000000aa"
	side := func(uuid, parent, text string) string {
		return strings.Replace(sidLine(id, uuid, parent, "user", text), `{"type"`, `{"isSidechain":true,"agentId":"a1","type"`, 1)
	}
	dir := "projects/-home-me-shop/"
	parent := ImportFile{Path: dir + id + ".jsonl", Data: []byte(sidLine(id, "m1", "", "user", "Fix the cart") + sidLine(id, "m2", "m1", "assistant", "Looking"))}
	agent := ImportFile{Path: dir + id + "/subagents/agent-a1.jsonl", Data: []byte(side("s1", "", "Find the code") + side("s2", "!", "cart.go"))}
	other := func(t *testing.T, st *Store) { // a session made here under the id: no Claude Code parent
		t.Helper()
		ok[Status](t, st, `{"operation":"create","sessionId":"`+id+`","title":"Mine"}`)
		ok[Status](t, st, `{"operation":"append","sessionId":"`+id+`","message":{"role":"user","content":"hello"}}`)
	}
	check := func(t *testing.T, res *FilesResult) {
		t.Helper()
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, id+"-2", res.Sessions[0].SessionID)
		var sessions []ImportedSession
		for _, s := range res.Sessions {
			sessions = append(sessions, s.SessionReport)
		}
		assertWarningsNameTheirSessions(t, sessions, res.Skipped, res.Warnings)
		assert.Contains(t, strings.Join(warningsOf(res.Warnings, id+"-2"), "\n"), agent.Path+`: session "Find the code": line 2: record "s2" has a parentUuid that is not a string`)
	}
	t.Run("in one call", func(t *testing.T) {
		st := testStore(t)
		other(t, st)
		check(t, mustImportFiles(t, st, []ImportFile{parent, agent}))
	})
	t.Run("in a later call", func(t *testing.T) {
		st := testStore(t)
		other(t, st)
		mustImportFiles(t, st, []ImportFile{parent})
		check(t, mustImportFiles(t, st, []ImportFile{agent}))
	})
}
