package core

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// piV3 is a Pi session (version 3) with every entry type, written as Pi
// writes it: the header, then entries appended at the leaf; a branch
// (e5 goes back to m2), a label entry, an unknown type and a message
// without content.
const piV3 = `{"type":"session","version":3,"id":"pi-sess","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/home/me/project"}
{"type":"model_change","id":"e1","parentId":null,"timestamp":"2026-01-02T03:04:06.000Z","provider":"anthropic","modelId":"claude-sonnet-4"}
{"type":"thinking_level_change","id":"e2","parentId":"e1","timestamp":"2026-01-02T03:04:07.000Z","thinkingLevel":"high"}
{"type":"message","id":"m1","parentId":"e2","timestamp":"2026-01-02T03:04:08.000Z","message":{"role":"user","content":"Plan the trip","timestamp":1767323048000}}
{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-02T03:04:09.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"Day 1: Lyon"}],"provider":"anthropic","model":"claude-sonnet-4","usage":{"input":10,"output":5},"stopReason":"stop","timestamp":1767323049000}}
{"type":"label","id":"l1","parentId":"m2","timestamp":"2026-01-02T03:04:10.000Z","targetId":"m1","label":"start"}
{"type":"custom","id":"c1","parentId":"l1","timestamp":"2026-01-02T03:04:11.000Z","customType":"todo","data":{"items":[1,2]}}
{"type":"custom_message","id":"cm","parentId":"c1","timestamp":"2026-01-02T03:04:12.000Z","customType":"note","content":"remember the tickets","display":true,"details":{"x":1}}
{"type":"compaction","id":"k1","parentId":"cm","timestamp":"2026-01-02T03:04:13.000Z","summary":"They planned day 1.","firstKeptEntryId":"m2","tokensBefore":12345}
{"type":"session_info","id":"s1","parentId":"k1","timestamp":"2026-01-02T03:04:14.000Z","name":"Trip"}
{"type":"message","id":"m3","parentId":"s1","timestamp":"2026-01-02T03:04:15.000Z","message":{"role":"bashExecution","command":"ls","output":"a b","exitCode":0}}
{"type":"weird_future_type","id":"w1","parentId":"m3","timestamp":"2026-01-02T03:04:16.000Z","payload":7}
{"type":"branch_summary","id":"e5","parentId":"m2","timestamp":"2026-01-02T03:04:17.000Z","fromId":"w1","summary":"Tried a bash detour."}
{"type":"message","id":"m4","parentId":"e5","timestamp":"2026-01-02T03:04:18.000Z","message":{"role":"toolResult","toolCallId":"t1","toolName":"read","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":1767323058000}}
`

func TestImportPi(t *testing.T) {
	t.Run("a version 3 session maps every entry type and keeps its header", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, []byte(piV3), "auto")
		assert.Equal(t, "pi", res.Format)
		require.Len(t, res.Sessions, 1)
		s := res.Sessions[0]
		assert.Equal(t, "pi-sess", s.SessionID)
		assert.Equal(t, "Trip", s.Title, "the newest session_info name")
		assert.Equal(t, treeShape{13, 1, 1, "m4", []string{"main", "main-2"}}, shapeOf(t, st, "pi-sess"))
		assert.Equal(t, []string{
			`session "Trip": line 12: weird_future_type entry "w1" is of a type sessiontree does not know; it is kept as a custom entry "pi/weird_future_type" holding the line`,
		}, warningTexts(res))

		kinds := map[string]string{}
		var snap struct {
			Nodes []struct {
				ID, Kind string
				ParentID *string
				Entry    obj
				Summary  string
			}
			Annotations []obj
		}
		require.NoError(t, json.Unmarshal([]byte(snapshot(t, st, "pi-sess")), &snap))
		for _, n := range snap.Nodes {
			kinds[n.ID] = n.Kind
		}
		assert.Equal(t, map[string]string{
			"session": "custom", "e1": "model_change", "e2": "thinking_level_change", "m1": "message", "m2": "message",
			"c1": "custom", "cm": "custom_message", "k1": "compaction", "s1": "session_info", "m3": "message",
			"w1": "custom", "e5": "summary", "m4": "message",
		}, kinds, "13 entries and the header; the label is an annotation")
		assert.Equal(t, obj{"customType": "pi/session", "data": obj{"type": "session", "id": "pi-sess", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/home/me/project"}}, snap.Nodes[0].Entry)
		assert.Nil(t, snap.Nodes[0].ParentID)
		byID := map[string]int{}
		for k, n := range snap.Nodes {
			byID[n.ID] = k
		}
		assert.Equal(t, "session", *snap.Nodes[byID["e1"]].ParentID, "the file's root hangs off the header")
		assert.Equal(t, "m2", *snap.Nodes[byID["c1"]].ParentID, "the label entry's child attaches to its parent")
		assert.Equal(t, obj{"provider": "anthropic", "model": "claude-sonnet-4"}, snap.Nodes[byID["e1"]].Entry)
		assert.Equal(t, obj{"summary": "They planned day 1.", "firstKeptNodeId": "m2", "tokensBefore": float64(12345)}, snap.Nodes[byID["k1"]].Entry)
		assert.Equal(t, "Tried a bash detour.", snap.Nodes[byID["e5"]].Summary)
		require.Len(t, snap.Annotations, 2)
		assert.Equal(t, "m1", snap.Annotations[0]["nodeId"])
		assert.Equal(t, "start", snap.Annotations[0]["label"])
		assert.Equal(t, obj{"kind": "import", "nodeId": "m4", "timestamp": "2026-01-02T03:04:18.000Z"}, snap.Annotations[1], "then where the file's cursor was, at its time, for the next import")

		ctx := ok[Context](t, st, obj{"operation": "context", "sessionId": "pi-sess"})
		assert.Len(t, ctx.Messages, 4, "m1, m2, the branch summary e5, m4: the header and the setting entries send nothing")
		assert.Equal(t, &ModelState{Provider: "anthropic", Model: "claude-sonnet-4"}, ctx.State.Model)
	})
	t.Run("the cursor is Pi's leaf, the last entry, even when it is a label", func(t *testing.T) {
		st := testStore(t)
		data := piV3 + `{"type":"label","id":"l9","parentId":"m4","timestamp":"2026-01-02T03:04:19.000Z","targetId":"m4","label":"end"}` + "\n"
		mustImport(t, st, []byte(data), "pi")
		assert.Equal(t, "m4", shapeOf(t, st, "pi-sess").Cursor)
	})
	t.Run("a version 1 session gets ids and parent links as Pi's migration gives them", func(t *testing.T) {
		data := `{"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/x"}
{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"one"}}
{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"hookMessage","content":"hooked"}}
{"type":"message","timestamp":"2025-01-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"two"}]}}
{"type":"compaction","timestamp":"2025-01-01T00:00:04.000Z","summary":"s","firstKeptEntryIndex":2,"tokensBefore":5}
{"type":"message","timestamp":"2025-01-01T00:00:05.000Z","message":{"role":"user","content":"three"}}
`
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		assert.Empty(t, res.Warnings)
		var snap struct {
			Cursor string
			Nodes  []struct {
				ID       string
				ParentID *string
				Message  obj
				Entry    obj
			}
		}
		require.NoError(t, json.Unmarshal([]byte(snapshot(t, st, "old")), &snap))
		require.Len(t, snap.Nodes, 6, "the header and five entries")
		for k := 2; k < 6; k++ {
			assert.Equal(t, snap.Nodes[k-1].ID, *snap.Nodes[k].ParentID, "entry %d follows the one before", k)
			assert.Len(t, snap.Nodes[k].ID, 8)
		}
		assert.Equal(t, obj{"customType": "pi/custom", "content": "hooked"}, snap.Nodes[2].Entry, "hookMessage is a custom message (Pi's v2→v3 migration), sent as user content")
		assert.Equal(t, snap.Nodes[2].ID, snap.Nodes[4].Entry["firstKeptNodeId"], "firstKeptEntryIndex 2 is the second entry")
		assert.Equal(t, snap.Nodes[5].ID, snap.Cursor)
		again := testStore(t)
		mustImport(t, again, []byte(data), "auto")
		assert.Equal(t, snapshot(t, st, "old"), snapshot(t, again, "old"), "version 1 ids are the same on every import")
	})
	t.Run("a version 2 session renames hookMessage to custom", func(t *testing.T) {
		data := `{"type":"session","version":2,"id":"v2","timestamp":"2025-01-01T00:00:00.000Z","cwd":""}
{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"hookMessage","content":"x"}}
`
		st := testStore(t)
		mustImport(t, st, []byte(data), "auto")
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": "v2", "nodeId": "a"})
		assert.Equal(t, "custom_message", n["kind"])
		assert.Equal(t, "hookMessage", n["source"].(obj)["message"].(obj)["role"], "the original line is kept")
	})
	t.Run("a cut-off last line keeps every good line and names the line", func(t *testing.T) {
		cut := piV3[:len(piV3)-30]
		st := testStore(t)
		res := mustImport(t, st, []byte(cut), "auto")
		assert.Contains(t, warningTexts(res)[0], "line 14 is cut off")
		assert.Equal(t, "e5", shapeOf(t, st, "pi-sess").Cursor)
	})
	t.Run("a compaction whose kept entry is off its path stays as a custom entry", func(t *testing.T) {
		data := `{"type":"session","version":3,"id":"k","timestamp":"2025-01-01T00:00:00.000Z","cwd":""}
{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"x"}}
{"type":"compaction","id":"c","parentId":"a","timestamp":"2025-01-01T00:00:02.000Z","summary":"s","firstKeptEntryId":"zz","tokensBefore":1}
`
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		assert.Contains(t, strings.Join(warningTexts(res), "\n"), `compaction "c": entry.firstKeptNodeId "zz" must be a node on the path`)
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": "k", "nodeId": "c"})
		assert.Equal(t, "custom", n["kind"])
		assert.Equal(t, "import:compaction", n["entry"].(obj)["customType"])
	})
}

// withoutSources returns a snapshot with every node's source removed (an
// import keeps the file's own record there).
func withoutSources(tb testing.TB, snap string) string {
	tb.Helper()
	var v map[string]any
	require.NoError(tb, json.Unmarshal([]byte(snap), &v))
	for _, n := range v["nodes"].([]any) {
		delete(n.(map[string]any), "source")
	}
	out, err := json.Marshal(v)
	require.NoError(tb, err)
	return string(out)
}

// withoutImportRecords drops the import records (AnnotationImport) from a
// snapshot's annotations, and the member when none is left.
func withoutImportRecords(tb testing.TB, snap string) string {
	tb.Helper()
	var v map[string]any
	require.NoError(tb, json.Unmarshal([]byte(snap), &v))
	var kept []any
	for _, a := range v["annotations"].([]any) {
		if a.(map[string]any)["kind"] != AnnotationImport {
			kept = append(kept, a)
		}
	}
	if v["annotations"] = kept; len(kept) == 0 {
		delete(v, "annotations")
	}
	out, err := json.Marshal(v)
	require.NoError(tb, err)
	return string(out)
}

// exportText runs export and returns the file's text.
func exportText(tb testing.TB, st *Store, id, format string) Export {
	tb.Helper()
	return ok[Export](tb, st, obj{"operation": "export", "sessionId": id, "format": format})
}

func TestPiRoundTrip(t *testing.T) {
	t.Run("a session built here exports to Pi and imports back as the same tree", func(t *testing.T) {
		st := testStore(t)
		ok[Status](t, st, obj{"operation": "create", "sessionId": "rt", "title": "Round trip"})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "message": obj{"role": "system", "content": "be brief"}})
		a := ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "message": obj{"role": "user", "content": "hi 🙂", "name": "sam"}})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "entry": obj{"kind": "model_change", "provider": "openai", "model": "gpt-5"}})
		b := ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "message": obj{"role": "assistant", "content": nil, "tool_calls": []any{obj{"id": "c1", "type": "function", "function": obj{"name": "f", "arguments": "{}"}}}}})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "message": obj{"role": "tool", "tool_call_id": "c1", "content": "1.50"}})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "entry": obj{"kind": "active_tools_change", "tools": []any{"read"}}})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "entry": obj{"kind": "compaction", "summary": "so far", "firstKeptNodeId": b["id"], "tokensBefore": 99}})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "entry": obj{"kind": "custom_message", "customType": "n", "content": "c", "display": false, "details": obj{"d": 1}}})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "entry": obj{"kind": "custom", "customType": "x"}})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "entry": obj{"kind": "session_info", "name": "named"}})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "entry": obj{"kind": "thinking_level_change", "level": "low"}})
		ok[Status](t, st, obj{"operation": "branch", "sessionId": "rt", "nodeId": a["id"], "branch": "option-b"})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "rt", "message": obj{"role": "user", "content": "other way"}})
		ok[obj](t, st, obj{"operation": "branch.summary", "sessionId": "rt", "nodeId": a["id"], "branch": "summed", "summary": "we came back"})
		ok[obj](t, st, obj{"operation": "label", "sessionId": "rt", "nodeId": a["id"], "label": "greeting"})
		ok[obj](t, st, obj{"operation": "hide", "sessionId": "rt", "nodeId": b["id"], "hidden": true})
		ok[obj](t, st, obj{"operation": "jump", "sessionId": "rt", "nodeId": b["id"]})
		want := snapshot(t, st, "rt")

		ex := exportText(t, st, "rt", "pi")
		assert.Equal(t, "rt.pi.jsonl", ex.Filename)
		assert.Equal(t, "application/x-ndjson", ex.MimeType)
		lines := strings.Split(strings.TrimSuffix(ex.Text, "\n"), "\n")
		assert.Contains(t, lines[len(lines)-1], `"type":"label"`, "labels come last, chained after the cursor")
		assert.Contains(t, lines[len(lines)-2], `"id":"`+b["id"].(string)+`"`, "then the cursor, Pi's leaf")

		other := testStore(t)
		res := mustImport(t, other, []byte(ex.Text), "auto")
		assert.Equal(t, "pi", res.Format)
		assert.Empty(t, res.Warnings)
		got := snapshot(t, other, "rt")
		assert.Equal(t, withoutSources(t, want), withoutSources(t, withoutImportRecords(t, got)))
		assert.Contains(t, got, `{"kind":"import","nodeId":"`+b["id"].(string)+`","timestamp":"`+b["timestamp"].(string)+`"}`,
			"the import adds one record: where the file's cursor was")
	})
	t.Run("an imported Pi session exports and imports back unchanged, header included", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, []byte(piV3), "auto")
		want := snapshot(t, st, "pi-sess")
		text := exportText(t, st, "pi-sess", "pi").Text
		assert.True(t, strings.HasPrefix(text, `{"type":"session","version":3,"id":"pi-sess","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/home/me/project","sessiontree":{`), text[:200])
		other := testStore(t)
		mustImport(t, other, []byte(text), "auto")
		got := snapshot(t, other, "pi-sess")
		assert.Equal(t, withoutSources(t, want), withoutSources(t, got))
		// And once more: the export of the re-import is the same file.
		assert.Equal(t, text, exportText(t, other, "pi-sess", "pi").Text)
	})
}

func TestSnapshotOfAnImportLoadsBack(t *testing.T) {
	files := []string{
		"librechat/openwebui-export.json", "librechat/librechat-tree.json", "librechat/librechat-opts-nonr-branches.json",
		"librechat/librechat-export.json", "librechat/chatbotui-export.json", "librechat/chatgpt-tree.json",
		"librechat/chatgpt-modern-export.json", "librechat/chatgpt-citations.json", "echomine/002_with_images.json",
		"claude-code/sidechain_integrated.jsonl", "claude-code/dag_compact_after_rewind.jsonl",
	}
	for _, f := range files {
		t.Run(f+": snapshot, load, snapshot gives the same JSON", func(t *testing.T) {
			st := testStore(t)
			res := mustImport(t, st, fixture(t, f), "auto")
			for _, s := range res.Sessions {
				snap := snapshot(t, st, s.SessionID)
				other := testStore(t)
				ok[Status](t, other, `{"operation":"snapshot.load","sessionId":`+string(mustJSON(t, s.SessionID))+`,"snapshot":`+snap+`}`)
				assert.Equal(t, snap, snapshot(t, other, s.SessionID))
			}
		})
	}
}

func TestExport(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "ex/1", "title": "Paris trip"})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "ex/1", "message": obj{"role": "user", "content": "Plan **two** days"}})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "ex/1", "entry": obj{"kind": "model_change", "provider": "openai", "model": "gpt-5"}})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "ex/1", "message": obj{"role": "assistant", "content": []any{obj{"type": "text", "text": "Day 1: Louvre\nDay 2: Orsay"}}}})
	ok[obj](t, st, obj{"operation": "label", "sessionId": "ex/1", "nodeId": "n0001", "label": "ask"})

	t.Run("markdown writes the cursor path readably", func(t *testing.T) {
		ex := exportText(t, st, "ex/1", "markdown")
		assert.Equal(t, Export{Format: "markdown", Scope: "path", Filename: "ex_1.md", MimeType: "text/markdown", Text: "# Paris trip\n\n" +
			"Scope: this path, root → cursor (3 of 3 nodes) · session `ex/1` · cursor `n0003` · branch `main`\n\n" +
			"## user\n\n<sub>2026-11-29T12:00:00.002Z · `n0001` · label: ask</sub>\n\nPlan **two** days\n\n" +
			"## model_change\n\n<sub>2026-11-29T12:00:00.004Z · `n0002`</sub>\n\n_openai/gpt-5_\n\n" +
			"## assistant\n\n<sub>2026-11-29T12:00:00.006Z · `n0003`</sub>\n\nDay 1: Louvre\nDay 2: Orsay\n"}, ex)
	})
	t.Run("openai writes the context messages as a JSON array", func(t *testing.T) {
		ex := exportText(t, st, "ex/1", "openai")
		assert.Equal(t, "ex_1.openai.json", ex.Filename)
		assert.Equal(t, "[\n  {\"content\":\"Plan **two** days\",\"role\":\"user\"},\n  {\"content\":[{\"text\":\"Day 1: Louvre\\nDay 2: Orsay\",\"type\":\"text\"}],\"role\":\"assistant\"}\n]\n", ex.Text)
		var msgs []RawMessage
		require.NoError(t, json.Unmarshal([]byte(ex.Text), &msgs))
		ctx := ok[Context](t, st, obj{"operation": "context", "sessionId": "ex/1"})
		assert.Equal(t, ctx.Messages, msgs)
	})
	t.Run("snapshot writes the snapshot", func(t *testing.T) {
		ex := exportText(t, st, "ex/1", "snapshot")
		assert.Equal(t, "ex_1.sessiontree.json", ex.Filename)
		assert.Equal(t, snapshot(t, st, "ex/1")+"\n", ex.Text)
	})
	t.Run("an unknown format or session is an error", func(t *testing.T) {
		assert.Equal(t, `field "format": unknown export format "html" (known: markdown, openai, pi, snapshot)`,
			fails(t, st, obj{"operation": "export", "sessionId": "ex/1", "format": "html"}, InvalidArgument))
		fails(t, st, obj{"operation": "export", "sessionId": "nope", "format": "pi"}, SessionNotFound)
		fails(t, st, obj{"operation": "export", "sessionId": "ex/1"}, InvalidArgument)
	})
}
