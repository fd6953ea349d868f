package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture reads a file of testdata/fixtures (real public exports, copied
// from the project's shared fixtures; see testdata/fixtures/PROVENANCE.md),
// from the embedded testdata so it also runs in the browser.
func fixture(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := testdata.ReadFile("testdata/fixtures/" + name)
	require.NoError(tb, err)
	return data
}

func importData(tb testing.TB, st *Store, data []byte, format string) (*ImportResult, *Error) {
	tb.Helper()
	return st.Import(data, format)
}

func TestImportChatGPTTree(t *testing.T) {
	st := testStore(t)
	res, err := importData(t, st, fixture(t, "librechat/chatgpt-tree.json"), "auto")
	require.Nil(t, err)
	const id = "d5dc5307-6807-41a0-8b04-4acee626eeb7"
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, id, res.Sessions[0].SessionID)
	assert.Equal(t, 12, res.Sessions[0].NodeCount, "13 mapping entries less the message-less root")
	assert.Equal(t, "f63b8e17-aa5c-4ca6-a1bf-d4d285e269b8", *res.Sessions[0].Cursor)
	assert.Empty(t, res.Warnings)

	tree := ok[Tree](t, st, obj{"operation": "tree", "sessionId": id})
	assert.Equal(t, []string{"d38605d2-7b2c-43de-b044-22ce472c749b"}, tree.Roots, "the children of the null root are re-attached (here: it becomes the root)")
	forks := map[string]int{}
	for _, r := range tree.Rows {
		if r.ChildCount > 1 {
			forks[r.ID] = r.ChildCount
		}
	}
	assert.Equal(t, map[string]int{
		"bda8a275-886d-4f59-b38c-d7037144f0d5": 2, // an edited prompt: "so cool bro" and "hi again"
		"aaa20127-b9e3-44f6-afbe-a2475838625a": 2, // a regenerated answer to "tell me a joke"
	}, forks)

	branches := ok[[]BranchInfo](t, st, obj{"operation": "branches", "sessionId": id})
	require.Len(t, branches, 3)
	assert.Equal(t, "main", branches[0].Name)
	assert.Equal(t, 7, branches[0].NodeCount)
	assert.True(t, branches[0].Active)
	assert.Equal(t, "f63b8e17-aa5c-4ca6-a1bf-d4d285e269b8", *branches[0].Tip)

	ctx := ok[Context](t, st, obj{"operation": "context", "sessionId": id})
	require.Len(t, ctx.Messages, 7)
	assert.Equal(t, `{"role":"system","content":""}`, string(ctx.Messages[0]))
	assert.Equal(t, `{"role":"user","content":"hi there"}`, string(ctx.Messages[1]))
	assert.Equal(t, `{"role":"user","content":"tell me a joke"}`, string(ctx.Messages[5]))

	// The original record is kept whole on the node.
	node := ok[obj](t, st, obj{"operation": "node", "sessionId": id, "nodeId": "aaa297ba-e2da-440e-84f4-e62e7be8b003"})
	src := node["source"].(map[string]any)
	assert.Equal(t, "aaa297ba-e2da-440e-84f4-e62e7be8b003", src["id"])
	assert.Equal(t, "2024-05-01T17:37:11.150Z", node["timestamp"])
}

func TestImportChatGPTModernExportWarnsAboutAConversationWithoutMapping(t *testing.T) {
	st := testStore(t)
	res, err := importData(t, st, fixture(t, "librechat/chatgpt-modern-export.json"), "chatgpt")
	require.Nil(t, err)
	ids := []string{}
	for _, s := range res.Sessions {
		ids = append(ids, s.SessionID)
	}
	assert.Equal(t, []string{"6b0f0d9c-0000-4000-8000-000000000001", "6b0f0d9c-0000-4000-8000-000000000003"}, ids)
	require.Len(t, res.Warnings, 1)
	assert.Equal(t, "6b0f0d9c-0000-4000-8000-000000000002", res.Warnings[0].SessionID)
	assert.Equal(t, `conversation "Corrupted entry" has no messages (its "mapping" is missing); skipped`, res.Warnings[0].Message)
	assert.Equal(t, "assistant-2", *res.Sessions[0].Cursor)
	assert.Equal(t, "assistant-3", *res.Sessions[1].Cursor)

	// Importing the same file again duplicates nothing.
	assertReimportAddsNothing(t, st, fixture(t, "librechat/chatgpt-modern-export.json"))
	sessions := ok[[]SessionSummary](t, st, `{"operation":"sessions"}`)
	assert.Len(t, sessions, 2)
}

func TestImportChatGPTSingleConversationKeepsImageParts(t *testing.T) {
	st := testStore(t)
	res, err := importData(t, st, fixture(t, "echomine/002_with_images.json"), "auto")
	require.Nil(t, err)
	require.Len(t, res.Sessions, 1)
	id := res.Sessions[0].SessionID
	list := ok[[]ListItem](t, st, obj{"operation": "list", "sessionId": id})
	var imageNode string
	for _, item := range list {
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": id, "nodeId": item.ID})
		msg := n["message"].(map[string]any)
		parts, isArray := msg["content"].([]any)
		if !isArray {
			continue
		}
		for _, p := range parts {
			part := p.(map[string]any)
			if part["type"] == "image_asset_pointer" {
				imageNode = item.ID
				assert.Contains(t, part["asset_pointer"], "file-service://")
				// The original record is whole in source.
				src, _ := json.Marshal(n["source"])
				assert.Contains(t, string(src), `"content_type":"multimodal_text"`)
			}
		}
	}
	assert.NotEmpty(t, imageNode, "an image part is kept in content")
}

func TestImportRejectsDataThatYieldsNothing(t *testing.T) {
	st := testStore(t)
	cases := []struct {
		name, data, mention string
	}{
		{"empty data", ``, "empty"},
		{"invalid JSON", "[\n{\"mapping\": }", "line 2, column 13"},
		{"an unknown format", `{"hello":"world"}`, "could not detect the format"},
		{"a conversation without mapping", `[{"id":"x","title":"T"}]`, "could not detect the format"},
		{"only a conversation without mapping", `[{"id":"x","title":"T","mapping":null},{"id":"y","mapping":{"r":{"id":"r","message":{"content":{}}}}}]`, "none of its 1 messages could be used"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is an error", func(t *testing.T) {
			_, err := importData(t, st, []byte(tc.data), "auto")
			require.NotNil(t, err)
			assert.Equal(t, InvalidArgument, err.Code)
			assert.Contains(t, err.Message, tc.mention)
		})
	}
	assert.Empty(t, ok[[]SessionSummary](t, st, `{"operation":"sessions"}`))
}

func TestImportDanglingCurrentNodeUsesNewestLeaf(t *testing.T) {
	st := testStore(t)
	data := `{"id":"c1","title":"t","current_node":"gone","mapping":{
	  "r":{"id":"r","message":null,"parent":null,"children":["a"]},
	  "a":{"id":"a","message":{"author":{"role":"user"},"create_time":10,"content":{"content_type":"text","parts":["q"]}},"parent":"r","children":["b","c"]},
	  "b":{"id":"b","message":{"author":{"role":"assistant"},"create_time":30,"content":{"content_type":"text","parts":["new"]}},"parent":"a","children":[]},
	  "c":{"id":"c","message":{"author":{"role":"assistant"},"create_time":20,"content":{"content_type":"text","parts":["old"]}},"parent":"a","children":[]}}}`
	res, err := importData(t, st, []byte(data), "auto")
	require.Nil(t, err)
	assert.Equal(t, "b", *res.Sessions[0].Cursor)
	require.Len(t, res.Warnings, 1)
	assert.Equal(t, `current message "gone" is not in the conversation; the cursor is on the newest leaf`, res.Warnings[0].Message)
	// Through the operation, with data as a string.
	st2 := testStore(t)
	v := ok[ImportResult](t, st2, obj{"operation": "import", "data": data})
	assert.Equal(t, "c1", v.Sessions[0].SessionID)
}

func TestImportSnapshotFile(t *testing.T) {
	st := testStore(t)
	buildBranchy(t, st, "s")
	text := snapshot(t, st, "s")
	other := testStore(t)
	v := ok[ImportResult](t, other, obj{"operation": "import", "data": RawMessage(text)})
	require.Len(t, v.Sessions, 1)
	assert.Equal(t, text, snapshot(t, other, "s"))
}

func TestAChatGPTMessageWithABlankRoleIsSkippedAsCoreSays(t *testing.T) {
	// The importer writes the message and names its role (Record.Role), so
	// core checks only the role: its rule and its words stay the same.
	data := `[{"id":"c","current_node":"b","mapping":{` +
		`"a":{"parent":null,"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}}},` +
		`"b":{"parent":"a","message":{"author":{"role":"  "},"content":{"content_type":"text","parts":["yo"]}}}}}]`
	res, err := importData(t, testStore(t), []byte(data), "chatgpt")
	require.Nil(t, err)
	require.Len(t, res.Sessions, 1)
	assert.Equal(t, 1, res.Sessions[0].NodeCount)
	require.Len(t, res.Warnings, 2)
	assert.Equal(t, `message "b".role must not be empty; the record is skipped and its children attach to its parent`, res.Warnings[0].Message)
}
