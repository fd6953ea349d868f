package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPanelService(t *testing.T) {
	st := testStore(t)
	seedSession(t, st, "demo")
	st.TrackChanges(true)

	t.Run("list answers the status and every row in one reply", func(t *testing.T) {
		v := ok[PanelView](t, st, `{"operation":"remote.list","sessionId":"demo"}`)
		assert.Equal(t, "n0003", *v.Session.Cursor)
		assert.Equal(t, 3, v.Session.NodeCount)
		require.Len(t, v.Tree.Rows, 3)
		assert.Equal(t, []string{"n0001"}, v.Tree.Roots)
		assert.True(t, v.Tree.Rows[2].Cursor)
		assert.Equal(t, "n0001 user: Explore option A\n├─ n0002 assistant: Baseline answer  [main]\n└─ n0003 user: Explore option B  [option-b*]  ← cursor\n", v.Tree.Text)
		assert.Empty(t, st.DrainChanges(false), "reading records no change")
	})

	t.Run("a field missing is named with the operation the request named", func(t *testing.T) {
		for _, op := range []string{"remote.list", "remote.session", "remote.jump", "remote.fork"} {
			assert.Equal(t, `field "sessionId" is required for operation "`+op+`"`, fails(t, st, obj{"operation": op, "sessionId": nil}, InvalidArgument))
		}
		assert.Equal(t, `field "nodeId" is required for operation "remote.jump"`, fails(t, st, `{"operation":"remote.jump","sessionId":"demo"}`, InvalidArgument))
	})

	t.Run("jump answers the moved cursor path and records a jump", func(t *testing.T) {
		v := ok[PanelView](t, st, `{"operation":"remote.jump","sessionId":"demo","nodeId":"n0002"}`)
		assert.Equal(t, "n0002", *v.Session.Cursor)
		assert.Equal(t, []bool{true, true, false}, []bool{v.Tree.Rows[0].OnPath, v.Tree.Rows[1].OnPath, v.Tree.Rows[2].OnPath})
		assert.Contains(t, string(st.DrainChanges(false)), `"operation":"jump"`)
	})

	t.Run("fork answers the new session's view and records a fork", func(t *testing.T) {
		v := ok[PanelView](t, st, `{"operation":"remote.fork","sessionId":"demo","nodeId":"n0001","branch":"side"}`)
		assert.NotEqual(t, "demo", v.Session.SessionID)
		assert.Equal(t, "side", v.Session.ActiveBranch)
		assert.Equal(t, 1, v.Session.NodeCount)
		assert.Len(t, v.Tree.Rows, 1)
		assert.Contains(t, string(st.DrainChanges(false)), `"operation":"fork"`)
	})

	t.Run("session answers the same view", func(t *testing.T) {
		assert.Equal(t, ok[PanelView](t, st, `{"operation":"remote.list","sessionId":"demo"}`), ok[PanelView](t, st, `{"operation":"remote.session","sessionId":"demo"}`))
	})

	t.Run("errors are those of the operation", func(t *testing.T) {
		assert.Equal(t, `node "zz" is not in session "demo"`, fails(t, st, `{"operation":"remote.jump","sessionId":"demo","nodeId":"zz"}`, NodeNotFound))
		assert.Equal(t, `session "nope" does not exist`, fails(t, st, `{"operation":"remote.list","sessionId":"nope"}`, SessionNotFound))
	})
}
