package formats

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// detected returns the name of the first importer that detects data.
func detected(t *testing.T, data string) string {
	t.Helper()
	sn, err := SniffData([]byte(data))
	require.Nil(t, err)
	for _, im := range Importers {
		if im.Detect(sn) {
			return im.Name
		}
	}
	return ""
}

func TestSniffDetectsTheCodingAgents(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"a codex rollout", "{\"timestamp\":\"t\",\"type\":\"session_meta\",\"payload\":{\"id\":\"x\"}}\n{\"timestamp\":\"t\",\"type\":\"response_item\",\"payload\":{}}", "codex"},
		{"a codex rollout cut before its meta", `{"timestamp":"t","type":"event_msg","payload":{"type":"token_count"}}`, "codex"},
		{"a gemini cli jsonl session", "{\"sessionId\":\"s\",\"projectHash\":\"h\",\"startTime\":\"t\"}\n{\"id\":\"u\",\"type\":\"user\",\"content\":\"hi\"}", "gemini"},
		{"a gemini cli json session (not the openai messages object)", `{"sessionId":"s","projectHash":"h","messages":[{"id":"u","type":"user","content":"hi"}]}`, "gemini"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is detected as "+tc.want, func(t *testing.T) {
			assert.Equal(t, tc.want, detected(t, tc.data))
		})
	}
}
