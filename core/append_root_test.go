package core

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAppendRoot: append with root: true adds a sibling of the session's
// first message (an edit of the first message of a chat that has no
// system message), on a new branch, and the session stays whole through
// a snapshot.
func TestAppendRoot(t *testing.T) {
	user := func(text string) obj { return obj{"role": "user", "content": text} }
	chat := func(t *testing.T) *Store {
		st := testStore(t)
		ok[obj](t, st, obj{"operation": "create", "sessionId": "c"})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "c", "message": user("Plan a trip")})
		ok[obj](t, st, obj{"operation": "append", "sessionId": "c", "message": obj{"role": "assistant", "content": "Where to?"}})
		return st
	}

	t.Run("a new root on a new branch, the cursor on it", func(t *testing.T) {
		st := chat(t)
		n := ok[obj](t, st, obj{"operation": "append", "sessionId": "c", "message": user("Plan a trip to Lyon"), "root": true})
		assert.Nil(t, n["parentId"])
		assert.Equal(t, "main-2", n["branch"])
		ctx := ok[obj](t, st, obj{"operation": "context", "sessionId": "c"})
		assert.Equal(t, n["id"], ctx["cursor"])
		assert.Equal(t, []any{map[string]any{"role": "user", "content": "Plan a trip to Lyon"}}, ctx["messages"])
		ids := ok[struct {
			NodeIDs  []string
			Siblings [][]string
		}](t, st, obj{"operation": "context", "sessionId": "c", "ids": true})
		assert.Equal(t, []string{n["id"].(string)}, ids.NodeIDs)
		require.Len(t, ids.Siblings, 1)
		assert.Len(t, ids.Siblings[0], 2, "the two roots are siblings, as an edit and its original are")
		assert.Contains(t, ids.Siblings[0], n["id"])
		s := ok[obj](t, st, obj{"operation": "session", "sessionId": "c"})
		assert.Equal(t, "main-2", s["activeBranch"])
		assert.EqualValues(t, 3, s["nodeCount"])
		assert.EqualValues(t, 2, s["leafCount"])

		a := ok[obj](t, st, obj{"operation": "append", "sessionId": "c", "message": obj{"role": "assistant", "content": "Lyon it is."}})
		assert.Equal(t, n["id"], a["parentId"], "the next append goes under the new root")
		assert.Equal(t, "main-2", a["branch"])

		tips := map[string]any{}
		for _, b := range ok[[]obj](t, st, obj{"operation": "branches", "sessionId": "c"}) {
			tips[b["name"].(string)] = b["tip"]
		}
		assert.Len(t, tips, 2)
		assert.Equal(t, a["id"], tips["main-2"])
		assert.NotNil(t, tips["main"], "the first message's branch keeps its tip")

		saved := snapshot(t, st, "c")
		other := testStore(t)
		ok[obj](t, other, obj{"operation": "snapshot.load", "sessionId": "c", "snapshot": json.RawMessage(saved)})
		assert.JSONEq(t, saved, snapshot(t, other, "c"), "the forest saves and loads back")
	})

	t.Run("in an empty session it is a plain first append", func(t *testing.T) {
		st := testStore(t)
		ok[obj](t, st, obj{"operation": "create", "sessionId": "e"})
		n := ok[obj](t, st, obj{"operation": "append", "sessionId": "e", "message": user("hi"), "root": true})
		assert.Nil(t, n["parentId"])
		assert.Equal(t, "main", n["branch"])
	})

	t.Run("root: false is a plain append", func(t *testing.T) {
		st := chat(t)
		n := ok[obj](t, st, obj{"operation": "append", "sessionId": "c", "message": user("and back?"), "root": false})
		assert.NotNil(t, n["parentId"])
		assert.Equal(t, "main", n["branch"])
	})

	t.Run("bad requests change nothing", func(t *testing.T) {
		st := chat(t)
		before := snapshot(t, st, "c")
		msg := fails(t, st, obj{"operation": "append", "sessionId": "c", "message": user("x"), "root": true, "branch": "main"}, InvalidArgument)
		assert.Contains(t, msg, `"root" and "branch"`)
		msg = fails(t, st, obj{"operation": "append", "sessionId": "c", "message": user("x"), "root": "yes"}, InvalidArgument)
		assert.Contains(t, msg, `"root"`)
		fails(t, st, obj{"operation": "append", "sessionId": "c", "message": obj{"role": ""}, "root": true}, InvalidArgument)
		require.Equal(t, before, snapshot(t, st, "c"))
	})
}
