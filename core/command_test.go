package core

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// transcript runs command lines against session id and writes each line,
// then its text (or "! CODE: message") — the golden form of the commands.
func transcript(tb testing.TB, st *Store, id string, lines ...string) string {
	tb.Helper()
	var b strings.Builder
	for _, line := range lines {
		env := do(tb, st, obj{"operation": "command", "line": line, "sessionId": id})
		fmt.Fprintf(&b, "> %s\n", line)
		if !env.OK {
			fmt.Fprintf(&b, "! %s: %s\n", env.Error.Code, env.Error.Message)
			continue
		}
		var res struct {
			Command string  `json:"command"`
			Text    string  `json:"text"`
			Draft   *string `json:"draft"`
		}
		require.NoError(tb, json.Unmarshal(env.Value, &res))
		b.WriteString(res.Text)
	}
	return b.String()
}

func TestCommandTexts(t *testing.T) {
	t.Run("the seed example answers every command", func(t *testing.T) {
		st := testStore(t)
		seedSession(t, st, "demo")
		golden(t, "commands-seed.txt", transcript(t, st, "demo",
			"/tree help",
			"/session",
			"/tree list",
			"/tree branches",
			"/tree tree",
			"/tree context",
			"/tree diff main option-b",
			"/tree diff n0002 n0001",
			"/tree jump n0002",
			"/tree branch n0001 \"option c\"",
			"/tree label n0001 the very first question",
			"/tree label n0002 'baseline ✓'",
			"/tree tree",
			"/tree label n0002 \"\"",
			"/tree snapshot save",
			"/fork n0003",
			"/fork n0001",
			"/fork n0002",
			"/clone copy",
			"/clone",
		))
	})

	t.Run("a three-branch tree with labels, a hidden subtree and a preferred path", func(t *testing.T) {
		st := testStore(t)
		buildBranchy(t, st, "b")
		annotateBranchy(t, st, "b")
		golden(t, "commands-branchy.txt", transcript(t, st, "b",
			"/tree tree",
			"/tree list",
			"/tree branches",
			"/tree diff main budget",
			"/tree unhide n0003",
			"/tree hide n0005",
			"/tree prefer n0006",
			"/tree tree",
			"/tree tree all",
			"/tree tree everything",
			"/tree context",
		))
	})

	t.Run("entry kinds show in list, context and session", func(t *testing.T) {
		st := testStore(t)
		buildEntries(t, st, "e")
		golden(t, "commands-entries.txt", transcript(t, st, "e",
			"/tree context",
			"/session",
			"/tree jump n0007",
			"/tree context",
		))
	})

	t.Run("a 10,000-node linear run is a few lines", func(t *testing.T) {
		st := testStore(t)
		ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"long","snapshot":`+chainSnapshot("long", 10_000)+`}`)
		golden(t, "commands-long.txt", transcript(t, st, "long",
			"/tree tree",
			"/tree label c4000 checkpoint",
			"/tree tree",
			"/tree diff c9999 c4000",
		))
	})

	t.Run("mistakes answer with the error and the usage", func(t *testing.T) {
		st := testStore(t)
		seedSession(t, st, "demo")
		golden(t, "commands-errors.txt", transcript(t, st, "demo",
			"tree list",
			"/tree",
			"/tree frobnicate n0001",
			"/frob",
			"/tree jump",
			"/tree jump n0001 n0002",
			"/tree branch n0001",
			"/tree list extra",
			"/tree jump zz",
			"/tree label n0001",
			"/tree label \"n0001 x",
			"/tree diff main nope",
			"/tree branch n0001 main",
			"/clone a b",
			"/clone demo",
			"/tree snapshot load",
			"/tree snapshot load {not json}",
			"/tree snapshot load {\"version\":2}",
		))
	})
}

func TestCommandParsing(t *testing.T) {
	st := testStore(t)
	seedSession(t, st, "demo")

	t.Run("a JSON snapshot with spaces is taken whole", func(t *testing.T) {
		snap := snapshot(t, st, "demo")
		spaced := strings.ReplaceAll(strings.ReplaceAll(snap, `,"`, `, "`), `":`, `": `)
		res := ok[obj](t, st, obj{"operation": "command", "line": "/tree snapshot load " + spaced + "  ", "sessionId": "demo"})
		assert.Equal(t, "/tree snapshot load", res["command"])
		assert.Equal(t, snap, snapshot(t, st, "demo"))
	})

	t.Run("double quotes keep spaces and escapes, single quotes keep backslashes", func(t *testing.T) {
		ok[obj](t, st, obj{"operation": "command", "line": `/tree branch n0001 "a \"quoted\" name"`, "sessionId": "demo"})
		assert.Equal(t, `a "quoted" name`, ok[Status](t, st, `{"operation":"session","sessionId":"demo"}`).ActiveBranch)
		ok[obj](t, st, obj{"operation": "command", "line": `/tree label n0001 'C:\temp'`, "sessionId": "demo"})
		assert.Equal(t, `C:\temp`, st.Session("demo").Label("n0001"))
	})

	t.Run("a label takes the rest of the line", func(t *testing.T) {
		ok[obj](t, st, obj{"operation": "command", "line": "/tree label n0002   two  words ", "sessionId": "demo"})
		assert.Equal(t, "two  words", st.Session("demo").Label("n0002"))
	})

	t.Run("help needs no session", func(t *testing.T) {
		res := ok[CommandResult](t, st, `{"operation":"command","line":"/tree help"}`)
		assert.Equal(t, "/tree help", res.Command)
	})

	t.Run("other commands need a session", func(t *testing.T) {
		assert.Equal(t, `field "sessionId" is required for /tree list`, fails(t, st, `{"operation":"command","line":"/tree list"}`, InvalidArgument))
		assert.Equal(t, `session "nope" does not exist`, fails(t, st, `{"operation":"command","line":"/tree list","sessionId":"nope"}`, SessionNotFound))
	})
}

func TestForkCommand(t *testing.T) {
	st := testStore(t)
	seedSession(t, st, "demo")
	ok[obj](t, st, `{"operation":"append","sessionId":"demo","message":{"role":"assistant","content":"B it is."}}`)
	ok[Marks](t, st, `{"operation":"label","sessionId":"demo","nodeId":"n0001","label":"start"}`)

	t.Run("on an assistant message it is refused", func(t *testing.T) {
		assert.Equal(t, `/fork needs a user message; node "n0004" is an assistant message`,
			fails(t, st, `{"operation":"command","line":"/fork n0004","sessionId":"demo"}`, InvalidArgument))
	})

	t.Run("on a user message it yields the draft and the history before it", func(t *testing.T) {
		before := snapshot(t, st, "demo")
		res := ok[CommandResult](t, st, `{"operation":"command","line":"/fork n0003","sessionId":"demo"}`)
		require.NotNil(t, res.Draft)
		assert.Equal(t, "Explore option B", *res.Draft)
		data, _ := json.Marshal(res.Data)
		var status Status
		require.NoError(t, json.Unmarshal(data, &status))
		assert.Equal(t, "n0001", *status.Cursor)
		assert.Equal(t, 1, status.NodeCount)
		ctx := ok[Context](t, st, obj{"operation": "context", "sessionId": status.SessionID})
		assert.Equal(t, []RawMessage{RawMessage(`{"role":"user","content":"Explore option A"}`)}, ctx.Messages)
		assert.Equal(t, "start", st.Session(status.SessionID).Label("n0001"), "annotations of the copied nodes come along")
		assert.Equal(t, before, snapshot(t, st, "demo"), "the source session is unchanged")
	})

	t.Run("on a root user message it yields an empty session", func(t *testing.T) {
		res := ok[CommandResult](t, st, `{"operation":"command","line":"/fork n0001","sessionId":"demo"}`)
		assert.Equal(t, "Explore option A", *res.Draft)
		data, _ := json.Marshal(res.Data)
		var status Status
		require.NoError(t, json.Unmarshal(data, &status))
		assert.Nil(t, status.Cursor)
		assert.Equal(t, 0, status.NodeCount)
		assert.Equal(t, "main", status.ActiveBranch)
	})
}

func TestCommandsRecordTheUnderlyingOperation(t *testing.T) {
	st := testStore(t)
	seedSession(t, st, "demo")
	st.TrackChanges(true)
	cases := []struct{ line, op string }{
		{"/tree jump n0002", "jump"},
		{"/tree branch n0001 x", "branch"},
		{"/tree label n0001 hi", "label"},
		{"/tree hide n0002", "hide"},
		{"/tree prefer n0002", "prefer"},
		{"/tree snapshot load " + snapshot(t, st, "demo"), "snapshot.load"},
	}
	for _, c := range cases {
		t.Run(c.line[:min(len(c.line), 24)]+" records "+c.op, func(t *testing.T) {
			ok[CommandResult](t, st, obj{"operation": "command", "line": c.line, "sessionId": "demo"})
			assert.Contains(t, string(st.DrainChanges(false)), `"operation":"`+c.op+`"`)
		})
	}
	t.Run("a reading command records nothing", func(t *testing.T) {
		ok[CommandResult](t, st, `{"operation":"command","line":"/tree tree","sessionId":"demo"}`)
		assert.Empty(t, st.DrainChanges(false))
	})
}

func TestSnapshotLoadCommandCreatesTheSession(t *testing.T) {
	st := testStore(t)
	res := ok[CommandResult](t, st, `{"operation":"command","line":"/tree snapshot load {\"version\":1, \"sessionId\":\"new\", \"cursor\":null, \"activeBranch\":\"main\", \"nodes\":[]}","sessionId":"new"}`)
	assert.Equal(t, "loaded a snapshot of new: 0 nodes, cursor none on branch main\n", res.Text)
	assert.Equal(t, `{"version":1,"sessionId":"new","cursor":null,"activeBranch":"main","nodes":[]}`, snapshot(t, st, "new"))
}

// FuzzCommand: any command line gives exactly one valid envelope, never a
// panic, and a failed command changes nothing.
func FuzzCommand(f *testing.F) {
	for _, line := range []string{
		"/tree list", "/tree tree", "/tree jump n0002", `/tree branch n0001 "a b"`, "/tree label n0001 'x y'",
		"/tree diff main option-b", "/tree snapshot load {\"version\":1}", "/fork n0003", "/clone", "/session",
		"/tree help", `/tree label "`, "/", "", "/tree \t jump\nn0001", "/tree hide n0001", "/tree prefer n0002",
	} {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		st := testStore(t)
		seedSession(t, st, "demo")
		before := snapshot(t, st, "demo")
		req, err := json.Marshal(obj{"operation": "command", "line": line, "sessionId": "demo"})
		if err != nil {
			t.Skip()
		}
		out := st.Call(req)
		var env envelope
		if json.Unmarshal(out, &env) != nil {
			t.Fatalf("reply is not one JSON envelope: %q", out)
		}
		if !env.OK && snapshot(t, st, "demo") != before {
			t.Fatalf("failed command %q changed the session", line)
		}
	})
}
