package formats

import (
	"bytes"
	"embed"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linkFiles are the fork-link samples (testdata/links/README.md says
// what wrote each), embedded so the tests also run in the browser.
//
//go:embed testdata/links
var linkFiles embed.FS

// The session ids the samples name.
const (
	claudeParentID  = "5b1e0c2a-3f4d-4e6a-9b7c-1d2e3f405161"
	openWebUIParent = "3c2b1a09-8f7e-4d6c-b5a4-938271605f4e"
)

func linkFile(t *testing.T, name string) string {
	t.Helper()
	b, err := linkFiles.ReadFile("testdata/links/" + name)
	require.NoError(t, err)
	return string(b)
}

// readLines reads data line by line with a reader of the format, as
// core's import does (RawLine first, else Line with the fields).
func readLines(t *testing.T, lr LineReader, data string) ([]Conversation, []Warning) {
	t.Helper()
	for n, line := range bytes.Split([]byte(data), []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		require.True(t, jsonx.Valid(line), "line %d is JSON", n+1)
		if rl, ok := lr.(RawLiner); ok && line[0] == '{' && rl.RawLine(line, n+1) {
			continue
		}
		f, _ := RawFields(line)
		lr.Line(line, f, n+1)
	}
	return lr.Finish()
}

// readItems reads a JSON file of one conversation or an array of them
// with the format's Item.
func readItems(t *testing.T, item func(*Model, jsonx.RawMessage, int) (Conversation, []Warning), data string) ([]Conversation, []Warning) {
	t.Helper()
	raw := []byte(strings.TrimSpace(data))
	if raw[0] == '{' {
		c, w := item(stubModel, raw, 0)
		return []Conversation{c}, w
	}
	var convs []Conversation
	var warns []Warning
	sc := jsonx.Scanner{Data: raw}
	require.NoError(t, sc.Elements(func(k int, v []byte, _ bool) error {
		c, w := item(stubModel, v, k)
		convs, warns = append(convs, c), append(warns, w...)
		return nil
	}))
	return convs, warns
}

// claudeCodeLinks reads a Claude Code transcript.
func claudeCodeLinks(t *testing.T, data string) ([]Conversation, []Warning) {
	return readLines(t, newClaudeCodeReader(stubModel), data)
}

// openWebUILinks reads an Open WebUI export.
func openWebUILinks(t *testing.T, data string) ([]Conversation, []Warning) {
	return readItems(t, convertOpenWebUIChat, data)
}

func TestImportsReadTheForkLinksTheirFormatsCarry(t *testing.T) {
	cases := []struct {
		name, file string
		read       func(*testing.T, string) ([]Conversation, []Warning)
		want       []string // each conversation's ParentSession
	}{
		{"a Claude Code /branch copy names its source in forkedFrom", "claude-code-branch.jsonl", claudeCodeLinks, []string{claudeParentID}},
		{"a Claude Code SDK fork (new uuids) names its source in forkedFrom", "claude-code-sdk-fork.jsonl", claudeCodeLinks, []string{claudeParentID}},
		{"a Claude Code headless --fork-session names none", "claude-code-headless-fork.jsonl", claudeCodeLinks, []string{""}},
		{"a Claude Code session that is no fork names none", "claude-code-parent.jsonl", claudeCodeLinks, []string{""}},
		{"an Open WebUI clone names its chat in originalChatId, the original none", "openwebui-chats.json", openWebUILinks, []string{"", openWebUIParent}},
		{"a LibreChat fork names none (LibreChat keeps no link)", "librechat-fork.json", func(t *testing.T, data string) ([]Conversation, []Warning) {
			return readItems(t, convertLibreChat, data)
		}, []string{""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			convs, _ := tc.read(t, linkFile(t, tc.file))
			var got []string
			for _, c := range convs {
				require.Empty(t, c.Skip)
				require.NotEmpty(t, c.Records)
				got = append(got, c.ParentSession)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestAMissingBlankOrOddForkLinkIsNoLinkAndNoWarning(t *testing.T) {
	branch := linkFile(t, "claude-code-branch.jsonl")
	forked := `"forkedFrom":{"sessionId":"` + claudeParentID + `","messageUuid":"d1f0a001-0000-4000-8000-00000000000`
	require.Equal(t, 2, strings.Count(branch, forked))
	// claudeWith replaces each line's forkedFrom (up to its messageUuid's
	// last digit) by v.
	claudeWith := func(v string) string {
		return strings.NewReplacer(forked+`1"}`, v, forked+`2"}`, v).Replace(branch)
	}
	clones := linkFile(t, "openwebui-chats.json")
	original := `"originalChatId": "` + openWebUIParent + `"`
	require.Equal(t, 1, strings.Count(clones, original))
	openWebUIWith := func(v string) string { return strings.Replace(clones, original, v, 1) }

	_, claudeBase := claudeCodeLinks(t, claudeWith(`"forkedFromNot":null`))
	_, webBase := openWebUILinks(t, openWebUIWith(`"originalChatIdNot": null`))
	for _, v := range []string{`null`, `""`, `"` + claudeParentID + `"`, `[]`, `{}`, `{"sessionId":7}`, `{"sessionId":null}`, `{"sessionId":""}`, `{"messageUuid":"m"}`} {
		t.Run("Claude Code forkedFrom "+v, func(t *testing.T) {
			convs, warns := claudeCodeLinks(t, claudeWith(`"forkedFrom":`+v))
			require.Len(t, convs, 1)
			assert.Equal(t, "", convs[0].ParentSession)
			assert.Equal(t, claudeBase, warns)
		})
	}
	for _, v := range []string{`null`, `""`, `42`, `true`, `[]`, `{"id": "x"}`} {
		t.Run("Open WebUI originalChatId "+v, func(t *testing.T) {
			convs, warns := openWebUILinks(t, openWebUIWith(`"originalChatId": `+v))
			require.Len(t, convs, 2)
			assert.Equal(t, "", convs[1].ParentSession)
			assert.Equal(t, webBase, warns)
		})
	}
	t.Run("a first odd Claude Code forkedFrom leaves the link to the next line", func(t *testing.T) {
		data := strings.Replace(branch, forked+`1"}`, `"forkedFrom":{"sessionId":false}`, 1)
		convs, _ := claudeCodeLinks(t, data)
		assert.Equal(t, claudeParentID, convs[0].ParentSession)
	})
	t.Run("a malformed id is handed on as it stands, for core to drop with a warning", func(t *testing.T) {
		convs, _ := claudeCodeLinks(t, claudeWith(`"forkedFrom":{"sessionId":"bad\u0007id"}`))
		assert.Equal(t, "bad\aid", convs[0].ParentSession)
		convs, _ = openWebUILinks(t, openWebUIWith(`"originalChatId": "bad\u0007id"`))
		assert.Equal(t, "bad\aid", convs[1].ParentSession)
	})
}
