package core

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// folderFiles reads every file under testdata/folders/<dir> as ImportFiles,
// paths relative to that folder, in sorted order.
func folderFiles(tb testing.TB, dir string) []ImportFile {
	tb.Helper()
	root := filepath.Join("testdata", "folders", dir)
	var files []ImportFile
	require.NoError(tb, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files = append(files, ImportFile{Path: filepath.ToSlash(rel), Data: data})
		return err
	}))
	return files
}

// mustImportFiles imports files into st and requires success.
func mustImportFiles(tb testing.TB, st *Store, files []ImportFile) *FilesResult {
	tb.Helper()
	res, err := st.ImportFiles(files)
	require.Nil(tb, err, "import failed: %v", err)
	return res
}

// fileSessions returns the sessions of a report as "tool id project title
// added/nodes" lines, sorted.
func fileSessions(res *FilesResult) []string {
	var out []string
	for _, s := range res.Sessions {
		out = append(out, s.Tool+" "+s.SessionID+" "+s.Project+" | "+s.Title+" | "+strconv.Itoa(s.Added)+"/"+strconv.Itoa(s.NodeCount))
	}
	slices.Sort(out)
	return out
}

func TestImportFilesCline(t *testing.T) {
	const id = "1733000000000"
	wantContext := []string{
		"user: <task>\nAdd a README that explains how to run the app\n</task>\n<environment_details>\n# Current Working Directory (/home/dev/app) Files\nmain.go\ngo.mod\n</environment_details>",
		"assistant: I will write the README.\n[tool use: write_to_file] {\"path\":\"README.md\",\"content\":\"# App\\n\\nRun `go run .`\\n\"}",
		"user: [write_to_file for 'README.md'] Result:\nThe content was successfully saved to README.md.",
		"assistant: The README is written.",
	}
	t.Run("a task folder imports the API history as the context, UI messages and metadata as entries", func(t *testing.T) {
		st := testStore(t)
		res := mustImportFiles(t, st, folderFiles(t, "cline"))
		assert.Equal(t, []string{"cline " + id + " /home/dev/app | Add a README that explains how to run the app | 9/9"}, fileSessions(res))
		assert.Empty(t, res.Warnings)
		assert.Equal(t, "tasks/"+id, res.Sessions[0].Path)
		assert.Equal(t, wantContext, roleTexts(t, st, id))
		sh := shapeOf(t, st, id)
		assert.Equal(t, 2, sh.Roots, "the chain and the task metadata")
		for _, f := range res.Files {
			assert.Equal(t, "cline", f.Tool, f.Path)
		}
	})
	t.Run("importing the same folder again adds nothing, and a grown task adds its new records", func(t *testing.T) {
		st := testStore(t)
		mustImportFiles(t, st, folderFiles(t, "cline"))
		again := mustImportFiles(t, st, folderFiles(t, "cline"))
		assert.Equal(t, []string{"cline " + id + " /home/dev/app | Add a README that explains how to run the app | 0/9"}, fileSessions(again))
		grown := mustImportFiles(t, st, folderFiles(t, "cline-grown"))
		assert.Equal(t, []string{"cline " + id + " /home/dev/app | Add a README that explains how to run the app | 3/12"}, fileSessions(grown))
		assert.Equal(t, append(slices.Clone(wantContext), "user: <feedback>\nAlso mention the tests\n</feedback>", "assistant: Added a Tests section."), roleTexts(t, st, id))
	})
	t.Run("a lone api_conversation_history.json imports by its content", func(t *testing.T) {
		st := testStore(t)
		data, err := os.ReadFile("testdata/folders/cline/tasks/" + id + "/api_conversation_history.json")
		require.NoError(t, err)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, "cline", res.Format)
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, 4, res.Sessions[0].NodeCount)
		assert.Equal(t, "/home/dev/app", res.Sessions[0].Project)
		assert.Equal(t, wantContext, roleTexts(t, st, res.Sessions[0].SessionID))
		again := mustImport(t, st, data, "auto")
		assert.Equal(t, 0, again.Sessions[0].Added)
	})
	t.Run("a task folder without its API history is reported, not imported", func(t *testing.T) {
		st := testStore(t)
		files := folderFiles(t, "cline")
		files = slices.DeleteFunc(files, func(f ImportFile) bool { return filepath.Base(f.Path) == "api_conversation_history.json" })
		_, err := st.ImportFiles(files)
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "tasks/"+id+"/ui_messages.json: the task folder has no api_conversation_history.json")
	})
	t.Run("an API history that is not an array is named in plain words, no Go type", func(t *testing.T) {
		st := testStore(t)
		files := folderFiles(t, "cline")
		for i, f := range files {
			if filepath.Base(f.Path) == "api_conversation_history.json" {
				files[i].Data = []byte(`{}`)
			}
		}
		_, err := st.ImportFiles(files)
		require.NotNil(t, err)
		assert.Contains(t, err.Message, `task "`+id+`": api_conversation_history.json is not an array of messages (the value must be an array, not an object at byte 0); skipped`)
		assert.NotContains(t, err.Message, "Go value")
	})
}

func TestImportFilesOpenCode(t *testing.T) {
	t.Run("a storage tree imports each session, steps of one reply in order, bookkeeping parts as entries", func(t *testing.T) {
		st := testStore(t)
		res := mustImportFiles(t, st, folderFiles(t, "opencode"))
		assert.Equal(t, []string{
			"opencode ses_01a /home/dev/site | Fix the header layout | 12/12",
			"opencode ses_01b /home/dev/site | Find the files that render the header | 3/3",
		}, fileSessions(res))
		assert.Empty(t, res.Warnings)
		assert.Equal(t, []string{
			"user: Fix the header on the home page\n[file]",
			"assistant: Look at header.tsx first.\n[tool use: read] {\"filePath\":\"/home/dev/site/header.tsx\"}",
			"user: <file>\nexport const Header = () => null\n</file>",
			"assistant: The header is fixed.",
			"user: Thanks",
			"assistant: You're welcome.",
		}, roleTexts(t, st, "ses_01a"))
		sh := shapeOf(t, st, "ses_01a")
		assert.Equal(t, treeShape{12, 1, 0, sh.Cursor, []string{"main"}}, sh)
		ctx := contextMessages(t, st, "ses_01a")
		assert.Contains(t, ctx[1], `{"type":"thinking","thinking":"Look at header.tsx first."}`)
		assert.Contains(t, ctx[1], `{"type":"tool_use","id":"call_01","name":"read","input":{"filePath":"/home/dev/site/header.tsx"}}`)
		assert.Contains(t, ctx[0], `"filename":"shot.png"`)
		assert.Contains(t, snapshot(t, st, "ses_01b"), `"parentID":"ses_01a"`, "the sub-agent session names its parent")
	})
	t.Run("importing the same tree again adds nothing", func(t *testing.T) {
		st := testStore(t)
		mustImportFiles(t, st, folderFiles(t, "opencode"))
		again := mustImportFiles(t, st, folderFiles(t, "opencode"))
		assert.Equal(t, []string{
			"opencode ses_01a /home/dev/site | Fix the header layout | 0/12",
			"opencode ses_01b /home/dev/site | Find the files that render the header | 0/3",
		}, fileSessions(again))
	})
	t.Run("a part whose message file is missing and a broken record are named in warnings", func(t *testing.T) {
		st := testStore(t)
		files := append(folderFiles(t, "opencode"),
			ImportFile{Path: "storage/part/msg_999/prt_999.json", Data: []byte(`{"id":"prt_999","sessionID":"ses_01a","messageID":"msg_999","type":"text","text":"lost"}`)},
			ImportFile{Path: "storage/message/ses_01a/msg_998.json", Data: []byte(`{"id":`)})
		res := mustImportFiles(t, st, files)
		assert.Len(t, res.Warnings, 2)
		texts := []string{res.Warnings[0].Message, res.Warnings[1].Message}
		assert.Contains(t, texts, `storage: part "prt_999" names message "msg_999", which has no message file; skipped`)
		assert.Contains(t, texts[0]+texts[1], "storage/message/ses_01a/msg_998.json: not an OpenCode message record")
	})
	for _, c := range []struct{ name, parent, want string }{
		{"a reply whose parentID is its own id is said to reply to itself", "msg_002",
			`storage: session "ses_01a": message "msg_002" replies to itself; it follows the message before it`},
		{"a reply whose parentID names a later message says so, not that it is missing", "msg_005",
			`storage: session "ses_01a": message "msg_002" replies to "msg_005", which comes after it; it follows the message before it`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := testStore(t)
			files := folderFiles(t, "opencode")
			for i, f := range files {
				if strings.HasSuffix(f.Path, "message/ses_01a/msg_002.json") {
					files[i].Data = bytes.Replace(f.Data, []byte(`"parentID": "msg_001"`), []byte(`"parentID": "`+c.parent+`"`), 1)
				}
			}
			res := mustImportFiles(t, st, files)
			require.Len(t, res.Warnings, 1)
			assert.Equal(t, c.want, res.Warnings[0].Message)
		})
	}
	t.Run("a record whose field has another type names the field in plain words, no Go type", func(t *testing.T) {
		st := testStore(t)
		files := append(folderFiles(t, "opencode"),
			ImportFile{Path: "storage/message/ses_01a/msg_997.json", Data: []byte(`{"id":5,"sessionID":"ses_01a","role":"user"}`)})
		res := mustImportFiles(t, st, files)
		require.Len(t, res.Warnings, 1)
		assert.Equal(t, `storage: storage/message/ses_01a/msg_997.json: not an OpenCode message record ("id" must be a string, not a number at byte 7); skipped`, res.Warnings[0].Message)
	})
}

func TestImportLobeChat(t *testing.T) {
	v7, err := os.ReadFile("testdata/folders/lobechat/lobechat-v7.json")
	require.NoError(t, err)
	v1, err := os.ReadFile("testdata/folders/lobechat/lobechat-v1.json")
	require.NoError(t, err)
	wantTopic := []string{
		"system: You are a careful SQL tutor.",
		"user: How do I join two tables?",
		"assistant: Use an INNER JOIN with ON a.id = b.a_id.",
		"user: And keep rows without a match?",
		"assistant: Use a LEFT JOIN.",
	}
	dangling := `session "Joining tables": message "m6" replies to "m0-deleted", which is not in this conversation; it is attached to the root`
	t.Run("a version 7 export gives one session per session and topic, forks as branches", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, v7, "auto")
		assert.Equal(t, "lobechat", res.Format)
		require.Len(t, res.Sessions, 2)
		assert.Equal(t, "lobechat-tp_sql", res.Sessions[0].SessionID)
		assert.Equal(t, "Joining tables", res.Sessions[0].Title)
		assert.Equal(t, "SQL Tutor", res.Sessions[0].Project)
		assert.Equal(t, "lobechat-inbox", res.Sessions[1].SessionID)
		assert.Equal(t, "Hello there", res.Sessions[1].Title)
		assert.Equal(t, []string{dangling}, warningTexts(res))
		assert.Equal(t, treeShape{7, 1, 2, "m5", []string{"main", "main-2", "main-3"}}, shapeOf(t, st, "lobechat-tp_sql"))
		assert.Equal(t, wantTopic, roleTexts(t, st, "lobechat-tp_sql"))
		assert.Equal(t, []string{"user: Hello there", "assistant: Hi! How can I help?"}, roleTexts(t, st, "lobechat-inbox"))
		again := mustImport(t, st, v7, "auto")
		assert.Equal(t, 0, again.Sessions[0].Added+again.Sessions[1].Added)
	})
	t.Run("a version 1 export of the same chat imports the same", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, v1, "auto")
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, []string{dangling}, warningTexts(res))
		assert.Equal(t, wantTopic, roleTexts(t, st, "lobechat-tp_sql"))
		assert.Equal(t, treeShape{7, 1, 2, "m5", []string{"main", "main-2", "main-3"}}, shapeOf(t, st, "lobechat-tp_sql"))
		again := mustImport(t, st, v7, "auto")
		assert.Equal(t, 0, again.Sessions[0].Added, "the version 7 copy adds nothing to what version 1 made")
	})
}

func TestImportFilesLayouts(t *testing.T) {
	t.Run("files outside a layout are read alone by content, with the project their path names", func(t *testing.T) {
		st := testStore(t)
		pi := `{"type":"session","version":3,"id":"pi-1","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/home/me/proj"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-02T03:04:08.000Z","message":{"role":"user","content":"Plan it"}}
`
		cc := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"cc-1","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"hello"}}
`
		res := mustImportFiles(t, st, []ImportFile{
			{Path: ".pi/agent/sessions/--home-me-proj--/2026.jsonl", Data: []byte(pi)},
			{Path: "projects\\-home-me-web\\cc-1.jsonl", Data: []byte(cc)},
			{Path: "notes.txt", Data: []byte("hi")},
		})
		assert.Equal(t, []string{
			"claude-code cc-1 /home/me/web | hello | 1/1",
			"pi pi-1 /home/me/proj | Plan it | 2/2",
		}, fileSessions(res))
		assert.Equal(t, FileReport{Path: "notes.txt", Skipped: "not a session file (JSON, JSON lines or an Aider history); skipped"}, res.Files[2])
	})
	t.Run("two files given the same path are each reported with what they gave", func(t *testing.T) {
		st := testStore(t)
		line := func(uuid string) []byte {
			return []byte(`{"type":"user","uuid":"` + uuid + `","parentUuid":null,"sessionId":"cc-1","timestamp":"2026-01-02T03:04:05.000Z","message":{"role":"user","content":"hello ` + uuid + `"}}` + "\n")
		}
		res := mustImportFiles(t, st, []ImportFile{
			{Path: "a/x.jsonl", Data: line("u1")},
			{Path: "a/x.jsonl", Data: line("u2")},
			{Path: "a/x.jsonl", Data: []byte("# notes")},
		})
		assert.Equal(t, []string{"claude-code cc-1  | hello u1 | 1/1", "claude-code cc-1-2  | hello u2 | 1/1"}, fileSessions(res))
		require.Len(t, res.Files, 3)
		assert.Equal(t, []FileReport{
			{Path: "a/x.jsonl", Tool: "claude-code", Sessions: 1},
			{Path: "a/x.jsonl", Tool: "claude-code", Sessions: 1},
		}, res.Files[:2], "each by its place in the list, not by its path")
		assert.Contains(t, res.Files[2].Skipped, `import data is not JSON, JSON lines or an Aider chat history: it begins "# notes"`)
	})
	t.Run("a folder where no file gives a session is refused, each file named with its reason", func(t *testing.T) {
		st := testStore(t)
		_, err := st.ImportFiles([]ImportFile{
			{Path: "junk/notes.md", Data: []byte("# notes")},
			{Path: "junk/sub/cut.json", Data: []byte(`{"conversations": [`)},
		})
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "nothing imported: junk/notes.md: not a session file")
		require.Len(t, err.Files, 2)
		assert.Equal(t, FileReport{Path: "junk/notes.md", Skipped: "not a session file (JSON, JSON lines or an Aider history); skipped"}, err.Files[0])
		assert.Equal(t, "junk/sub/cut.json", err.Files[1].Path)
		assert.Contains(t, err.Message, "junk/sub/cut.json: "+err.Files[1].Skipped)
		assert.Empty(t, st.Sessions())
	})
	t.Run("a manifest splits one buffer into files; sizes that do not add up are refused", func(t *testing.T) {
		files, err := ParseFileManifest([]byte(`[{"path":"a.json","size":2},{"path":"b/c.jsonl","size":3}]`), []byte("{}abc"))
		require.Nil(t, err)
		assert.Equal(t, []ImportFile{{Path: "a.json", Data: []byte("{}")}, {Path: "b/c.jsonl", Data: []byte("abc")}}, files)
		_, err = ParseFileManifest([]byte(`[{"path":"a.json","size":2}]`), []byte("{}abc"))
		require.NotNil(t, err)
		assert.Equal(t, "the file list's sizes add up to 2 bytes, but 5 were given", err.Message)
	})
}

// TestImportFilesClaudeCodeSubAgents: a sub-agent's transcript (its lines
// carry the parent's sessionId and isSidechain) joins its parent's session
// as a sidechain, in <id>/subagents/ or beside it as before Claude Code 2,
// whatever the order the files come in; it never takes the session's id,
// title or cursor.
func TestImportFilesClaudeCodeSubAgents(t *testing.T) {
	const id = "5d1e0000-0000-4000-8000-000000000001"
	line := func(uuid, parent, role, text string, side bool, extra string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		sc := ""
		if side {
			sc = `"isSidechain":true,"agentId":"` + extra + `",`
		}
		return `{"type":"` + role + `","uuid":"` + uuid + `","parentUuid":` + p + `,` + sc + `"sessionId":"` + id + `","cwd":"/home/me/shop","timestamp":"2026-03-01T10:00:0` + uuid[len(uuid)-1:] + `.000Z","message":{"role":"` + role + `","content":"` + text + `"}}` + "\n"
	}
	main := line("m1", "", "user", "Fix the cart", false, "") + line("m2", "m1", "assistant", "Looking at it", false, "") +
		line("m3", "m2", "user", "Thanks", false, "")
	subA := line("a1", "", "user", "Find the cart code", true, "a11111") + line("a2", "a1", "assistant", "cart.go", true, "a11111")
	subB := line("b1", "", "user", "Run the tests", true, "a22222") + line("b2", "b1", "assistant", "All pass", true, "a22222")
	legacy := line("c1", "", "user", "Read the docs", true, "9f8e7d6c")
	dir := "projects/-home-me-shop/"
	files := []ImportFile{
		{Path: dir + id + "/subagents/agent-a11111.jsonl", Data: []byte(subA)},
		{Path: dir + "agent-9f8e7d6c.jsonl", Data: []byte(legacy)},
		{Path: dir + id + ".jsonl", Data: []byte(main)},
		{Path: dir + id + "/subagents/agent-a22222.jsonl", Data: []byte(subB)},
	}
	check := func(t *testing.T, st *Store) {
		t.Helper()
		require.Len(t, st.s.Order, 1, "one session: %v", st.s.Order)
		s := st.s.ByID[id]
		require.NotNil(t, s)
		assert.Equal(t, "Fix the cart", s.Title)
		assert.Equal(t, "m3", s.NodeID(s.Cursor), "the main line's leaf")
		assert.Equal(t, 8, s.Len())
		branch := func(n string) string { return s.Nodes[s.Index[n]].Branch }
		assert.Equal(t, branch("a1"), branch("a2"))
		assert.Equal(t, branch("b1"), branch("b2"))
		got := []string{branch("a1"), branch("b1"), branch("c1")}
		slices.Sort(got)
		assert.Equal(t, []string{"sidechain", "sidechain-2", "sidechain-3"}, got, "each sub-agent a sidechain of its own")
		ctx := string(st.Call([]byte(`{"operation":"context","sessionId":"` + id + `"}`)))
		assert.Contains(t, ctx, "Fix the cart")
		assert.NotContains(t, ctx, "Find the cart code", "a sub-agent's work is not the model's context")
	}
	t.Run("one folder: the sub-agents join the parent's session, listed first or not", func(t *testing.T) {
		st := testStore(t)
		res := mustImportFiles(t, st, files)
		check(t, st)
		for _, w := range res.Warnings {
			assert.NotContains(t, w.Message, "already holds another conversation")
		}
		require.Len(t, res.Sessions, 1, "one session, reported once")
		assert.Equal(t, []any{id, false, 8, 8, "Fix the cart"}, []any{res.Sessions[0].SessionID, res.Sessions[0].Existing, res.Sessions[0].Added, res.Sessions[0].NodeCount, res.Sessions[0].Title})
		again := mustImportFiles(t, st, files)
		for _, s := range again.Sessions {
			assert.Equal(t, 0, s.Added, "a second import adds nothing")
		}
		check(t, st)
	})
	t.Run("a sub-agent imported before its parent, in another call, takes the parent's line, title and cursor after", func(t *testing.T) {
		st := testStore(t)
		mustImportFiles(t, st, files[:2])
		require.NotNil(t, st.s.ByID[id])
		mustImportFiles(t, st, files[2:])
		check(t, st)
	})
	t.Run("a parent imported as <id>-2 (its id another conversation's) takes its sub-agents there", func(t *testing.T) {
		st := testStore(t)
		other := strings.ReplaceAll(strings.ReplaceAll(main, `"m`, `"o`), `"Fix the cart"`, `"Another chat"`)
		mustImportFiles(t, st, []ImportFile{{Path: "elsewhere/" + id + ".jsonl", Data: []byte(other)}})
		res := mustImportFiles(t, st, files)
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, id+"-2", res.Sessions[0].SessionID)
		assert.Equal(t, 3, st.s.ByID[id].Len(), "the other conversation is left as it was")
		moved := st.s.ByID[id+"-2"]
		require.NotNil(t, moved)
		assert.Equal(t, 8, moved.Len(), "the parent and its three sub-agents")
		assert.Equal(t, "m3", moved.NodeID(moved.Cursor))
	})
	t.Run("a session renamed before its parent came keeps the rename, saved and loaded back", func(t *testing.T) {
		st := testStore(t)
		mustImportFiles(t, st, files[:1])
		_, err := st.Rename(id, "My own name")
		require.NoError(t, err)
		mustImportFiles(t, st, files[2:3])
		assert.Equal(t, "My own name", st.s.ByID[id].Title)
		saved := snapshot(t, st, id)
		assert.Contains(t, saved, `"title":"My own name"`)
		loaded := testStore(t)
		ok[Status](t, loaded, `{"operation":"snapshot.load","sessionId":"`+id+`","snapshot":`+saved+`}`)
		assert.Equal(t, saved, snapshot(t, loaded, id), "saved and loaded back as it was")
	})
	t.Run("a session made here under the id is no parent: a sub-agent goes to a session of its own, with a warning", func(t *testing.T) {
		st := testStore(t)
		ok[Status](t, st, `{"operation":"create","sessionId":"`+id+`","title":"Mine"}`)
		ok[Status](t, st, `{"operation":"append","sessionId":"`+id+`","message":{"role":"user","content":"hello"}}`)
		res := mustImportFiles(t, st, files[:1])
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, id+"-2", res.Sessions[0].SessionID)
		assert.Equal(t, 1, st.s.ByID[id].Len(), "the session made here is left as it was")
		assert.Equal(t, "", st.s.ByID[id].Tool)
		var said []string
		for _, w := range res.Warnings {
			said = append(said, w.Message)
		}
		assert.Contains(t, said, files[0].Path+`: session "`+id+`" already holds another conversation (no node in common with this one); it is imported as session "`+id+`-2"`)
	})
	t.Run("a folder in batches: the parent moved to <id>-2 by one call takes its sub-agents in the next", func(t *testing.T) {
		st := testStore(t)
		ok[Status](t, st, `{"operation":"create","sessionId":"`+id+`","title":"Mine"}`)
		ok[Status](t, st, `{"operation":"append","sessionId":"`+id+`","message":{"role":"user","content":"hello"}}`)
		first := mustImportFiles(t, st, files[2:3])
		require.Equal(t, id+"-2", first.Sessions[0].SessionID)
		next := mustImportFiles(t, st, []ImportFile{files[0], files[1], files[3]})
		require.Len(t, next.Sessions, 1)
		assert.Equal(t, []any{id + "-2", true, 5}, []any{next.Sessions[0].SessionID, next.Sessions[0].Existing, next.Sessions[0].Added})
		assert.Equal(t, 1, st.s.ByID[id].Len(), "the session made here is left as it was")
		moved := st.s.ByID[id+"-2"]
		assert.Equal(t, 8, moved.Len(), "the parent and its three sub-agents")
		assert.Equal(t, "m3", moved.NodeID(moved.Cursor))
		assert.Equal(t, "Fix the cart", moved.Title)
		assert.Nil(t, st.s.ByID[id+"-3"])
	})
	madeHere := func(t *testing.T, st *Store) {
		t.Helper()
		ok[Status](t, st, `{"operation":"create","sessionId":"`+id+`","title":"Mine"}`)
		ok[Status](t, st, `{"operation":"append","sessionId":"`+id+`","message":{"role":"user","content":"hello"}}`)
	}
	t.Run("a sub-agent read before its parent, in another call, with a session made here under the id: both go to <id>-2", func(t *testing.T) {
		st := testStore(t)
		madeHere(t, st)
		first := mustImportFiles(t, st, files[:1])
		require.Equal(t, id+"-2", first.Sessions[0].SessionID)
		next := mustImportFiles(t, st, files[1:])
		require.Len(t, next.Sessions, 1)
		assert.Equal(t, id+"-2", next.Sessions[0].SessionID, "the parent joins its sub-agent")
		assert.Equal(t, 1, st.s.ByID[id].Len())
		assert.Equal(t, 8, st.s.ByID[id+"-2"].Len())
		assert.Equal(t, "Fix the cart", st.s.ByID[id+"-2"].Title)
		assert.Nil(t, st.s.ByID[id+"-3"])
	})
	t.Run("a parent brought by a snapshot (no tool, its import record kept) is joined by its sub-agents", func(t *testing.T) {
		a := testStore(t)
		mustImportFiles(t, a, files[2:3])
		saved := snapshot(t, a, id)
		st := testStore(t)
		ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"`+id+`","snapshot":`+saved+`}`)
		res := mustImportFiles(t, st, []ImportFile{files[0], files[1], files[3]})
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, []any{id, true, 5}, []any{res.Sessions[0].SessionID, res.Sessions[0].Existing, res.Sessions[0].Added})
		assert.Empty(t, res.Warnings)
		assert.Equal(t, 8, st.s.ByID[id].Len())
	})
	t.Run("a paged-out parent past an id in the trash is loaded before a sub-agent joins it", func(t *testing.T) {
		st := testStore(t)
		madeHere(t, st)
		ok[Status](t, st, `{"operation":"create","sessionId":"`+id+`-2","title":"Gone"}`)
		ok[TrashItem](t, st, `{"operation":"delete","sessionId":"`+id+`-2"}`)
		ok[map[string]int](t, st, obj{"operation": "page.stub", "sessions": []obj{{"sessionId": id + "-3", "nodeCount": 3, "tool": "claude-code", "title": "Fix the cart"}}})
		before := string(st.Call([]byte(`{"operation":"sessions"}`)))
		_, err := st.ImportFiles(files[:1])
		require.NotNil(t, err, "the stub must be loaded first, not written into")
		assert.Equal(t, PagedOut, err.Code)
		assert.Contains(t, err.Message, id+"-3")
		assert.Equal(t, before, string(st.Call([]byte(`{"operation":"sessions"}`))), "nothing changed")
	})
	t.Run("a sub-agent imported after its parent, in another call, leaves the cursor and title", func(t *testing.T) {
		st := testStore(t)
		mustImportFiles(t, st, files[2:3])
		mustImportFiles(t, st, []ImportFile{files[0], files[1], files[3]})
		check(t, st)
	})
}

// pageOutForTest pages session id of st out, as the shim's pager does, and
// returns the restore request that loads it back.
func pageOutForTest(t *testing.T, st *Store, id string) string {
	t.Helper()
	st.DrainChanges(true)
	s := ok[Status](t, st, obj{"operation": "session", "sessionId": id})
	req, err := json.Marshal(obj{"operation": "restore", "title": s.Title, "createdAt": s.CreatedAt, "updatedAt": s.UpdatedAt, "tool": st.s.ByID[id].Tool, "snapshot": json.RawMessage(snapshot(t, st, id))})
	require.NoError(t, err)
	ok[obj](t, st, obj{"operation": "page.out", "sessionId": id})
	return string(req)
}

// importFilesAsShim imports files as the shim does: on PAGED_OUT (which
// must change nothing) it loads the sessions named (restores: their
// restore requests) and calls again.
func importFilesAsShim(t *testing.T, st *Store, restores map[string]string, files []ImportFile) *FilesResult {
	t.Helper()
	for range 5 {
		before := sessionsAnswer(t, st)
		res, err := st.ImportFiles(files)
		if err == nil {
			return res
		}
		require.Equal(t, PagedOut, err.Code, err.Message)
		require.Equal(t, before, sessionsAnswer(t, st), "PAGED_OUT changed nothing")
		for _, id := range ok[[]string](t, st, `{"operation":"page.faults"}`) {
			r, found := restores[id]
			require.True(t, found, "a fault on %s", id)
			ok[Status](t, st, r)
		}
	}
	t.Fatal("the import asked for sessions again and again")
	return nil
}

// Two conversations of one id in one call: the first fills the free
// "<id>-2", so the second walks on to "<id>-3", paged out: it must be
// asked for before anything is added (it was not, and the second file was
// dropped without a word).
func TestImportFilesPagedWalkPastWhatTheCallFills(t *testing.T) {
	const id = "5d1e0000-0000-4000-8000-000000000002"
	line := func(uuid, parent, text string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"type":"user","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"` + id + `","cwd":"/w","timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	other := ImportFile{Path: "elsewhere/" + id + ".jsonl", Data: []byte(line("o1", "", "Another chat") + line("o2", "o1", "more"))}
	parent := ImportFile{Path: "projects/-w/" + id + ".jsonl", Data: []byte(line("m1", "", "Fix the cart") + line("m2", "m1", "more"))}
	setup := func(t *testing.T) *Store {
		st := testStore(t)
		ok[Status](t, st, `{"operation":"create","sessionId":"`+id+`","title":"Mine"}`)
		ok[Status](t, st, `{"operation":"append","sessionId":"`+id+`","message":{"role":"user","content":"hello"}}`)
		mustImportFiles(t, st, []ImportFile{other})
		mustImportFiles(t, st, []ImportFile{parent})
		require.Equal(t, "Fix the cart", st.s.ByID[id+"-3"].Title)
		ok[TrashItem](t, st, `{"operation":"delete","sessionId":"`+id+`-2"}`)
		ok[obj](t, st, `{"operation":"trash.empty","sessionId":"`+id+`-2"}`)
		return st
	}
	report := func(res *FilesResult) []string {
		var out []string
		for _, s := range res.Sessions {
			out = append(out, s.SessionID+" "+strconv.Itoa(s.Added))
		}
		return out
	}
	loaded := setup(t)
	want := report(mustImportFiles(t, loaded, []ImportFile{other, parent}))
	require.Equal(t, []string{id + "-2 2", id + "-3 0"}, want)
	paged := setup(t)
	restores := map[string]string{id + "-3": pageOutForTest(t, paged, id+"-3")}
	assert.Equal(t, want, report(importFilesAsShim(t, paged, restores, []ImportFile{other, parent})), "paged out or not, the same import")
	assert.Empty(t, ok[[]string](t, paged, `{"operation":"page.faults"}`))
}
