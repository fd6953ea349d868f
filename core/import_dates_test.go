package core

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The times of an imported session are the data's: an undated
// conversation does not take the import's time (it would show as brand
// new), a session's update time is its newest message's when the data
// names none.
func TestImportedSessionTimes(t *testing.T) {
	t.Run("a Chatbot UI export, which holds no dates, imports undated sessions", func(t *testing.T) {
		data, err := os.ReadFile("testdata/fixtures/librechat/chatbotui-export.json")
		require.NoError(t, err)
		st := testStore(t)
		res := mustImport(t, st, data, "auto")
		require.Len(t, res.Sessions, 2)
		for _, s := range ok[[]SessionSummary](t, st, `{"operation":"sessions"}`) {
			assert.Equal(t, "", s.UpdatedAt, s.SessionID)
		}
		status := ok[Status](t, st, `{"operation":"session","sessionId":"493cb218-9ebb-4d35-af8b-5aded3f351be"}`)
		assert.Equal(t, "", status.CreatedAt)
		assert.Equal(t, "", status.UpdatedAt)
		// A node has a time (SPEC.md): the import's, the clock's first tick.
		assert.Equal(t, "2026-11-29T12:00:00.001Z", st.s.ByID[status.SessionID].Nodes[0].Timestamp)
	})
	t.Run("an undated session stays undated when the store restores it", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, []byte(`[{"id":"c","name":"Undated","messages":[{"role":"user","content":"hi"}]}]`), "auto")
		snap := string(ok[RawMessage](t, st, `{"operation":"snapshot.save","sessionId":"c"}`))
		st2 := testStore(t)
		status := ok[Status](t, st2, `{"operation":"restore","createdAt":"","updatedAt":"","snapshot":`+snap+`}`)
		assert.Equal(t, "", status.CreatedAt)
		assert.Equal(t, "", status.UpdatedAt)
		status = ok[Status](t, testStore(t), `{"operation":"restore","snapshot":`+snap+`}`)
		assert.Equal(t, "2026-11-29T12:00:00.001Z", status.CreatedAt, "a restore naming no time is stamped as before")
	})
	t.Run("an undated session's Pi export has the first node's time in its header", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, []byte(`[{"id":"c","name":"Undated","messages":[{"role":"user","content":"hi"}]}]`), "auto")
		ex := ok[Export](t, st, `{"operation":"export","sessionId":"c","format":"pi"}`)
		header, _, _ := strings.Cut(ex.Text, "\n")
		assert.Contains(t, header, `"timestamp":"2026-11-29T12:00:00.001Z"`)
	})
	t.Run("a Claude Code transcript is updated at its newest message", func(t *testing.T) {
		data, err := os.ReadFile("testdata/fixtures/claude-code/sidechain_integrated.jsonl")
		require.NoError(t, err)
		st := testStore(t)
		mustImport(t, st, data, "auto")
		status := ok[Status](t, st, `{"operation":"session","sessionId":"88a8d761-7b9a-4bf1-a8ca-c1febe6bf358"}`)
		assert.Equal(t, "2025-11-19T22:53:34.908Z", status.CreatedAt)
		assert.Equal(t, "2025-11-19T22:55:40.790Z", status.UpdatedAt)
	})
	t.Run("a ChatGPT conversation without create_time is created at its earliest message, and a message without a time takes it", func(t *testing.T) {
		data := `[{"id":"g","title":"T","current_node":"b","mapping":{
			"s":{"id":"s","parent":null,"children":["a"],"message":{"author":{"role":"system"},"content":{"content_type":"text","parts":["be brief"]}}},
			"a":{"id":"a","parent":"s","children":["b"],"message":{"author":{"role":"user"},"create_time":1756000001,"content":{"content_type":"text","parts":["q"]}}},
			"b":{"id":"b","parent":"a","children":[],"message":{"author":{"role":"assistant"},"create_time":1756000002,"content":{"content_type":"text","parts":["r"]}}}}}]`
		st := testStore(t)
		mustImport(t, st, []byte(data), "auto")
		status := ok[Status](t, st, `{"operation":"session","sessionId":"g"}`)
		assert.Equal(t, "2025-08-24T01:46:41.000Z", status.CreatedAt)
		assert.Equal(t, "2025-08-24T01:46:42.000Z", status.UpdatedAt)
		assert.Equal(t, "2025-08-24T01:46:41.000Z", st.s.ByID["g"].Nodes[0].Timestamp)
	})
}
