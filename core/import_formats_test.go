package core

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// treeShape is what the fixture tests assert about one imported session.
type treeShape struct {
	Nodes        int
	Roots        int
	BranchPoints int
	Cursor       string
	Branches     []string // sorted
}

// shapeOf reads the shape of a session from its snapshot.
func shapeOf(tb testing.TB, st *Store, id string) treeShape {
	tb.Helper()
	var snap struct {
		Cursor *string `json:"cursor"`
		Nodes  []struct {
			ID       string  `json:"id"`
			ParentID *string `json:"parentId"`
			Branch   string  `json:"branch"`
		} `json:"nodes"`
	}
	require.NoError(tb, jsonx.Unmarshal([]byte(snapshot(tb, st, id)), &snap))
	sh := treeShape{Nodes: len(snap.Nodes)}
	kids := map[string]int{}
	branches := map[string]bool{}
	for _, n := range snap.Nodes {
		if n.ParentID == nil {
			sh.Roots++
		} else {
			kids[*n.ParentID]++
		}
		branches[n.Branch] = true
	}
	for _, k := range kids {
		if k > 1 {
			sh.BranchPoints++
		}
	}
	if snap.Cursor != nil {
		sh.Cursor = *snap.Cursor
	}
	sh.Branches = slices.Sorted(maps.Keys(branches))
	return sh
}

// mustImport imports data (auto-detected) into st and requires success.
func mustImport(tb testing.TB, st *Store, data []byte, format string) *ImportResult {
	tb.Helper()
	res, err := st.Import(data, format)
	require.Nil(tb, err, "import failed: %v", err)
	return res
}

func warningTexts(res *ImportResult) []string {
	out := make([]string, 0, len(res.Warnings))
	for _, w := range res.Warnings {
		out = append(out, w.Message)
	}
	return out
}

// TestImportFixtures imports every real export of the fixture folder and
// checks conversations, nodes, roots, branch points, cursor and warnings.
func TestImportFixtures(t *testing.T) {
	type session struct {
		id    string
		title string
		shape treeShape
	}
	cases := []struct {
		file     string
		format   string
		sessions []session
		skipped  int
		warnings []string // substrings, one per warning, in order
	}{
		{file: "librechat/openwebui-export.json", format: "openwebui", sessions: []session{
			{"reasoning-chat", "Chat with reasoning", treeShape{2, 1, 0, "ra2", []string{"main"}}},
			{"tool-chat", "Chat with tool call", treeShape{2, 1, 0, "ta2", []string{"main"}}},
			{"simple-chat", "Simple linear chat", treeShape{2, 1, 0, "sa2", []string{"main"}}},
		}},
		{file: "librechat/librechat-tree.json", format: "librechat", sessions: []session{
			{"4a86c40e-e627-4454-b158-889680e23ad3", "Troubleshooting Python Virtual Environment Activation Issue",
				treeShape{9, 1, 2, "1f062c99-ff0a-4cf4-a1cf-7150261a24e2", []string{"main", "main-2", "main-3"}}},
		}, warnings: []string{"names no current message; the cursor is on the newest leaf"}},
		{file: "librechat/librechat-opts-nonr-branches.json", format: "librechat", sessions: []session{
			{"27b593be-9500-479c-94cb-050cab8f5033", "Original",
				treeShape{5, 2, 1, "de9a4e7c-020d-4856-a5a6-ce6794efef99", []string{"main", "main-2", "main-3"}}},
		}, warnings: []string{"names no current message; the cursor is on the newest leaf"}},
		{file: "librechat/librechat-export.json", format: "librechat", sessions: []session{
			{"af1ea676-f525-444f-a9ed-7c8dbf062733", "Conversation 1. Web Search",
				treeShape{6, 1, 0, "645b925b-ef14-451f-9be3-814de55a5ae4", []string{"main"}}},
		}, warnings: []string{"names no current message; the cursor is on the newest leaf"}},
		{file: "librechat/chatbotui-export.json", format: "chatbotui", sessions: []session{
			{"493cb218-9ebb-4d35-af8b-5aded3f351be", "Hello what are you able to do?", treeShape{5, 1, 0, "m32bd70cf", []string{"main"}}},
			{"f883fb40-6e5c-45fd-92d4-883a5595560f", "Give me the code that inverts ...", treeShape{3, 1, 0, "mfcd46134", []string{"main"}}},
		}},
		{file: "claude-code/sidechain_integrated.jsonl", format: "claude-code", sessions: []session{
			{"88a8d761-7b9a-4bf1-a8ca-c1febe6bf358", "",
				treeShape{6, 3, 0, "91c82c1c-29b0-4149-a261-e5582d944ac6", []string{"main", "sidechain", "sidechain-2"}}},
		}, warnings: []string{
			`message "83a7cabd-3642-45d6-ba73-9b9f843b9ab1" names parent "8ae40e91-fa63-40a9-969d-70c0c1d6175e", which is not in the conversation; it becomes a root`,
			`message "4899826e-499f-4f24-ae6e-f2ac31cddfd4" names parent "718670f5-3e6b-4b3e-9a70-bc3e5ac90f92", which is not in the conversation; it becomes a root`,
			"names no current message; the cursor is on the newest leaf",
		}},
		{file: "claude-code/dag_compact_after_rewind.jsonl", format: "claude-code", sessions: []session{
			{"s1", "Start", treeShape{12, 1, 1, "p1a", []string{"main", "main-2"}}},
		}, warnings: []string{
			"names no current message; the cursor is on the newest leaf",
		}},
		{file: "librechat/chatgpt-tree.json", format: "chatgpt", sessions: []session{
			{"d5dc5307-6807-41a0-8b04-4acee626eeb7", "Assist user with summary",
				treeShape{12, 1, 2, "f63b8e17-aa5c-4ca6-a1bf-d4d285e269b8", []string{"main", "main-2", "main-3"}}},
		}},
		{file: "librechat/chatgpt-modern-export.json", format: "chatgpt", sessions: []session{
			{"6b0f0d9c-0000-4000-8000-000000000001", "Deploying the staging cluster", treeShape{5, 1, 0, "assistant-2", []string{"main"}}},
			{"6b0f0d9c-0000-4000-8000-000000000003", "Weeknight pasta", treeShape{2, 1, 0, "assistant-3", []string{"main"}}},
		}, skipped: 1, warnings: []string{`conversation "6b0f0d9c-0000-4000-8000-000000000002" (Corrupted entry) has no mapping; skipped`}},
		{file: "librechat/chatgpt-citations.json", format: "chatgpt", sessions: []session{
			{"d6523d1e-7ec3-474f-a363-0e9dffdb3d93", "Citation Convo", treeShape{2, 1, 0, "4b3aec6b-5146-4bad-ae8e-204fdb6accda", []string{"main"}}},
		}, warnings: []string{
			`lists child "aaa27ed5-1e1c-4189-ac6c-737608404ec1", which is not in the mapping; ignored`,
			`message "9e874379-5008-4a2d-aa2e-628d1d705a04" names parent "5cc5e87b-2b74-485a-b3a7-23cb25f202db", which is not in the conversation; it becomes a root`,
			`current message "88a0cf9f-e860-4b34-8e7e-65f8346f4862" is not in the conversation; the cursor is on the newest leaf`,
		}},
		{file: "echomine/002_with_images.json", format: "chatgpt", sessions: []session{
			{"684a1df7-302c-8005-bf41-d26c56ecdc7f", "Interpretación pintura surrealista", treeShape{7, 1, 0, "77f67e99-a1b7-4835-8136-cd0f11a5335a", []string{"main"}}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file+" imports as "+tc.format+" with the expected trees", func(t *testing.T) {
			data := fixture(t, tc.file)
			st := testStore(t)
			res := mustImport(t, st, data, "auto")
			assert.Equal(t, tc.format, res.Format)
			require.Len(t, res.Sessions, len(tc.sessions))
			for k, want := range tc.sessions {
				got := res.Sessions[k]
				assert.Equal(t, want.id, got.SessionID)
				if want.title != "" {
					assert.Equal(t, want.title, got.Title)
				}
				assert.Equal(t, want.shape, shapeOf(t, st, got.SessionID))
				assert.Equal(t, want.shape.Nodes, got.NodeCount)
				assert.Equal(t, want.shape.Roots, got.RootCount)
				assert.Equal(t, len(want.shape.Branches), got.BranchCount)
			}
			assert.Len(t, res.Skipped, tc.skipped)
			texts := warningTexts(res)
			require.Len(t, texts, len(tc.warnings), "warnings: %q", texts)
			for k, w := range tc.warnings {
				assert.Contains(t, texts[k], w)
			}

			assertReimportAddsNothing(t, st, data)
			assert.Len(t, st.sessions, len(tc.sessions))
		})
	}
}

func TestImportFixtureContent(t *testing.T) {
	t.Run("open webui turns a reasoning block into a thinking part, keeps tool-call blocks in content and output items in source", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, fixture(t, "librechat/openwebui-export.json"), "auto")
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": "tool-chat", "nodeId": "ta2"})
		msg := n["message"].(obj)
		assert.Equal(t, "assistant", msg["role"])
		assert.Contains(t, msg["content"], `<details type="tool_calls">`)
		out := n["source"].(obj)["output"].([]any)
		assert.Equal(t, "function_call", out[0].(obj)["type"])
		r := ok[obj](t, st, obj{"operation": "node", "sessionId": "reasoning-chat", "nodeId": "ra2"})
		assert.Equal(t, []any{
			obj{"type": "thinking", "thinking": "Let me break this down..."},
			obj{"type": "text", "text": "255"},
		}, r["message"].(obj)["content"], "the entity &gt; decoded, the quote markup removed")
		assert.Contains(t, r["source"].(obj)["content"], `<details type="reasoning"`, "the record keeps the content as written")
	})
	t.Run("claude code keeps tool_use blocks, sidechain marks and the original line", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, fixture(t, "claude-code/sidechain_integrated.jsonl"), "auto")
		id := "88a8d761-7b9a-4bf1-a8ca-c1febe6bf358"
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": id, "nodeId": "83a7cabd-3642-45d6-ba73-9b9f843b9ab1"})
		part := n["message"].(obj)["content"].([]any)[0].(obj)
		assert.Equal(t, "tool_use", part["type"])
		assert.Equal(t, "Task", part["name"])
		side := ok[obj](t, st, obj{"operation": "node", "sessionId": id, "nodeId": "b674eedd-0d9d-49e7-8116-1f092cd750ed"})
		assert.Equal(t, true, side["source"].(obj)["isSidechain"])
		assert.Equal(t, "sidechain", side["branch"])
		res := ok[obj](t, st, obj{"operation": "node", "sessionId": id, "nodeId": "97965533-18f3-41b7-aa07-0c438f2a5893"})
		assert.Equal(t, "tool_result", res["message"].(obj)["content"].([]any)[0].(obj)["type"])
		assert.Equal(t, "e1c84ba5", res["source"].(obj)["agentId"])
	})
	t.Run("claude code links a compact boundary's continuation back to its logical parent", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, fixture(t, "claude-code/dag_compact_after_rewind.jsonl"), "auto")
		cb := ok[obj](t, st, obj{"operation": "node", "sessionId": "s1", "nodeId": "cb"})
		assert.Equal(t, "b2a2", cb["parentId"], "parentUuid is null: logicalParentUuid links it back")
		assert.Equal(t, "custom", cb["kind"])
		assert.Equal(t, obj{"customType": "claude-code/system/compact_boundary", "data": "Conversation compacted"}, cb["entry"])
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": "s1", "nodeId": "cs"})
		assert.Equal(t, "cb", n["parentId"])
		assert.Equal(t, true, n["source"].(obj)["isCompactSummary"])
		ctx := ok[Context](t, st, obj{"operation": "context", "sessionId": "s1"})
		assert.Len(t, ctx.Messages, 9, "u1 a1 b2u b2a b2u2 b2a2 cs p1u p1a: the boundary is not model-visible")
	})
	t.Run("chatbot ui turns the chat's prompt into a leading system message", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, fixture(t, "librechat/chatbotui-export.json"), "auto")
		ctx := ok[Context](t, st, obj{"operation": "context", "sessionId": "f883fb40-6e5c-45fd-92d4-883a5595560f"})
		require.Len(t, ctx.Messages, 3)
		var first struct{ Role, Content string }
		require.NoError(t, jsonx.Unmarshal(ctx.Messages[0], &first))
		assert.Equal(t, "system", first.Role)
		assert.True(t, strings.HasPrefix(first.Content, "You are ChatGPT"))
	})
	t.Run("librechat maps isCreatedByUser to roles and keeps the record without children", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, fixture(t, "librechat/librechat-tree.json"), "auto")
		id := "4a86c40e-e627-4454-b158-889680e23ad3"
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": id, "nodeId": "9501f99d-9bbb-40cb-bbb2-16d79aeceb72"})
		assert.Equal(t, "user", n["message"].(obj)["role"])
		assert.Equal(t, "66326f3f04bed94b7f5be68d", n["source"].(obj)["_id"])
		assert.NotContains(t, n["source"], "children")
	})
}

// ---- synthetic exports: one description, written in every format ----

// rec describes one message of a synthetic export. parent "" is a root
// (null); noParent leaves the parent key out.
type rec struct {
	id, parent string
	noParent   bool
	text       string
	t          int // seconds after a fixed epoch
}

const epoch = 1_700_000_000

// role gives a record's role from its id, so every writer and every
// order of records agrees: ids starting a, c or e are user messages.
func (r rec) role() string {
	if r.id != "" && strings.ContainsRune("ace", rune(r.id[0])) {
		return "user"
	}
	return "assistant"
}

func isoTime(sec int) string {
	return time.Unix(int64(epoch+sec), 0).UTC().Format(TimeLayout)
}

// writeOpenWebUI writes chats as an Open WebUI export array; childrenIds
// agree with parentId. current "" leaves currentId out.
func writeOpenWebUI(chats ...owuiChat) []byte {
	rows := make([]any, 0, len(chats))
	for _, c := range chats {
		msgs := map[string]any{}
		children := map[string][]string{}
		for _, r := range c.recs {
			if r.parent != "" {
				children[r.parent] = append(children[r.parent], r.id)
			}
		}
		for _, ids := range children {
			sort.Strings(ids)
		}
		for _, r := range c.recs {
			m := obj{"id": r.id, "childrenIds": append([]string{}, children[r.id]...), "role": r.role(), "content": r.text, "timestamp": epoch + r.t}
			if !r.noParent {
				m["parentId"] = nullable(r.parent)
			}
			msgs[r.id] = m
		}
		history := obj{"messages": msgs}
		if c.current != "" {
			history["currentId"] = c.current
		}
		rows = append(rows, obj{"id": c.id, "title": "chat " + c.id, "chat": obj{"history": history}, "created_at": epoch, "updated_at": epoch + 100})
	}
	out, _ := json.Marshal(rows)
	return out
}

type owuiChat struct {
	id, current string
	recs        []rec
}

// writeLibreChat writes a flat LibreChat export.
func writeLibreChat(id string, recs []rec) []byte {
	msgs := make([]any, 0, len(recs))
	for _, r := range recs {
		m := obj{"messageId": r.id, "conversationId": id, "isCreatedByUser": r.role() == "user", "text": r.text, "createdAt": isoTime(r.t)}
		if !r.noParent {
			p := r.parent
			if p == "" {
				p = formats.LibreRoot
			}
			m["parentMessageId"] = p
		}
		msgs = append(msgs, m)
	}
	out, _ := json.Marshal(obj{"conversationId": id, "title": "conv " + id, "recursive": false, "messages": msgs})
	return out
}

// writeClaudeCode writes a Claude Code transcript, one line per record.
func writeClaudeCode(session string, recs []rec) []byte {
	var b strings.Builder
	for _, r := range recs {
		role := r.role()
		m := obj{"type": role, "uuid": r.id, "sessionId": session, "isSidechain": false, "timestamp": isoTime(r.t),
			"message": obj{"role": role, "content": []any{obj{"type": "text", "text": r.text}}}}
		if !r.noParent {
			m["parentUuid"] = nullable(r.parent)
		}
		line, _ := json.Marshal(m)
		b.Write(line)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// writePi writes a Pi session (version 3) with the current record last
// (Pi's leaf is the last entry). The header says sessiontree wrote it, so
// no header node is kept.
func writePi(session string, recs []rec, current string) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"` + session + `","timestamp":"` + isoTime(0) + `","cwd":"","sessiontree":{}}` + "\n")
	var last []byte
	for _, r := range recs {
		m := obj{"type": "message", "id": r.id, "timestamp": isoTime(r.t),
			"message": obj{"role": r.role(), "content": []any{obj{"type": "text", "text": r.text}}}}
		if !r.noParent {
			m["parentId"] = nullable(r.parent)
		}
		line, _ := json.Marshal(m)
		if r.id == current {
			last = line
			continue
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if last != nil {
		b.Write(last)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// writeChatGPT writes a ChatGPT conversations.json with one conversation
// whose current_node is current ("" leaves it out).
func writeChatGPT(id string, recs []rec, current string) []byte {
	children := map[string][]string{}
	for _, r := range recs {
		if r.parent != "" {
			children[r.parent] = append(children[r.parent], r.id)
		}
	}
	mapping := obj{}
	for _, r := range recs {
		kids := append([]string{}, children[r.id]...)
		sort.Strings(kids)
		m := obj{"id": r.id, "children": kids, "message": obj{"id": r.id, "author": obj{"role": r.role()},
			"create_time": epoch + r.t, "content": obj{"content_type": "text", "parts": []any{r.text}}}}
		if !r.noParent {
			m["parent"] = nullable(r.parent)
		}
		mapping[r.id] = m
	}
	conv := obj{"conversation_id": id, "title": "conv " + id, "create_time": epoch, "mapping": mapping}
	if current != "" {
		conv["current_node"] = current
	}
	out, _ := json.Marshal([]any{conv})
	return out
}

// formatCase writes one conversation (id "c1") in a format whose own
// current pointer, where it has one, names current.
type formatCase struct {
	name  string
	write func(recs []rec, current string) []byte
	// hasCurrent says the format records its current message.
	hasCurrent bool
}

var treeFormats = []formatCase{
	{"chatgpt", func(recs []rec, current string) []byte { return writeChatGPT("c1", recs, current) }, true},
	{"openwebui", func(recs []rec, current string) []byte {
		return writeOpenWebUI(owuiChat{"c1", current, recs})
	}, true},
	{"librechat", func(recs []rec, _ string) []byte { return writeLibreChat("c1", recs) }, false},
	{"claude-code", func(recs []rec, _ string) []byte { return writeClaudeCode("c1", recs) }, false},
	{"pi", func(recs []rec, current string) []byte { return writePi("c1", recs, current) }, true},
}

// branchy is a small tree: a1 ← b1 ← {c1 ← d1, c2}, times increasing.
var branchy = []rec{
	{id: "a1", text: "hello", t: 1},
	{id: "b1", parent: "a1", text: "hi", t: 2},
	{id: "c1", parent: "b1", text: "first try", t: 3},
	{id: "d1", parent: "c1", text: "first answer", t: 4},
	{id: "c2", parent: "b1", text: "second try", t: 5},
	{id: "d2", parent: "c2", text: "second answer", t: 6},
}

func withRec(recs []rec, k int, change func(r *rec)) []rec {
	out := append([]rec(nil), recs...)
	change(&out[k])
	return out
}

func TestImportToleranceRules(t *testing.T) {
	for _, f := range treeFormats {
		t.Run(f.name+": a message without a parent key becomes a root, with a warning naming it", func(t *testing.T) {
			st := testStore(t)
			recs := withRec(branchy, 2, func(r *rec) { r.noParent = true })
			res := mustImport(t, st, f.write(recs, "d2"), f.name)
			sh := shapeOf(t, st, "c1")
			assert.Equal(t, 6, sh.Nodes)
			assert.Equal(t, 2, sh.Roots)
			assert.Contains(t, strings.Join(warningTexts(res), "\n"), `"c1" has no parent`)
		})
		t.Run(f.name+": a message whose parent is not in the export becomes a root of its own", func(t *testing.T) {
			st := testStore(t)
			recs := withRec(branchy, 4, func(r *rec) { r.parent = "ghost" })
			res := mustImport(t, st, f.write(recs, "d2"), f.name)
			sh := shapeOf(t, st, "c1")
			assert.Equal(t, 6, sh.Nodes, "nothing vanishes")
			assert.Equal(t, 2, sh.Roots)
			assert.Contains(t, strings.Join(warningTexts(res), "\n"), `message "c2" names parent "ghost", which is not in the conversation; it becomes a root`)
		})
		t.Run(f.name+": a parent cycle is cut at one link, warned, and every record is kept", func(t *testing.T) {
			st := testStore(t)
			recs := withRec(branchy, 0, func(r *rec) { r.parent = "d1" })
			res := mustImport(t, st, f.write(recs, "d2"), f.name)
			sh := shapeOf(t, st, "c1")
			assert.Equal(t, 6, sh.Nodes)
			assert.Equal(t, 1, sh.Roots)
			assert.Contains(t, strings.Join(warningTexts(res), "\n"), `would close a cycle; the link is cut and it becomes a root`)
		})
		t.Run(f.name+": a repeated id keeps the first record and warns", func(t *testing.T) {
			if f.name == "openwebui" || f.name == "chatgpt" {
				t.Skip("a history keyed by message id cannot repeat an id (see Open WebUI's list form below)")
			}
			st := testStore(t)
			recs := append(append([]rec(nil), branchy...), rec{id: "c2", parent: "a1", text: "again", t: 9})
			res := mustImport(t, st, f.write(recs, "d2"), f.name)
			assert.Equal(t, 6, st.sessions["c1"].Len())
			assert.Regexp(t, `message "c2" appears again \(record [56]\); the first is kept and this one skipped`, strings.Join(warningTexts(res), "\n"))
			n := ok[obj](t, st, obj{"operation": "node", "sessionId": "c1", "nodeId": "c2"})
			assert.Equal(t, "b1", n["parentId"], "the first record of c2 is the one kept")
		})
		t.Run(f.name+": any order of the records gives the same tree", func(t *testing.T) {
			st := testStore(t)
			mustImport(t, st, f.write(branchy, "d2"), f.name)
			want := snapshot(t, st, "c1")
			rng := rand.New(rand.NewSource(7))
			for round := 0; round < 5; round++ {
				shuffled := append([]rec(nil), branchy...)
				rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
				other := testStore(t)
				mustImport(t, other, f.write(shuffled, "d2"), f.name)
				assert.Equal(t, want, snapshot(t, other, "c1"), "round %d", round)
			}
		})
		t.Run(f.name+": the cursor is the export's current message, else the newest leaf with a warning", func(t *testing.T) {
			st := testStore(t)
			res := mustImport(t, st, f.write(branchy, "d1"), f.name)
			sh := shapeOf(t, st, "c1")
			texts := strings.Join(warningTexts(res), "\n")
			if f.hasCurrent {
				assert.Equal(t, "d1", sh.Cursor)
				assert.Empty(t, res.Warnings)
			} else {
				assert.Equal(t, "d2", sh.Cursor)
				assert.Contains(t, texts, "names no current message; the cursor is on the newest leaf")
			}
			assert.Equal(t, 1, sh.BranchPoints)
			assert.Equal(t, []string{"main", "main-2"}, sh.Branches)
		})
		t.Run(f.name+": a lone surrogate escape is reported, naming the message", func(t *testing.T) {
			st := testStore(t)
			data := f.write(branchy, "d2")
			data = []byte(strings.Replace(string(data), "second answer", `second \ud83d answer`, 1))
			res := mustImport(t, st, data, f.name)
			assert.Contains(t, strings.Join(warningTexts(res), "\n"), `message "d2" holds a lone surrogate escape \ud83d`)
		})
		t.Run(f.name+": importing the same data twice duplicates nothing", func(t *testing.T) {
			st := testStore(t)
			data := f.write(branchy, "d2")
			mustImport(t, st, data, "auto")
			assertReimportAddsNothing(t, st, data)
			assert.Len(t, st.sessions, 1)
			assert.Equal(t, 6, st.sessions["c1"].Len())
		})
		t.Run(f.name+": a broken document is an error naming line and column (a broken JSON line is skipped)", func(t *testing.T) {
			st := testStore(t)
			data := f.write(branchy, "d2")
			cut := strings.Index(string(data), `"first answer"`) + len(`"first answer"`)
			broken := append(append([]byte{}, data[:cut]...), " !oops"...)
			broken = append(broken, data[cut:]...)
			bad := cut + 1
			line := 1 + strings.Count(string(broken[:bad]), "\n")
			col := bad - strings.LastIndex(string(broken[:bad]), "\n")
			res, err := st.Import(broken, f.name)
			if f.name == "pi" || f.name == "claude-code" {
				require.Nil(t, err)
				assert.Contains(t, strings.Join(warningTexts(res), "\n"), fmt.Sprintf(`line %d is not valid JSON: invalid character '!' after object member, expected ',' or '}' at line %d, column %d; it is skipped`, line, line, col))
				assert.Equal(t, 5, st.sessions["c1"].Len(), "every other line is kept")
				return
			}
			require.NotNil(t, err)
			assert.Equal(t, InvalidArgument, err.Code)
			assert.Regexp(t, fmt.Sprintf(`^import data is not valid JSON( lines)?: invalid character '!' after (object member, expected ',' or '\}'|array element, expected ',' or '\]') at line %d, column %d$`, line, col), err.Message)
			assert.Empty(t, st.sessions)
		})
	}
}

func TestImportToleranceOneFormat(t *testing.T) {
	t.Run("open webui: childrenIds that disagree with parentId are warned and parentId wins", func(t *testing.T) {
		data := []byte(`[{"id":"w","title":"w","chat":{"history":{"currentId":"b","messages":{
			"a":{"id":"a","parentId":null,"childrenIds":["x","c"],"role":"user","content":"q","timestamp":1700000000},
			"b":{"id":"b","parentId":"a","childrenIds":[],"role":"assistant","content":"r","timestamp":1700000001},
			"c":{"id":"c","parentId":null,"childrenIds":[],"role":"user","content":"s","timestamp":1700000002}}}}}]`)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, []string{
			`chat "w" (w): message "a" lists child "x", which is not in the chat; ignored`,
			`chat "w" (w): message "a" lists child "c", whose parentId is null; parentId wins: "c" stays a root`,
		}, warningTexts(res))
		sh := shapeOf(t, st, "w")
		assert.Equal(t, treeShape{3, 2, 0, "b", []string{"main", "main-2"}}, sh)
	})
	t.Run("open webui: a dangling currentId puts the cursor on the newest leaf with a warning", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, writeOpenWebUI(owuiChat{"c1", "nope", branchy}), "auto")
		assert.Equal(t, "d2", shapeOf(t, st, "c1").Cursor)
		assert.Equal(t, []string{`current message "nope" is not in the conversation; the cursor is on the newest leaf`}, warningTexts(res))
	})
	t.Run("open webui: duplicate ids in the older message list keep the first and warn", func(t *testing.T) {
		data := []byte(`[{"id":"dup","chat":{"messages":[
			{"id":"m1","parentId":null,"role":"user","content":"a"},
			{"id":"m1","parentId":null,"role":"user","content":"b"}]}},
			{"id":"fine","chat":{"messages":[{"id":"m1","parentId":null,"role":"user","content":"a"}]}}]`)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		require.Len(t, res.Sessions, 2)
		assert.Empty(t, res.Skipped)
		assert.Equal(t, 1, st.sessions["dup"].Len())
		assert.Contains(t, warningTexts(res), `message "m1" appears again (record 1); the first is kept and this one skipped`)
	})
	t.Run("librechat: several conversations in an array import each, a cycle in one is cut", func(t *testing.T) {
		cyc := withRec(branchy, 0, func(r *rec) { r.parent = "d1" })
		data := []byte("[" + string(writeLibreChat("good", branchy)) + "," + string(writeLibreChat("bad", cyc)) + "]")
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		require.Len(t, res.Sessions, 2)
		assert.Equal(t, 6, st.sessions["bad"].Len())
		assert.Empty(t, res.Skipped)
	})
	t.Run("librechat: the recursive form with nesting and no parentMessageId uses the nesting", func(t *testing.T) {
		data := []byte(`{"conversationId":"r","recursive":true,"messagesTree":[
			{"messageId":"a","isCreatedByUser":true,"text":"q","children":[
				{"messageId":"b","text":"r1","children":[]},
				{"messageId":"c","parentMessageId":"a","text":"r2","createdAt":"2024-01-01T00:00:00Z"}]}]}`)
		st := testStore(t)
		mustImport(t, st, data, "auto")
		assert.Equal(t, treeShape{3, 1, 1, "c", []string{"main", "main-2"}}, shapeOf(t, st, "r"))
	})
	t.Run("claude code: a cut-off last line keeps every good line and names the line", func(t *testing.T) {
		data := writeClaudeCode("c1", branchy)
		data = append(data, `{"type":"user","uuid":"e1","parentUuid":"d2","message":{"role":"us`...)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, 6, st.sessions["c1"].Len())
		assert.Contains(t, warningTexts(res)[0], "line 7 is cut off")
	})
	t.Run("claude code: a broken line in the middle is skipped with a warning naming line and column", func(t *testing.T) {
		lines := strings.Split(string(writeClaudeCode("c1", branchy)), "\n")
		lines[2] = `{"type":"user",,}`
		st := testStore(t)
		res, err := st.Import([]byte(strings.Join(lines, "\n")), "auto")
		require.Nil(t, err)
		assert.Equal(t, `line 3 is not valid JSON: invalid character ',' looking for an object key at line 3, column 16; it is skipped`, warningTexts(res)[0])
		assert.Equal(t, 5, st.sessions["c1"].Len())
	})
	t.Run("claude code: summary lines title the session and lines without messages are counted", func(t *testing.T) {
		data := append([]byte(`{"type":"summary","summary":"Old title","leafUuid":"d1"}`+"\n"+
			`{"type":"summary","summary":"Plan the trip","leafUuid":"d2"}`+"\n"+
			`{"type":"file-history-snapshot","messageId":"x"}`+"\n"), writeClaudeCode("c1", branchy)...)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, "Plan the trip", res.Sessions[0].Title)
		assert.Equal(t, []string{
			`session "c1": 1 file-history-snapshot line(s) carry no message; skipped (lines 3)`,
			`session "c1": summary line 1 ("Old title", for leaf "d1") is not the title; only one title is kept`,
			`the conversation names no current message; the cursor is on the newest leaf`,
		}, warningTexts(res))
	})
	t.Run("claude code: the newest leaf chosen for the cursor is never a sidechain while a main leaf exists", func(t *testing.T) {
		data := writeClaudeCode("c1", branchy[:4])
		data = append(data, `{"type":"assistant","uuid":"s1","parentUuid":null,"isSidechain":true,"sessionId":"c1","timestamp":"2030-01-01T00:00:00Z","message":{"role":"assistant","content":"side"}}`+"\n"...)
		st := testStore(t)
		mustImport(t, st, data, "auto")
		sh := shapeOf(t, st, "c1")
		assert.Equal(t, "d1", sh.Cursor)
		assert.Equal(t, []string{"main", "sidechain"}, sh.Branches)
	})
	t.Run("chatbot ui: chats without ids get generated node ids and stand at their last message", func(t *testing.T) {
		data := []byte(`[{"id":"x","name":"n","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"content":"no role"}]}]`)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, "chatbotui", res.Format)
		sh := shapeOf(t, st, "x")
		assert.Equal(t, treeShape{2, 1, 0, sh.Cursor, []string{"main"}}, sh)
		assert.Regexp(t, `^m[0-9a-f]{8}$`, sh.Cursor, "an id derived from the chat, position and message")
		assert.Equal(t, []string{`chat "x" (n): message 2 has no role; skipped`}, warningTexts(res))
	})
	t.Run("chatbot ui: a chat without an id gets one derived from its content, so a second import finds it", func(t *testing.T) {
		data := []byte(`{"version":4,"history":[{"name":"n","messages":[{"role":"user","content":"a"}]}],"folders":[]}`)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.True(t, strings.HasPrefix(res.Sessions[0].SessionID, "chatbotui-"))
		assertReimportAddsNothing(t, st, data)
		assert.Len(t, st.sessions, 1)
	})
	t.Run("chatbot ui: a lone surrogate escape is reported naming the generated message id", func(t *testing.T) {
		data := []byte(`{"version":4,"history":[{"id":"s","name":"n","messages":[{"role":"user","content":"a \udc00 b"}]}]}`)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		assert.Equal(t, []string{`message "m3c0544f7" holds a lone surrogate escape \udc00 (byte 28 of its record), which is not a character: the record keeps it as written, text shows U+FFFD`}, warningTexts(res))
	})
	t.Run("chatbot ui: a broken export is an error naming line and column", func(t *testing.T) {
		_, err := testStore(t).Import([]byte("{\"version\":4,\n\"history\":[{\"name\":\"n\",\"messages\":[}]}"), "chatbotui")
		require.NotNil(t, err)
		assert.Equal(t, `import data is not valid JSON: invalid character '}' looking for a value at line 2, column 36`, err.Message)
	})
	t.Run("an import that yields nothing is an error listing the reasons", func(t *testing.T) {
		_, err := testStore(t).Import([]byte(`[{"id":"e","chat":{"history":{"messages":{"a":{"id":"a"}}}}}]`), "auto")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, `nothing imported: `)
		assert.Contains(t, err.Message, `chat "e" has no usable messages; skipped`)
	})
	for _, tc := range []struct{ format, data string }{
		{"chatbotui", `{"version":4,"history":[{"id":"e","name":"Empty","messages":[]}]}`},
		{"openwebui", `[{"id":"e","title":"Empty","chat":{"history":{"messages":{}}}}]`},
		{"librechat", `{"conversationId":"e","title":"Empty","messages":[]}`},
		{"chatgpt", `[{"id":"e","title":"Empty","mapping":{"root":{"id":"root","message":null,"children":[]}}}]`},
	} {
		t.Run(tc.format+": an empty conversation imports as an empty session, with a warning", func(t *testing.T) {
			st := testStore(t)
			res := mustImport(t, st, []byte(tc.data), "auto")
			assert.Equal(t, tc.format, res.Format)
			require.Len(t, res.Sessions, 1)
			assert.Equal(t, "e", res.Sessions[0].SessionID)
			assert.Equal(t, "Empty", res.Sessions[0].Title)
			assert.Equal(t, 0, res.Sessions[0].NodeCount)
			assert.Nil(t, res.Sessions[0].Cursor)
			assert.Contains(t, strings.Join(warningTexts(res), "\n"), "has no messages; it is an empty session")
		})
	}
}

func TestImportDetectionExplainsItself(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"an array of unknown objects names the first element's keys", `[{"zeta":1,"alpha":2},{"b":3}]`, `it is a JSON array whose first element has the keys "alpha", "zeta"; tried: snapshot (`},
		{"JSON lines name the first line's keys", "{\"k\":1}\n{\"j\":2}", `it is JSON lines (2 read) whose first line has the keys "k"; tried: snapshot (`},
		{"many keys are cut at 12", `{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1,"k":1,"l":1,"m":1,"n":1}`, `"l" and 2 more; tried`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := testStore(t).Import([]byte(tc.data), "auto")
			require.NotNil(t, err)
			assert.Contains(t, err.Message, tc.want)
			assert.Contains(t, err.Message, "claude-code (lines with")
		})
	}
}

func TestImportDetection(t *testing.T) {
	errs := []struct{ name, data, want string }{
		{"garbage after a document", "{\"a\":1} x", `import data is not valid JSON: invalid character 'x' after the top-level value at line 1, column 9`},
		{"an unknown shape", `{"a":1}`, `could not detect the format of the import data: it is a JSON object with the keys "a"; tried: snapshot (a JSON object with "version", "sessionId" and "nodes"); chatgpt (objects with "mapping"); openwebui (objects with a "chat" holding "history" or "messages", or with a "history" object); librechat (objects with "conversationId" and "messages" or "messagesTree"); chatbotui (an object with a "history" array, or an array of objects with "name" and "messages"); claudeai (objects with a "chat_messages" array); pi (a first line {"type":"session","id":…}); sillytavern (a first line with "user_name" and "character_name" or "chat_metadata", or with "mes" and "is_user"); claude-code (lines with "parentUuid", "leafUuid", or "uuid" and "sessionId")`},
		{"an empty array", `[]`, `import data is an empty array or holds no object: nothing to import`},
		{"a truncated array", `[{"mapping":{}},`, `import data is not valid JSON: unexpected end of JSON input at line 1, column 17`},
		{"a single string", `"chat"`, `import data must be a JSON object, an array or JSON lines`},
		{"a bare word", `chat`, `import data is not valid JSON: invalid character 'c' looking for a value at line 1, column 1`},
		{"a JSON-lines file named as a JSON format", "{\"mapping\":{}}\n{\"mapping\":{}}", `chatgpt import: the data is JSON lines, but chatgpt exports are one JSON document`},
	}
	for _, tc := range errs {
		t.Run(tc.name+" is an error", func(t *testing.T) {
			format := "auto"
			if strings.Contains(tc.name, "named") {
				format = "chatgpt"
			}
			_, err := testStore(t).Import([]byte(tc.data), format)
			require.NotNil(t, err)
			assert.Equal(t, tc.want, err.Message)
		})
	}
}

// TestImportJobSteps checks the sliced import the wasm binding uses: the
// same result as one call, progress rising to the total, nothing added
// while reading, the sessions added over several steps after it.
func TestImportJobSteps(t *testing.T) {
	var chats []owuiChat
	for k := 0; k < 50; k++ {
		chats = append(chats, owuiChat{fmt.Sprintf("chat%02d", k), "d2", branchy})
	}
	data := writeOpenWebUI(chats...)
	st := testStore(t)
	job, err := st.StartImport(data, "auto")
	require.Nil(t, err)
	var seen []int
	sessionsSeen := map[int]bool{}
	for !job.Step(1000) {
		done, total := job.Progress()
		seen = append(seen, done)
		assert.Equal(t, 2*len(data), total)
		if done <= len(data) {
			assert.Empty(t, st.sessions, "nothing is added while reading")
		}
		sessionsSeen[len(st.sessions)] = true
	}
	assert.Greater(t, len(seen), 10)
	assert.True(t, sort.IntsAreSorted(seen))
	assert.Greater(t, len(sessionsSeen), 3, "the sessions are added over several steps")
	done, total := job.Progress()
	assert.Equal(t, total, done)
	res, err := job.Finish()
	require.Nil(t, err)
	assert.Len(t, res.Sessions, 50)
	other := testStore(t)
	mustImport(t, other, data, "auto")
	assert.Equal(t, snapshot(t, other, "chat49"), snapshot(t, st, "chat49"))
}

func TestImportJobMeetsASessionCreatedMeanwhile(t *testing.T) {
	data := writeOpenWebUI(owuiChat{"a", "d2", branchy}, owuiChat{"b", "d2", branchy})
	st := testStore(t)
	job, err := st.StartImport(data, "auto")
	require.Nil(t, err)
	for done, _ := job.Progress(); done < len(data); done, _ = job.Progress() {
		job.Step(1)
	}
	ok[Status](t, st, obj{"operation": "create", "sessionId": "b"})
	res, err := job.Finish()
	require.Nil(t, err)
	require.Len(t, res.Sessions, 2)
	assert.Equal(t, ImportedSession{SessionID: "a", Title: "chat a", Added: 6, NodeCount: 6, Cursor: res.Sessions[0].Cursor, BranchCount: 2, RootCount: 1}, res.Sessions[0])
	assert.True(t, res.Sessions[1].Existing, "the session created meanwhile takes the conversation's nodes, as an earlier import would")
	assert.Equal(t, 6, res.Sessions[1].Added)
	assert.Equal(t, treeShape{6, 1, 1, "d2", []string{"main", "main-2"}}, shapeOf(t, st, "b"))
}
