package core

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestContextIdsNameTheNodesOfItsMessages checks, at every leaf of a
// session with edits, regenerations, an entry and a tool call, that
// context with ids: true pairs each message with the very node it came
// from: node(nodeIds[i]) holds messages[i] byte for byte, and nodeIds are
// the message nodes of the path root → cursor, in order.
func TestContextIdsNameTheNodesOfItsMessages(t *testing.T) {
	st := chatStore(t)
	ok[obj](t, st, `{"operation":"append","sessionId":"c","entry":{"kind":"model_change","provider":"openai","model":"gpt-x"}}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"c","message":{"role":"assistant","content":null,"tool_calls":[{"id":"t1","type":"function","function":{"name":"f","arguments":"{}"}}]}}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"c","message":{"role":"tool","tool_call_id":"t1","content":"42"}}`)
	ok[Status](t, st, `{"operation":"jump","sessionId":"c","nodeId":"n0002"}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"c","message":{"role":"user","content":"u2 under a1"}}`)

	type node struct {
		ID       string          `json:"id"`
		ParentID *string         `json:"parentId"`
		Kind     string          `json:"kind"`
		Message  json.RawMessage `json:"message"`
	}
	list := ok[[]ListItem](t, st, `{"operation":"list","sessionId":"c"}`)
	parent := map[string]*string{}
	hasChild := map[string]bool{}
	for _, n := range list {
		parent[n.ID] = n.ParentID
		if n.ParentID != nil {
			hasChild[*n.ParentID] = true
		}
	}
	leaves := 0
	for _, leaf := range list {
		if hasChild[leaf.ID] {
			continue
		}
		leaves++
		t.Run(fmt.Sprintf("at the leaf %s every id names its message's node", leaf.ID), func(t *testing.T) {
			ok[Status](t, st, `{"operation":"jump","sessionId":"c","nodeId":"`+leaf.ID+`"}`)
			got := ok[ContextIDs](t, st, `{"operation":"context","sessionId":"c","ids":true}`)
			require.Len(t, got.NodeIDs, len(got.Messages))
			var path []string
			for id := &leaf.ID; id != nil; id = parent[*id] {
				if n := ok[node](t, st, `{"operation":"node","sessionId":"c","nodeId":"`+*id+`"}`); n.Kind == KindMessage {
					path = append([]string{*id}, path...)
				}
			}
			assert.Equal(t, path, got.NodeIDs, "the message nodes of the path, root first")
			for i, id := range got.NodeIDs {
				n := ok[node](t, st, `{"operation":"node","sessionId":"c","nodeId":"`+id+`"}`)
				assert.JSONEq(t, string(n.Message), string(got.Messages[i]), "message %d", i)
			}
		})
	}
	assert.Equal(t, 2, leaves, "u2 under a1, and the tool result on the edited line")
}
