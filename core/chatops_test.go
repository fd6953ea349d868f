package core

import (
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatStore holds session "c": u1 (n0001) → a1 (n0002), then a1 edited:
// u1 → a2 (n0003) → u3 (n0004), the cursor at n0004; u1's children are
// n0002 and n0003.
func chatStore(t *testing.T) *Store {
	t.Helper()
	st := testStore(t)
	st.TrackChanges(true)
	ok[Status](t, st, `{"operation":"create","sessionId":"c","title":"Chat"}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"c","message":{"role":"user","content":"u1"}}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"c","message":{"role":"assistant","content":"a1"}}`)
	ok[Status](t, st, `{"operation":"jump","sessionId":"c","nodeId":"n0001"}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"c","message":{"role":"assistant","content":"a2"}}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"c","message":{"role":"user","content":"u3"}}`)
	st.DrainChanges(true)
	return st
}

func TestContextWithIdsPairsEachMessageWithItsNode(t *testing.T) {
	st := chatStore(t)
	plain := contextOf(t, st, "c")
	t.Run("the plain context has no ids", func(t *testing.T) {
		assert.NotContains(t, plain, "nodeIds")
		assert.Equal(t, plain, string(do(t, st, `{"operation":"context","sessionId":"c","ids":false}`).Value))
	})
	t.Run("with ids every message has its node id and its siblings", func(t *testing.T) {
		got := ok[ContextIDs](t, st, `{"operation":"context","sessionId":"c","ids":true}`)
		assert.Equal(t, []string{"n0001", "n0003", "n0004"}, got.NodeIDs)
		assert.Equal(t, [][]string{{"n0001"}, {"n0002", "n0003"}, {"n0004"}}, got.Siblings)
		require.Len(t, got.Messages, 3)
		assert.Equal(t, `{"role":"assistant","content":"a2"}`, string(got.Messages[1]))
	})
	t.Run("the messages, cursor and state are the plain context's", func(t *testing.T) {
		raw := string(do(t, st, `{"operation":"context","sessionId":"c","ids":true}`).Value)
		assert.True(t, strings.HasPrefix(raw, plain[:len(plain)-1]+`,"nodeIds":["n0001","n0003","n0004"],"siblings":[`), raw)
	})
	t.Run("several roots are siblings", func(t *testing.T) {
		ok[Status](t, st, `{"operation":"create","sessionId":"f"}`)
		ok[obj](t, st, `{"operation":"append","sessionId":"f","message":{"role":"user","content":"r1"}}`)
		ok[Status](t, st, `{"operation":"branch","sessionId":"f","nodeId":"n0005","branch":"x"}`)
		snap := `{"version":1,"sessionId":"f","cursor":"r2","activeBranch":"main","nodes":[` +
			`{"id":"r1","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"1"}},` +
			`{"id":"r2","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"2"}}]}`
		ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"f","snapshot":`+snap+`}`)
		got := ok[ContextIDs](t, st, `{"operation":"context","sessionId":"f","ids":true}`)
		assert.Equal(t, [][]string{{"r1", "r2"}}, got.Siblings)
	})
	t.Run("ids that are not a boolean are refused", func(t *testing.T) {
		msg := fails(t, st, `{"operation":"context","sessionId":"c","ids":"yes"}`, InvalidArgument)
		assert.Equal(t, `field "ids" must be true or false`, msg)
	})
}

func TestLeafAndSwitch(t *testing.T) {
	st := chatStore(t)
	leaf := func(req string) string {
		l := ok[Leaf](t, st, req)
		if l.Leaf == nil {
			return "<nil>"
		}
		return *l.Leaf
	}
	t.Run("the newest leaf under a node", func(t *testing.T) {
		assert.Equal(t, "n0004", leaf(`{"operation":"leaf","sessionId":"c","nodeId":"n0001"}`))
		assert.Equal(t, "n0002", leaf(`{"operation":"leaf","sessionId":"c","nodeId":"n0002"}`), "a leaf is its own newest leaf")
		assert.Equal(t, "n0004", leaf(`{"operation":"leaf","sessionId":"c"}`), "of the whole session")
		fails(t, st, `{"operation":"leaf","sessionId":"c","nodeId":"zz"}`, NodeNotFound)
	})
	t.Run("switch to a node goes to its newest leaf", func(t *testing.T) {
		s := ok[Status](t, st, `{"operation":"switch","sessionId":"c","nodeId":"n0002"}`)
		assert.Equal(t, "n0002", *s.Cursor)
		assert.Equal(t, "main", s.ActiveBranch)
		s = ok[Status](t, st, `{"operation":"switch","sessionId":"c","nodeId":"n0001"}`)
		assert.Equal(t, "n0004", *s.Cursor)
		assert.Equal(t, "main-2", s.ActiveBranch)
		assert.Contains(t, string(st.DrainChanges(false)), `"operation":"switch"`)
	})
	t.Run("switch to a branch goes to its tip", func(t *testing.T) {
		s := ok[Status](t, st, `{"operation":"switch","sessionId":"c","branch":"main"}`)
		assert.Equal(t, "n0002", *s.Cursor)
		assert.Equal(t, "main", s.ActiveBranch)
	})
	t.Run("switch refuses what it cannot do and changes nothing", func(t *testing.T) {
		before := snapshot(t, st, "c")
		for req, code := range map[string]Code{
			`{"operation":"switch","sessionId":"c"}`:                               InvalidArgument,
			`{"operation":"switch","sessionId":"c","nodeId":"n0001","branch":"x"}`: InvalidArgument,
			`{"operation":"switch","sessionId":"c","branch":"nope"}`:               NotFound,
			`{"operation":"switch","sessionId":"c","nodeId":"nope"}`:               NodeNotFound,
			`{"operation":"switch","sessionId":"zz","branch":"main"}`:              SessionNotFound,
		} {
			fails(t, st, req, code)
		}
		assert.Equal(t, before, snapshot(t, st, "c"))
	})
}

func TestRenameAppendsATitleRecord(t *testing.T) {
	st := chatStore(t)
	nodes := func() string {
		s := snapshot(t, st, "c")
		return s[strings.Index(s, `"nodes":`):strings.Index(s, `]`)]
	}
	before := nodes()
	updated := ok[Status](t, st, `{"operation":"session","sessionId":"c"}`).UpdatedAt
	s := ok[Status](t, st, `{"operation":"rename","sessionId":"c","title":"Trip to Lyon"}`)
	ok[Status](t, st, `{"operation":"rename","sessionId":"c","title":"Lyon, day 2"}`)
	t.Run("the session keeps its updatedAt: a title is not activity", func(t *testing.T) {
		assert.NotEmpty(t, updated)
		assert.Equal(t, updated, s.UpdatedAt)
		assert.Equal(t, updated, ok[[]SessionSummary](t, st, `{"operation":"sessions"}`)[0].UpdatedAt)
	})
	t.Run("the newest title is shown everywhere", func(t *testing.T) {
		assert.Equal(t, "Trip to Lyon", s.Title)
		assert.Equal(t, "Lyon, day 2", ok[Status](t, st, `{"operation":"session","sessionId":"c"}`).Title)
		assert.Equal(t, "Lyon, day 2", ok[[]SessionSummary](t, st, `{"operation":"sessions"}`)[0].Title)
	})
	t.Run("no node is added or changed, the cursor stays", func(t *testing.T) {
		assert.Equal(t, before, nodes())
		assert.Equal(t, "n0004", *ok[Status](t, st, `{"operation":"session","sessionId":"c"}`).Cursor)
	})
	t.Run("the records are drained as annotations with the new title in the meta", func(t *testing.T) {
		d := string(st.DrainChanges(true))
		assert.Contains(t, d, `"operation":"rename","reset":false,"from":4,"count":0,"annotationFrom":0,"annotationCount":2`)
		assert.Contains(t, d, `"title":"Lyon, day 2","cursor":"n0004"`)
		assert.Contains(t, d, `{"kind":"title","nodeId":null,"title":"Trip to Lyon","timestamp":"2026-11-29T12:00:00.011Z"}`+"\n")
	})
	t.Run("a snapshot carries them and loads back byte for byte", func(t *testing.T) {
		snap := snapshot(t, st, "c")
		assert.Contains(t, snap, `"title":"Lyon, day 2"`)
		assert.Contains(t, snap, `"annotations":[{"kind":"title","nodeId":null,"title":"Trip to Lyon",`)
		st2 := testStore(t)
		ok[Status](t, st2, `{"operation":"snapshot.load","sessionId":"c","snapshot":`+snap+`}`)
		assert.Equal(t, snap, snapshot(t, st2, "c"))
		restored := strings.Replace(snap, `"title":"Lyon, day 2",`, "", 1) // as IndexedDB's records give it
		st3 := testStore(t)
		assert.Equal(t, "Lyon, day 2", ok[Status](t, st3, `{"operation":"restore","snapshot":`+restored+`}`).Title)
	})
	t.Run("bad titles are refused and change nothing", func(t *testing.T) {
		snap := snapshot(t, st, "c")
		fails(t, st, `{"operation":"rename","sessionId":"c"}`, InvalidArgument)
		fails(t, st, `{"operation":"rename","sessionId":"c","title":7}`, InvalidArgument)
		fails(t, st, `{"operation":"rename","sessionId":"c","title":"a\u0007b"}`, InvalidArgument)
		fails(t, st, `{"operation":"rename","sessionId":"c","title":"`+strings.Repeat("x", MaxTitleLength+1)+`"}`, InvalidArgument)
		fails(t, st, `{"operation":"rename","sessionId":"zz","title":"x"}`, SessionNotFound)
		assert.Equal(t, snap, snapshot(t, st, "c"))
	})
	t.Run("an empty title clears it", func(t *testing.T) {
		assert.Equal(t, "", ok[Status](t, st, `{"operation":"rename","sessionId":"c","title":""}`).Title)
	})
	t.Run("a title record must name no node", func(t *testing.T) {
		snap := `{"version":1,"sessionId":"t","cursor":null,"activeBranch":"main","nodes":[],"annotations":[{"kind":"title","nodeId":"x","title":"T","timestamp":"2026-11-29T12:00:00.000Z"}]}`
		msg := fails(t, st, `{"operation":"snapshot.load","sessionId":"t","snapshot":`+snap+`}`, InvalidSnapshot)
		assert.Equal(t, `snapshot: annotations[0] needs "nodeId": null (a title names the session, not a node)`, msg)
	})
}

func TestAppendManyAppendsAChainInOneCall(t *testing.T) {
	st := chatStore(t)
	t.Run("the messages go on as a chain under the cursor", func(t *testing.T) {
		got := ok[store.AppendMany](t, st, `{"operation":"append.many","sessionId":"c","messages":[{"role":"assistant","content":"a3"},{"role":"user","content":"u4"}]}`)
		assert.Equal(t, []string{"n0005", "n0006"}, got.NodeIDs)
		assert.Equal(t, "n0006", *got.Session.Cursor)
		node := ok[Node](t, st, `{"operation":"node","sessionId":"c","nodeId":"n0006"}`)
		assert.Equal(t, "n0005", node.ParentID)
		d := string(st.DrainChanges(true))
		assert.Equal(t, 1, strings.Count(d, `"operation":"append.many"`), "one change block")
		assert.Contains(t, d, `"from":4,"count":2`)
	})
	t.Run("create makes the session, for a migration", func(t *testing.T) {
		got := ok[store.AppendMany](t, st, `{"operation":"append.many","sessionId":"old-1","create":true,"title":"Old chat","messages":[{"role":"system","content":"s"},{"role":"user","content":"u"},{"role":"assistant","content":"a"}]}`)
		assert.Equal(t, 3, got.Session.NodeCount)
		assert.Equal(t, "Old chat", got.Session.Title)
		assert.Equal(t, 3, got.Session.Depth)
		msg := fails(t, st, `{"operation":"append.many","sessionId":"old-1","create":true,"messages":[]}`, SessionAlreadyExists)
		assert.Equal(t, `session "old-1" already exists`, msg)
	})
	t.Run("a bad message anywhere changes nothing", func(t *testing.T) {
		snap, sessions := snapshot(t, st, "c"), string(st.Call([]byte(`{"operation":"sessions"}`)))
		st.DrainChanges(true)
		cases := []struct{ req, code, msg string }{
			{`{"operation":"append.many","sessionId":"c","messages":[{"role":"user","content":"ok"},{"role":"user","content":"ok"},{"content":"no role"}]}`,
				string(InvalidArgument), `messages[2].role`},
			{`{"operation":"append.many","sessionId":"c","messages":[]}`, string(InvalidArgument), `field "messages" must hold at least one message`},
			{`{"operation":"append.many","sessionId":"c","messages":{"role":"user"}}`, string(InvalidArgument), `field "messages" must be an array of chat messages`},
			{`{"operation":"append.many","sessionId":"c","title":"T","messages":[{"role":"user","content":"x"}]}`, string(InvalidArgument), `only for a session it creates`},
			{`{"operation":"append.many","sessionId":"new","create":true,"messages":[{"role":"user","content":"x"},7]}`, string(InvalidArgument), `messages[1]`},
			{`{"operation":"append.many","sessionId":"zz","messages":[{"role":"user","content":"x"}]}`, string(SessionNotFound), `session "zz" does not exist`},
			{`{"operation":"append.many","sessionId":"c","branch":"nope","messages":[{"role":"user","content":"x"}]}`, string(NotFound), `branch "nope"`},
		}
		for _, c := range cases {
			msg := fails(t, st, c.req, Code(c.code))
			assert.Contains(t, msg, c.msg)
		}
		assert.Equal(t, snap, snapshot(t, st, "c"))
		assert.Equal(t, sessions, string(st.Call([]byte(`{"operation":"sessions"}`))))
		assert.Empty(t, string(st.DrainChanges(true)))
	})
}

// A title create or append.many gives is one rename would take: at most
// 1000 characters without control characters. Nothing is made otherwise.
func TestCreateTakesATitleRenameWouldTake(t *testing.T) {
	st := testStore(t)
	long := strings.Repeat("é", MaxTitleLength)
	ok[Status](t, st, `{"operation":"create","sessionId":"a","title":"`+long+`"}`)
	for _, title := range []string{"a\\nb", "a\\u0000b", long + "x"} {
		for _, req := range []string{
			`{"operation":"create","sessionId":"b","title":"` + title + `"}`,
			`{"operation":"append.many","sessionId":"b","create":true,"title":"` + title + `","messages":[{"role":"user","content":"hi"}]}`,
		} {
			msg := fails(t, st, req, InvalidArgument)
			assert.Equal(t, `field "title" must be at most 1000 characters without control characters`, msg)
		}
	}
	assert.Len(t, ok[[]SessionSummary](t, st, `{"operation":"sessions"}`), 1, "no session made")
}

func TestTypedCreateTakesATitleRenameWouldTake(t *testing.T) {
	st := testStore(t)
	_, err := st.Create("b", "line one\nline two")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `field "title" must be at most 1000 characters without control characters`)
	assert.Empty(t, st.Sessions())
}
