package formats

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTheCommonClaudeCodeMessageLineIsReadInOnePass(t *testing.T) {
	line := `{"parentUuid":"a","isSidechain":false,"userType":"external","sessionId":"s","uuid":"b","timestamp":"2025-10-09T08:54:24.964Z","type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"yo"}],"usage":{"output_tokens":3}},"requestId":"r"}`
	l, ok := readClaudeCodeFast([]byte(line), true, "a")
	assert.True(t, ok, "the common shape is read in one pass")
	assert.Equal(t, claudeCodeFastLine{typ: "assistant", uuid: "b", parent: "a", sessionID: "s", timestamp: []byte(`"2025-10-09T08:54:24.964Z"`),
		message: []byte(`{"id":"m","role":"assistant","content":[{"type":"text","text":"yo"}],"usage":{"output_tokens":3}}`), role: "assistant"}, l)
	_, ok = readClaudeCodeFast([]byte(strings.Replace(line, `"requestId"`, `"uuid"`, 1)), true, "a")
	assert.False(t, ok, "a member read twice is left to the decoding path")
	_, ok = readClaudeCodeFast([]byte(strings.Replace(line, `"type":"assistant"`, `"type":"system"`, 1)), true, "a")
	assert.False(t, ok, "a line other than a message is left to the decoding path")
}
