package core

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryOperationRefusesInvisibleIdsAndBranchNames(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": "hi"}})
	before, snap := string(do(t, st, `{"operation":"sessions"}`).Value), snapshot(t, st, "s")
	bad := map[string]string{"\u200b": "is only invisible characters or white space", "a\u2028b": "holds U+2028, a line or paragraph separator", " \ufeff": "is only invisible characters or white space"}
	for value, problem := range bad {
		cases := []struct {
			name, field string
			req         obj
		}{
			{"create", "sessionId", obj{"operation": "create", "sessionId": value}},
			{"append", "sessionId", obj{"operation": "append", "sessionId": value, "message": obj{"role": "user", "content": "x"}}},
			{"append to a branch", "branch", obj{"operation": "append", "sessionId": "s", "branch": value, "message": obj{"role": "user", "content": "x"}}},
			{"context", "sessionId", obj{"operation": "context", "sessionId": value}},
			{"snapshot.load", "sessionId", obj{"operation": "snapshot.load", "sessionId": value, "snapshot": obj{}}},
			{"jump", "nodeId", obj{"operation": "jump", "sessionId": "s", "nodeId": value}},
			{"label", "nodeId", obj{"operation": "label", "sessionId": "s", "nodeId": value, "label": "x"}},
			{"prefer", "nodeId", obj{"operation": "prefer", "sessionId": "s", "nodeId": value}},
			{"branch", "branch", obj{"operation": "branch", "sessionId": "s", "nodeId": "n0001", "branch": value}},
			{"branch at a bad node", "nodeId", obj{"operation": "branch", "sessionId": "s", "nodeId": value, "branch": "b"}},
			{"fork", "newSessionId", obj{"operation": "fork", "sessionId": "s", "nodeId": "n0001", "newSessionId": value}},
			{"clone", "newSessionId", obj{"operation": "clone", "sessionId": "s", "newSessionId": value}},
			{"diff", "from", obj{"operation": "diff", "sessionId": "s", "from": value, "to": "n0001"}},
			{"tree.rows around", "around", obj{"operation": "tree.rows", "sessionId": "s", "around": value, "limit": 5}},
			{"search in a branch", "branch", obj{"operation": "search", "query": "hi", "branch": value}},
		}
		for _, c := range cases {
			t.Run(c.name+" with "+strconv.QuoteToASCII(value), func(t *testing.T) {
				msg := fails(t, st, c.req, InvalidArgument)
				assert.True(t, strings.HasPrefix(msg, `field "`+c.field+`" `+problem+`: `), "message %q names field %q and %q", msg, c.field, problem)
			})
		}
	}
	t.Run("nothing was changed", func(t *testing.T) {
		assert.Equal(t, before, string(do(t, st, `{"operation":"sessions"}`).Value))
		assert.Equal(t, snap, snapshot(t, st, "s"))
	})
	t.Run("invisible characters beside visible ones are accepted", func(t *testing.T) {
		ok[Status](t, st, obj{"operation": "create", "sessionId": "👨\u200d👩\u200d👧"})
		ok[obj](t, st, obj{"operation": "branch", "sessionId": "s", "nodeId": "n0001", "branch": "می\u200cخواهم"})
	})
}

func TestTitlesLabelsAndSummariesRefuseALoneSurrogate(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "s", "title": "kept"})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": "hi"}})
	before, snap := string(do(t, st, `{"operation":"sessions"}`).Value), snapshot(t, st, "s")
	for field, req := range map[string]string{
		"title":   `{"operation":"rename","sessionId":"s","title":"T\ud800"}`,
		"label":   `{"operation":"label","sessionId":"s","nodeId":"n0001","label":"\udc00x"}`,
		"summary": `{"operation":"branch.summary","sessionId":"s","nodeId":"n0001","branch":"b","summary":"S\udc00T"}`,
		"line":    `{"operation":"command","sessionId":"s","line":"/tree label n0001 \ud800"}`,
	} {
		t.Run(field, func(t *testing.T) {
			msg := fails(t, st, req, InvalidArgument)
			assert.True(t, strings.HasPrefix(msg, `field "`+field+`" holds a lone UTF-16 surrogate`), msg)
		})
	}
	t.Run("a new session's title", func(t *testing.T) {
		fails(t, st, `{"operation":"create","sessionId":"t","title":"\ud83d"}`, InvalidArgument)
		fails(t, st, `{"operation":"append.many","sessionId":"t","create":true,"title":"\ud83d","messages":[{"role":"user","content":"x"}]}`, InvalidArgument)
	})
	t.Run("nothing was changed", func(t *testing.T) {
		assert.Equal(t, before, string(do(t, st, `{"operation":"sessions"}`).Value))
		assert.Equal(t, snap, snapshot(t, st, "s"))
	})
	t.Run("a surrogate pair is one character, and message content keeps a lone one", func(t *testing.T) {
		ok[obj](t, st, `{"operation":"rename","sessionId":"s","title":"\ud83d\ude00 trip"}`)
		assert.Equal(t, "😀 trip", ok[Status](t, st, obj{"operation": "session", "sessionId": "s"}).Title)
		ok[obj](t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"cut \ud83d"}}`)
		assert.Contains(t, snapshot(t, st, "s"), `"cut \ud83d"`)
	})
}

func TestSnapshotLoadChecksNamesLikeRequests(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": "hi"}})
	snap := snapshot(t, st, "s")
	for _, c := range []struct{ name, from, to, want string }{
		{"a branch of U+200B", `"main"`, `"\u200b"`, `snapshot: branch name "\u200b" is only invisible characters or white space`},
		{"a node id with U+2029", `"n0001"`, `"n\u20291"`, `snapshot: node id "n\u20291" holds U+2029, a line or paragraph separator`},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := strings.ReplaceAll(snap, c.from, c.to)
			require.NotEqual(t, snap, bad)
			msg := fails(t, st, `{"operation":"snapshot.load","sessionId":"s2","snapshot":`+strings.Replace(bad, `"sessionId":"s"`, `"sessionId":"s2"`, 1)+`}`, InvalidSnapshot)
			assert.Equal(t, c.want, msg)
		})
	}
}

func TestImportReplacesUnusableIdsWithDerivedOnes(t *testing.T) {
	st := testStore(t)
	data := `[{"id":"\u200b","title":"zw","mapping":{"a\u2028":{"id":"a\u2028","message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}},"parent":null,"children":["b"]},` +
		`"b":{"id":"b","message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["yo"]}},"parent":"a\u2028","children":[]}},"current_node":"b"}]`
	res := mustImport(t, st, []byte(data), "auto")
	require.Len(t, res.Sessions, 1, "warnings: %v", warningTexts(res))
	id := res.Sessions[0].SessionID
	assert.Regexp(t, `^import-[0-9a-f]{16}$`, id)
	assert.Equal(t, 2, res.Sessions[0].NodeCount)
	texts := warningTexts(res)
	assert.Contains(t, texts, `the conversation's id "\u200b" is only invisible characters or white space; it is imported as "`+id+`"`)
	found := false
	for _, w := range texts {
		found = found || strings.HasPrefix(w, `message id "a\u2028" holds U+2028, a line or paragraph separator; it is imported as "m-`)
	}
	assert.True(t, found, "a warning renames the message: %q", texts)
	ctx := ok[Context](t, st, obj{"operation": "context", "sessionId": id})
	assert.Len(t, ctx.Messages, 2, "the renamed message is still the parent")
	t.Run("importing again finds the same session", func(t *testing.T) {
		res, err := st.Import([]byte(data), "auto")
		require.Nil(t, err, "a second import adds nothing and says so (issue 16)")
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, id, res.Sessions[0].SessionID)
		assert.True(t, res.Sessions[0].Existing)
		assert.Equal(t, 0, res.Sessions[0].Added)
	})
}
