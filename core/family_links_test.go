package core

import (
	"embed"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forkSamples are the fork-link samples of the formats package
// (core/internal/formats/testdata/links/README.md says what wrote each),
// embedded so the test also runs in the browser.
//
//go:embed internal/formats/testdata/links
var forkSamples embed.FS

func forkSample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := forkSamples.ReadFile("internal/formats/testdata/links/" + name)
	require.NoError(t, err)
	return b
}

func TestImportedForkLinksOfClaudeCodeAndOpenWebUI(t *testing.T) {
	const (
		parent = "5b1e0c2a-3f4d-4e6a-9b7c-1d2e3f405161"
		branch = "8c9d0e1f-2a3b-4c5d-8e6f-708192a3b4c5"
		sdk    = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"
		title  = "Which port does the dev server listen on?"
	)
	t.Run("Claude Code forkedFrom links a /branch copy and an SDK fork, before and after the parent arrives", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, forkSample(t, "claude-code-branch.jsonl"), "auto")
		assert.Equal(t, parent+" | "+parent+"::0:missing "+branch+":"+title+":4 | "+branch+"<"+parent+"@null/import",
			familyShape(family(t, st, branch)))
		mustImport(t, st, forkSample(t, "claude-code-sdk-fork.jsonl"), "auto")
		mustImport(t, st, forkSample(t, "claude-code-parent.jsonl"), "auto")
		assert.Equal(t, parent+" | "+parent+":"+title+":4 "+branch+":"+title+":4 "+sdk+":"+title+":2 | "+
			branch+"<"+parent+"@d1f0a001-0000-4000-8000-000000000002/import "+sdk+"<"+parent+"@null/import",
			familyShape(family(t, st, parent)), "the branch kept the parent's uuids, so it is forked at the last one both share; the SDK fork shares none")
	})
	t.Run("a Claude Code headless fork names no source", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, forkSample(t, "claude-code-parent.jsonl"), "auto")
		mustImport(t, st, forkSample(t, "claude-code-headless-fork.jsonl"), "auto")
		assert.Equal(t, parent+" | "+parent+":"+title+":4 |", familyShape(family(t, st, parent)))
	})
	t.Run("an Open WebUI clone links to its chat at the branch point", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, forkSample(t, "openwebui-chats.json"), "auto")
		require.Len(t, res.Sessions, 2)
		assert.Empty(t, res.Warnings)
		assert.Equal(t, "3c2b1a09-8f7e-4d6c-b5a4-938271605f4e | 3c2b1a09-8f7e-4d6c-b5a4-938271605f4e:Trip to Lyon:3 7d6c5b4a-3928-4170-a6b5-c4d3e2f10a9b:Clone of Trip to Lyon:3 | "+
			"7d6c5b4a-3928-4170-a6b5-c4d3e2f10a9b<3c2b1a09-8f7e-4d6c-b5a4-938271605f4e@9a1f0c2e-0002-4b3d-8e5f-1a2b3c4d5e02/import",
			familyShape(family(t, st, "7d6c5b4a-3928-4170-a6b5-c4d3e2f10a9b")))
	})
	t.Run("a malformed link is dropped with a warning, never failing the import", func(t *testing.T) {
		st := testStore(t)
		data := strings.ReplaceAll(string(forkSample(t, "claude-code-branch.jsonl")), `"forkedFrom":{"sessionId":"`+parent, `"forkedFrom":{"sessionId":"bad\u0007id`)
		res := mustImport(t, st, []byte(data), "auto")
		require.Len(t, res.Sessions, 1)
		var dropped []string
		for _, w := range res.Warnings {
			if strings.Contains(w.Message, "the link is dropped") {
				dropped = append(dropped, w.Message)
			}
		}
		assert.Len(t, dropped, 1)
		assert.NotContains(t, snapshot(t, st, branch), `"kind":"source"`)
		web := strings.Replace(string(forkSample(t, "openwebui-chats.json")), `"originalChatId": "3c2b`, `"originalChatId": "`+strings.Repeat("x", MaxSessionIDLength), 1)
		res = mustImport(t, testStore(t), []byte(web), "auto")
		require.Len(t, res.Sessions, 2)
		require.Len(t, res.Warnings, 1)
		assert.Contains(t, res.Warnings[0].Message, "the link is dropped")
	})
}
