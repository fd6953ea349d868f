package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withoutIDs drops a ChatGPT export's conversation_id.
func withoutIDs(t *testing.T, data []byte) []byte {
	t.Helper()
	var convs []obj
	require.NoError(t, json.Unmarshal(data, &convs))
	for _, c := range convs {
		delete(c, "conversation_id")
		delete(c, "id")
	}
	out, err := json.Marshal(convs)
	require.NoError(t, err)
	return out
}

func TestImportAgain(t *testing.T) {
	grown := append(append([]rec(nil), branchy[:4]...),
		rec{id: "e1", parent: "d1", text: "more", t: 7}, rec{id: "f1", parent: "e1", text: "and more", t: 8})
	t.Run("a ChatGPT conversation without an id imported twice adds nothing the second time", func(t *testing.T) {
		data := withoutIDs(t, writeChatGPT("x", branchy, "d2"))
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		id := res.Sessions[0].SessionID
		assert.Regexp(t, `^chatgpt-[0-9a-f]{16}$`, id, "an id derived from the conversation")
		assertReimportAddsNothing(t, st, data)
	})
	for _, ids := range []bool{true, false} {
		name := "with ids"
		if !ids {
			name = "without ids"
		}
		t.Run("a grown ChatGPT conversation ("+name+") adds only its new turns and moves the cursor along", func(t *testing.T) {
			old, now := writeChatGPT("g", branchy[:4], "d1"), writeChatGPT("g", grown, "f1")
			if !ids {
				old, now = withoutIDs(t, old), withoutIDs(t, now)
			}
			st := testStore(t)
			first := mustImport(t, st, old, "auto")
			id := first.Sessions[0].SessionID
			ok[Status](t, st, obj{"operation": "label", "sessionId": id, "nodeId": "b1", "label": "mine"})
			res := mustImport(t, st, now, "auto")
			require.Len(t, res.Sessions, 1)
			got := res.Sessions[0]
			assert.Equal(t, id, got.SessionID, "the same session")
			assert.True(t, got.Existing)
			assert.Equal(t, 2, got.Added)
			assert.Equal(t, 6, got.NodeCount)
			assert.Equal(t, treeShape{6, 1, 0, "f1", []string{"main"}}, shapeOf(t, st, id), "the new turns continue main")
			assert.Len(t, st.s.ByID, 1)
			assert.Contains(t, snapshot(t, st, id), `"label":"mine"`, "what the user added stays")
			assertReimportAddsNothing(t, st, now)
		})
	}
	t.Run("new turns on another branch are added as a branch; a cursor the user moved stays", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, writeChatGPT("g", branchy[:4], "d1"), "auto")
		ok[Status](t, st, obj{"operation": "jump", "sessionId": "g", "nodeId": "c1"})
		res := mustImport(t, st, writeChatGPT("g", branchy, "d2"), "auto")
		assert.Equal(t, 2, res.Sessions[0].Added)
		sh := shapeOf(t, st, "g")
		assert.Equal(t, 6, sh.Nodes)
		assert.Equal(t, 1, sh.BranchPoints)
		assert.Equal(t, "c1", sh.Cursor, "a cursor off the path to the new turns is not moved")
		assert.Equal(t, []string{"main", "main-2"}, sh.Branches)
	})
	t.Run("a grown Pi file brings the labels on its new nodes; a label on an old node stays the user's", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, writePi("p1", branchy[:4], "d1"), "auto")
		ok[Status](t, st, obj{"operation": "label", "sessionId": "p1", "nodeId": "b1", "label": "mine"})
		now := string(writePi("p1", grown, "f1")) +
			`{"type":"label","id":"l1","parentId":"f1","timestamp":"` + isoTime(9) + `","targetId":"e1","label":"new turn"}` + "\n" +
			`{"type":"label","id":"l2","parentId":"l1","timestamp":"` + isoTime(10) + `","targetId":"b1","label":"from pi"}` + "\n"
		res := mustImport(t, st, []byte(now), "auto")
		assert.Equal(t, 2, res.Sessions[0].Added)
		labels := map[string]string{}
		for _, r := range ok[Tree](t, st, obj{"operation": "tree", "sessionId": "p1"}).Rows {
			if r.Label != "" {
				labels[r.ID] = r.Label
			}
		}
		assert.Equal(t, map[string]string{"b1": "mine", "e1": "new turn"}, labels)
		assertReimportAddsNothing(t, st, []byte(now))
	})
	t.Run("another conversation under a taken session id becomes <id>-2, and importing it again adds nothing", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, writePi("p1", branchy[:4], "d1"), "auto")
		other := []rec{{id: "x1", text: "another", t: 1}, {id: "x2", parent: "x1", text: "chat", t: 2}}
		res := mustImport(t, st, writePi("p1", other, "x2"), "auto")
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, "p1-2", res.Sessions[0].SessionID)
		assert.False(t, res.Sessions[0].Existing)
		assert.Equal(t, 2, res.Sessions[0].NodeCount)
		require.NotEmpty(t, res.Warnings)
		assert.Equal(t, `session "p1" already holds another conversation (no node in common with this one); it is imported as session "p1-2"`, res.Warnings[len(res.Warnings)-1].Message)
		assert.Equal(t, 4, shapeOf(t, st, "p1").Nodes, "the first conversation is untouched")
		again := mustImport(t, st, writePi("p1", other, "x2"), "auto")
		assert.Equal(t, "p1-2", again.Sessions[0].SessionID)
		assert.True(t, again.Sessions[0].Existing)
		assert.Equal(t, 0, again.Sessions[0].Added)
		assert.Len(t, st.s.ByID, 2)
	})
	t.Run("the warnings of a conversation imported as <id>-2 name <id>-2, not the other conversation's id", func(t *testing.T) {
		st := testStore(t)
		line := func(uuid, parent, text string) string {
			return `{"type":"user","uuid":"` + uuid + `","parentUuid":"` + parent + `","sessionId":"S","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
		}
		mustImport(t, st, []byte(`{"type":"user","uuid":"p","parentUuid":null,"sessionId":"S","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"first chat"}}`+"\n"), "auto")
		res := mustImport(t, st, []byte(line("x", "ghost", "second chat")+line("y", "x", "reply")), "auto")
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, "S-2", res.Sessions[0].SessionID)
		require.Len(t, res.Warnings, 2)
		for _, w := range res.Warnings {
			assert.Equal(t, "S-2", w.SessionID, w.Message)
		}
		assert.Contains(t, res.Warnings[0].Message, `"ghost"`)
		assert.Equal(t, 2, res.Sessions[0].Warnings)
	})
	t.Run("a grown Claude Code file adds its new lines", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, writeClaudeCode("c1", branchy[:4]), "auto")
		res := mustImport(t, st, writeClaudeCode("c1", grown), "auto")
		assert.Equal(t, 2, res.Sessions[0].Added)
		assert.Equal(t, "f1", shapeOf(t, st, "c1").Cursor)
	})
	t.Run("a grown Chatbot UI chat without ids adds its new messages", func(t *testing.T) {
		chat := func(msgs ...string) []byte {
			parts := make([]string, len(msgs))
			for i, m := range msgs {
				role := "user"
				if i%2 == 1 {
					role = "assistant"
				}
				parts[i] = `{"role":"` + role + `","content":"` + m + `"}`
			}
			return []byte(`{"version":4,"history":[{"name":"n","messages":[` + strings.Join(parts, ",") + `]}]}`)
		}
		st := testStore(t)
		first := mustImport(t, st, chat("q", "a"), "auto")
		res := mustImport(t, st, chat("q", "a", "q2", "a2"), "auto")
		assert.Equal(t, first.Sessions[0].SessionID, res.Sessions[0].SessionID)
		assert.Equal(t, 2, res.Sessions[0].Added)
		assert.Equal(t, 4, res.Sessions[0].NodeCount)
		assert.Equal(t, 1, res.Sessions[0].RootCount)
	})
}

// TestImportReportOfALoadedSnapshotIsTheImports: importFile's snapshot
// fast path loads a file with snapshot.load and reports the session with
// import.report; the entry must be the one the import of the same file
// gives (a session of two branches, one with an entry).
func TestImportReportOfALoadedSnapshotIsTheImports(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, `{"operation":"create","sessionId":"r","title":"Two answers"}`)
	a := ok[Node](t, st, `{"operation":"append","sessionId":"r","message":{"role":"user","content":"first"}}`)
	ok[Node](t, st, `{"operation":"append","sessionId":"r","message":{"role":"assistant","content":"answer"}}`)
	ok[Status](t, st, obj{"operation": "branch", "sessionId": "r", "nodeId": a.ID, "branch": "other"})
	ok[Node](t, st, `{"operation":"append","sessionId":"r","message":{"role":"assistant","content":"another answer"}}`)
	ok[Node](t, st, `{"operation":"append","sessionId":"r","entry":{"kind":"model_change","provider":"p","model":"m"}}`)
	snap := snapshot(t, st, "r")
	require.NotEmpty(t, snap)

	imported := testStore(t)
	res := mustImport(t, imported, []byte(snap), "snapshot")
	require.Len(t, res.Sessions, 1)

	loaded := testStore(t)
	ok[Status](t, loaded, `{"operation":"snapshot.load","sessionId":"r","snapshot":`+snap+`}`)
	report := ok[ImportedSession](t, loaded, `{"operation":"import.report","sessionId":"r"}`)
	assert.Equal(t, res.Sessions[0], report)
	assert.Equal(t, 4, report.NodeCount)
	assert.Equal(t, 1, report.RootCount)
	assert.Equal(t, 2, report.BranchCount)
	assert.Equal(t, "Two answers", report.Title)
	fails(t, loaded, `{"operation":"import.report","sessionId":"none"}`, SessionNotFound)
}
