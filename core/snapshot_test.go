package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSnapshotRejections feeds snapshot.load every fault SPEC.md lists and
// checks the INVALID_SNAPSHOT message names it, with the session unchanged.
func TestSnapshotRejections(t *testing.T) {
	const msg = `"message":{"role":"user","content":"hi"}`
	const ts = `"timestamp":"2026-11-29T12:00:00.000Z"`
	node := func(id, parent, extra string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"id":"` + id + `","parentId":` + p + `,"branch":"main","kind":"message",` + ts + `,` + extra + `}`
	}
	snap := func(nodes ...string) string {
		return `{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[` + strings.Join(nodes, ",") + `]}`
	}
	cases := []struct {
		name     string
		snapshot string
		mention  string
	}{
		{"a snapshot that is not an object", `[1]`, "must be a JSON object"},
		{"a snapshot that is a string", `"x"`, "must be a JSON object"},
		{"a missing version", `{"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}`, `"version" is missing`},
		{"version 2", `{"version":2,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}`, "version 2 is not supported"},
		{"version 0", `{"version":0,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}`, "version 0 is not supported"},
		{"a version that is a string", `{"version":"1","sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}`, `"version" must be an integer`},
		{"a different sessionId", `{"version":1,"sessionId":"t","cursor":null,"activeBranch":"main","nodes":[]}`, `sessionId "t" differs from the request's sessionId "s"`},
		{"nodes that are not an array", `{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":{}}`, `"nodes" must be an array`},
		{"missing nodes", `{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main"}`, `"nodes" must be an array`},
		{"an empty id", snap(node("", "", msg)), "nodes[0] has an empty or missing id"},
		{"a duplicate id", snap(node("a", "", msg), node("a", "", msg)), `nodes[1] repeats the id "a"`},
		{"an unknown parent", snap(node("a", "zz", msg)), `node "a" has parentId "zz", which is not an earlier node`},
		{"a parent that comes later", snap(node("a", "b", msg), node("b", "", msg)), `node "a" has parentId "b", which is not an earlier node`},
		{"a node that is its own parent", snap(node("a", "a", msg)), `node "a" has parentId "a"`},
		{"a cursor that is not a node", `{"version":1,"sessionId":"s","cursor":"ghost","activeBranch":"main","nodes":[]}`, `cursor "ghost" is not a node`},
		{"an empty activeBranch", `{"version":1,"sessionId":"s","cursor":null,"activeBranch":"","nodes":[]}`, `"activeBranch" must be a non-empty string`},
		{"a bad kind", snap(strings.Replace(node("a", "", msg), `"kind":"message"`, `"kind":"poem"`, 1)), `node "a" has a bad kind "poem"`},
		{"a message without role", snap(node("a", "", `"message":{"content":"hi"}`)), `node "a" message.role is missing`},
		{"a message kind without message", snap(node("a", "", `"source":{}`)), `node "a" of kind "message" has no message`},
		{"a bad branch", snap(strings.Replace(node("a", "", msg), `"branch":"main"`, `"branch":""`, 1)), `node "a" has a bad branch`},
		{"a bad timestamp", snap(strings.Replace(node("a", "", msg), ts, `"timestamp":"yesterday"`, 1)), `node "a" has a bad timestamp`},
		{"an unknown node field", snap(node("a", "", msg+`,"colour":"red"`)), `nodes[0] has unknown field "colour"`},
		{"a summary node without summary", snap(strings.Replace(node("a", "", `"source":{}`), `"kind":"message"`, `"kind":"summary"`, 1)), `node "a" of kind "summary" has no summary`},
		// Nodes are parsed while the snapshot's members are read; a fault in
		// them still comes after the faults of the members around them.
		// A lone surrogate escape in a name or the title would be read as
		// U+FFFD: the snapshot would not save back as it was given.
		{"a lone surrogate in a node id", snap(node(`\ud800`, "", msg)), `nodes[0] field "id" holds a lone UTF-16 surrogate`},
		{"a lone surrogate in a branch", snap(strings.Replace(node("a", "", msg), `"branch":"main"`, `"branch":"b\udfff"`, 1)), `nodes[0] field "branch" holds a lone UTF-16 surrogate`},
		{"a lone surrogate in a parentId", snap(node("a", "", msg), node("b", `a\ud800`, msg)), `nodes[1] field "parentId" holds a lone UTF-16 surrogate`},
		{"a lone surrogate in the title", strings.Replace(snap(node("a", "", msg)), `"cursor":null`, `"title":"t\ud800x","cursor":null`, 1), `field "title" holds a lone UTF-16 surrogate`},
		{"a lone surrogate in activeBranch", strings.Replace(snap(), `"activeBranch":"main"`, `"activeBranch":"\udc00"`, 1), `field "activeBranch" holds a lone UTF-16 surrogate`},
		// An annotation's title is the session's title, its label a node's name: alike.
		{"a lone surrogate in a title annotation", strings.Replace(snap(node("a", "", msg)), `]}`, `],"annotations":[{"kind":"title","nodeId":null,"title":"T\ud800",`+ts+`}]}`, 1), `annotations[0] field "title" holds a lone UTF-16 surrogate`},
		{"a lone surrogate in a label annotation", strings.Replace(snap(node("a", "", msg)), `]}`, `],"annotations":[{"kind":"label","nodeId":"a","label":"L\udc00",`+ts+`}]}`, 1), `annotations[0] field "label" holds a lone UTF-16 surrogate`},
		{"a lone surrogate in a source annotation", strings.Replace(snap(node("a", "", msg)), `]}`, `],"annotations":[{"kind":"source","nodeId":null,"sourceSessionId":"x\ud800","sourceNodeId":"a","via":"fork",`+ts+`}]}`, 1), `annotations[0] field "sourceSessionId" holds a lone UTF-16 surrogate`},
		{"a bad node and then an unknown field", strings.Replace(snap(node("a", "zz", msg)), `]}`, `],"colour":1}`, 1), `unknown field "colour"`},
		{"a bad node and then a bad sessionId", strings.Replace(snap(node("a", "zz", msg)), `"sessionId":"s",`, ``, 1) + ``, `"sessionId" must be a non-empty string`},
		{"a bad node before the version", `{"nodes":[` + node("a", "zz", msg) + `],"version":1,"sessionId":"s","cursor":null,"activeBranch":"main"}`, `node "a" has parentId "zz"`},
		{"a good nodes array repeated by a bad one", strings.Replace(snap(node("a", "", msg)), `]}`, `],"nodes":[`+node("b", "zz", msg)+`]}`, 1), `node "b" has parentId "zz"`},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is rejected", func(t *testing.T) {
			st := testStore(t)
			buildBranchy(t, st, "s")
			before := snapshot(t, st, "s")
			msg := fails(t, st, `{"operation":"snapshot.load","sessionId":"s","snapshot":`+tc.snapshot+`}`, InvalidSnapshot)
			assert.Contains(t, msg, tc.mention)
			assert.Equal(t, before, snapshot(t, st, "s"))
		})
	}
}

func TestSnapshotLoadReadsMembersInAnyOrder(t *testing.T) {
	const n1 = `{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-01-02T03:04:05.006Z","message":{"role":"user","content":"one"}}`
	const n2 = `{"id":"b","parentId":"a","branch":"main","kind":"message","timestamp":"2026-01-02T03:04:05.007Z","message":{"role":"assistant","content":"two"}}`
	want := `{"version":1,"sessionId":"o","cursor":"b","activeBranch":"main","nodes":[` + n1 + `,` + n2 + `]}`
	for name, text := range map[string]string{
		"nodes after the version":       want,
		"nodes before the version":      `{"nodes":[` + n1 + `,` + n2 + `],"activeBranch":"main","cursor":"b","sessionId":"o","version":1}`,
		"a repeated nodes, last counts": `{"version":1,"nodes":[` + n1 + `],"sessionId":"o","cursor":"b","activeBranch":"main","nodes":[` + n1 + `,` + n2 + `]}`,
		"white space everywhere":        "{ \"version\" : 1 , \"sessionId\":\"o\", \"cursor\":\"b\",\"activeBranch\":\"main\",\n\"nodes\" : [ " + n1 + " ,\n " + n2 + " ] }",
	} {
		t.Run(name, func(t *testing.T) {
			st := testStore(t)
			ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"o","snapshot":`+text+`}`)
			assert.Equal(t, want, snapshot(t, st, "o"))
		})
	}
}

func TestSnapshotLoadCreatesAMissingSession(t *testing.T) {
	st := testStore(t)
	text := `{"version":1,"sessionId":"new","title":"Restored","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-01-02T03:04:05.006Z","message":{"role":"user","content":"hi"}}]}`
	status := ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"new","snapshot":`+text+`}`)
	assert.Equal(t, "Restored", status.Title)
	assert.Equal(t, 1, status.NodeCount)
	assert.Equal(t, text, snapshot(t, st, "new"))
}

func TestSnapshotLoadAcceptsAForest(t *testing.T) {
	st := testStore(t)
	text := `{"version":1,"sessionId":"f","cursor":"b2","activeBranch":"other","nodes":[` +
		`{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-01-02T03:04:05.006Z","message":{"role":"user","content":"one"}},` +
		`{"id":"b","parentId":null,"branch":"other","kind":"message","timestamp":"2026-01-02T03:04:05.007Z","message":{"role":"user","content":"two"}},` +
		`{"id":"b2","parentId":"b","branch":"other","kind":"message","timestamp":"2026-01-02T03:04:05.008Z","message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`
	ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"f","snapshot":`+text+`}`)
	env := do(t, st, `{"operation":"context","sessionId":"f"}`)
	assert.Equal(t, `{"cursor":"b2","messages":[{"role":"user","content":"two"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}`, string(env.Value))
	tree := ok[Tree](t, st, `{"operation":"tree","sessionId":"f"}`)
	assert.Equal(t, []string{"a", "b"}, tree.Roots)
	assert.Equal(t, text, snapshot(t, st, "f"))
}

// TestMessagesAreLossless: unknown fields, nested arrays, content parts,
// big numbers, emoji, CJK and HTML-ish text come back byte-identical.
func TestMessagesAreLossless(t *testing.T) {
	const message = `{"role":"assistant","content":[{"type":"text","text":"价格是 12345678901234567890 🙂‍↔️ <b>&amp;</b> \"quoted\" \u00e9\n"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA","detail":"high"}}],"tool_calls":[{"id":"call_1","type":"function","function":{"name":"lookup","arguments":"{\"q\":[1,2,[3,[4.50e+10]]]}"}}],"vendor":{"x-score":12345678901234567890,"nested":[[[],{}],null,true,-0.0,1E-7]},"name":"bot"}`
	st := testStore(t)
	ok[Status](t, st, `{"operation":"create","sessionId":"l"}`)
	// Whitespace between tokens is dropped; every token keeps its bytes.
	spaced := strings.Replace(message, `{"role":"assistant",`, "{ \"role\" : \"assistant\" ,\n ", 1)
	node := ok[obj](t, st, `{"operation":"append","sessionId":"l","message":`+spaced+`}`)
	env := do(t, st, `{"operation":"context","sessionId":"l"}`)
	require.True(t, env.OK)
	assert.Equal(t, `{"cursor":"`+node["id"].(string)+`","messages":[`+message+`],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}`, string(env.Value))
	// And through a snapshot round trip into another store.
	text := snapshot(t, st, "l")
	other := testStore(t)
	ok[Status](t, other, `{"operation":"snapshot.load","sessionId":"l","snapshot":`+text+`}`)
	assert.Equal(t, string(env.Value), string(do(t, other, `{"operation":"context","sessionId":"l"}`).Value))
	var decoded struct{ Messages []RawMessage }
	require.NoError(t, json.Unmarshal(env.Value, &decoded))
	assert.Equal(t, message, string(decoded.Messages[0]))
}

func TestSnapshotFieldIsValidatedByTheParser(t *testing.T) {
	// Call only delimits the "snapshot" object; the snapshot parser
	// validates it as it reads (see scanRequest). Every byte is still checked.
	st := testStore(t)
	buildBranchy(t, st, "s")
	before := snapshot(t, st, "s")
	node := `{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"hi"}}`
	broken := map[string]string{
		"a bare word in a node":     strings.Replace(node, `"main"`, `main`, 1),
		"a trailing comma":          node + `,`,
		"a control character":       strings.Replace(node, `hi`, "h\x01i", 1),
		"a bad escape":              strings.Replace(node, `hi`, `h\qi`, 1),
		"an escape at the very end": node + `,"\`,
		"a number with two points":  strings.Replace(node, `"content":"hi"`, `"content":"hi","n":1.2.3`, 1),
		"an unclosed message":       strings.Replace(node, `"hi"}}`, `"hi"}`, 1),
	}
	for name, nodes := range broken {
		t.Run(name+" is refused and changes nothing", func(t *testing.T) {
			req := `{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[` + nodes + `]}}`
			env := do(t, st, req)
			require.False(t, env.OK, "accepted %s", req)
			assert.Contains(t, []Code{InvalidSnapshot, InvalidArgument}, env.Error.Code)
			assert.Contains(t, env.Error.Message, "not valid JSON")
			assert.Equal(t, before, snapshot(t, st, "s"))
		})
	}
	t.Run("white space anywhere is accepted and messages are compacted", func(t *testing.T) {
		spaced := "{ \"version\": 1, \"sessionId\": \"w\", \"cursor\": \"a\", \"activeBranch\": \"main\", \"nodes\": [\n  { \"id\": \"a\", \"parentId\": null, \"branch\": \"main\", \"kind\": \"message\", \"timestamp\": \"2026-11-29T12:00:00.000Z\",\n    \"message\": { \"role\" : \"user\",\n \"content\" : [ { \"type\": \"text\", \"text\": \"two  spaces stay\" } ] } } ] }"
		ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"w","snapshot":`+spaced+`}`)
		assert.Equal(t, `{"version":1,"sessionId":"w","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"two  spaces stay"}]}}]}`, snapshot(t, st, "w"))
	})
}

func TestASnapshotReplacedByALaterSnapshotMemberIsStillValidated(t *testing.T) {
	// Call only delimits a "snapshot" object and leaves the checking to the
	// snapshot parser; a later "snapshot" member replaces it, so Call must
	// check the first one's bytes itself.
	const good = `{"version":1,"sessionId":"r","cursor":null,"activeBranch":"main","nodes":[]}`
	cases := map[string]string{
		"a bare word, then the snapshot":              `{"operation":"restore","snapshot":{"x":tru},"snapshot":` + good + `}`,
		"a bad escape, then null, then the snapshot":  `{"operation":"restore","snapshot":{"a":"\q"},"snapshot":null,"snapshot":` + good + `}`,
		"a number with two points, then the snapshot": `{"operation":"restore","snapshot":{"a":1.2.3},"snapshot":` + good + ` ,"title":"t"}`,
	}
	want := map[string]string{
		"a bare word, then the snapshot":              "request is not valid JSON: invalid character '}' in literal true at line 1, column 43",
		"a bad escape, then null, then the snapshot":  `request is not valid JSON: invalid character 'q' in string escape, expected ", \, /, b, f, n, r, t or u at line 1, column 42`,
		"a number with two points, then the snapshot": "request is not valid JSON: invalid character '.' after object member, expected ',' or '}' at line 1, column 43",
	}
	for name, req := range cases {
		t.Run(name+" is refused and restores nothing", func(t *testing.T) {
			st := testStore(t)
			for _, guess := range []bool{true, false} {
				a := st.call([]byte(req), guess, true)
				require.NotNil(t, a.Err, "guess %v: the request succeeded", guess)
				assert.Equal(t, InvalidArgument, a.Err.Code)
				assert.Equal(t, want[name], a.Err.Message, "guess %v", guess)
				assert.Empty(t, ok[[]Status](t, st, `{"operation":"sessions"}`))
			}
		})
	}
	t.Run("a valid snapshot followed by another is refused as a repeated field, and restores nothing", func(t *testing.T) {
		st := testStore(t)
		first := strings.Replace(good, `"r"`, `"q"`, 1)
		assert.Equal(t, `field "snapshot" appears more than once in the request; give each field once`,
			fails(t, st, `{"operation":"restore","snapshot":`+first+`,"snapshot":`+good+`}`, InvalidArgument))
		assert.Empty(t, ok[[]Status](t, st, `{"operation":"sessions"}`))
	})
}

// TestARepeatedFieldIsRefused: a request that gives a member twice is
// refused, naming it, and changes nothing: which value it meant cannot be
// known, and text spliced into a request (the shim's loadSnapshot) must
// not replace the request's own fields.
func TestARepeatedFieldIsRefused(t *testing.T) {
	st := testStore(t)
	seedTexts(t, st, "victim", "precious")
	seedTexts(t, st, "s", "mine")
	before := map[string]string{"victim": snapshot(t, st, "victim"), "s": snapshot(t, st, "s")}
	empty := `{"version":1,"sessionId":"victim","cursor":null,"activeBranch":"main","nodes":[]}`
	cases := map[string]string{
		`{"operation":"append","sessionId":"s","sessionId":"victim","message":{"role":"user","content":"x"}}`:  "sessionId",
		`{"operation":"context","sessionId":"s","operation":"append","message":{"role":"user","content":"x"}}`: "operation",
		`{"operation":"snapshot.load","sessionId":"s","snapshot":` + empty + `,"sessionId":"victim"}`:          "sessionId",
		`{"operation":"snapshot.load","sessionId":"s","snapshot": ` + empty + ` , "sessionId" : "victim" }`:    "sessionId",
	}
	for req, field := range cases {
		for _, guess := range []bool{true, false} {
			a := st.call([]byte(req), guess, false)
			require.NotNil(t, a.Err, "%s (guess %v) succeeded", req, guess)
			assert.Equal(t, InvalidArgument, a.Err.Code)
			assert.Equal(t, `field "`+field+`" appears more than once in the request; give each field once`, a.Err.Message, req)
		}
	}
	for id, snap := range before {
		assert.Equal(t, snap, snapshot(t, st, id), "session %s is unchanged", id)
	}
	assert.Empty(t, string(st.DrainChanges(true)))
}

func TestSnapshotNodesAreParsedDuringTheMemberWalk(t *testing.T) {
	const n = `{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"hi"}}`
	cases := map[string]bool{
		`{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[` + n + `]}`:            true,
		`{ "version" : 1 , "sessionId":"s","cursor":null,"activeBranch":"main","nodes" : [` + n + `]}`:     true,
		`{"nodes":[` + n + `],"version":1,"sessionId":"s","cursor":null,"activeBranch":"main"}`:            false,
		`{"version":1,"nodes":[],"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[` + n + `]}`: false,
	}
	for text, inPlace := range cases {
		top, early, err := tree.ScanSnapshotTop([]byte(text), false)
		require.NoError(t, err, text)
		assert.Equal(t, inPlace, early != nil, text)
		assert.Equal(t, "[", string(top["nodes"][:1]), text)
		if early != nil {
			assert.Equal(t, 1, len(early.Session.Nodes), text)
		}
	}
}

// A surrogate pair written as escapes is one character, not a lone half:
// a snapshot naming a node or branch with one loads.
func TestSnapshotLoadTakesEscapedSurrogatePairs(t *testing.T) {
	st := testStore(t)
	snap := `{"version":1,"sessionId":"p","title":"t\ud83d\ude00","cursor":"a\ud83d\ude00","activeBranch":"b\ud83d\ude00","nodes":[{"id":"a\ud83d\ude00","parentId":null,"branch":"b\ud83d\ude00","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"hi"}}]}`
	out := string(st.Call([]byte(`{"operation":"snapshot.load","sessionId":"p","snapshot":` + snap + `}`)))
	require.Contains(t, out, `"ok":true`, out)
	assert.Contains(t, snapshot(t, st, "p"), `"id":"a😀"`)
	assert.Contains(t, snapshot(t, st, "p"), `"title":"t😀"`)
}
