package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDeleteMovesASessionToTheTrash(t *testing.T) {
	st := chatStore(t)
	ok[Status](t, st, `{"operation":"create","sessionId":"keep"}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"keep","message":{"role":"user","content":"u1 kept"}}`)
	st.DrainChanges(true)
	snap := snapshot(t, st, "c")
	item := ok[TrashItem](t, st, `{"operation":"delete","sessionId":"c"}`)
	t.Run("the value names what went to the trash", func(t *testing.T) {
		assert.Equal(t, TrashItem{SessionID: "c", Title: "Chat", NodeCount: 4, DeletedAt: item.DeletedAt, UpdatedAt: "2026-11-29T12:00:00.010Z"}, item)
		assert.NotEmpty(t, item.DeletedAt)
	})
	t.Run("the session is gone from every operation and from search", func(t *testing.T) {
		sessions := ok[[]SessionSummary](t, st, `{"operation":"sessions"}`)
		require.Len(t, sessions, 1)
		assert.Equal(t, "keep", sessions[0].SessionID)
		fails(t, st, `{"operation":"context","sessionId":"c"}`, SessionNotFound)
		fails(t, st, `{"operation":"search","query":"u1","sessionId":"c"}`, SessionNotFound)
		hits := ok[SearchResult](t, st, `{"operation":"search","query":"u1"}`)
		for _, h := range hits.Hits {
			assert.Equal(t, "keep", h.SessionID)
		}
		assert.Equal(t, 1, hits.Total)
	})
	t.Run("its change block keeps the records and says deletedAt", func(t *testing.T) {
		d := string(st.DrainChanges(true))
		assert.Equal(t, `{"sessionId":"c","operation":"delete","reset":false,"from":4,"count":0,"annotationFrom":0,"annotationCount":0,"meta":{"sessionId":"c","title":"Chat","cursor":"n0004","activeBranch":"main-2","createdAt":"2026-11-29T12:00:00.001Z","updatedAt":"2026-11-29T12:00:00.010Z","nodeCount":4,"annotationCount":0,"deletedAt":"`+item.DeletedAt+`"}}`+"\n", d)
	})
	t.Run("its id is not free while it is in the trash", func(t *testing.T) {
		msg := fails(t, st, `{"operation":"create","sessionId":"c"}`, SessionAlreadyExists)
		assert.Equal(t, `session "c" is in the trash; restore it or empty the trash first`, msg)
		fails(t, st, `{"operation":"clone","sessionId":"keep","newSessionId":"c"}`, SessionAlreadyExists)
		fails(t, st, `{"operation":"snapshot.load","sessionId":"c","snapshot":`+snap+`}`, SessionAlreadyExists)
		fails(t, st, `{"operation":"append.many","sessionId":"c","create":true,"messages":[]}`, SessionAlreadyExists)
		fails(t, st, `{"operation":"delete","sessionId":"c"}`, SessionNotFound)
	})
	t.Run("the trash lists it", func(t *testing.T) {
		assert.Equal(t, []TrashItem{item}, ok[[]TrashItem](t, st, `{"operation":"trash.list"}`))
	})
	t.Run("restore brings it back whole and searchable", func(t *testing.T) {
		s := ok[Status](t, st, `{"operation":"trash.restore","sessionId":"c"}`)
		assert.Equal(t, "n0004", *s.Cursor)
		assert.Equal(t, snap, snapshot(t, st, "c"))
		assert.Equal(t, 2, ok[SearchResult](t, st, `{"operation":"search","query":"u1"}`).Total, "each node once")
		assert.Empty(t, ok[[]TrashItem](t, st, `{"operation":"trash.list"}`))
		d := string(st.DrainChanges(true))
		assert.Contains(t, d, `"operation":"trash.restore"`)
		assert.NotContains(t, d, "deletedAt")
		fails(t, st, `{"operation":"trash.restore","sessionId":"c"}`, SessionNotFound)
	})
}

func TestEmptyingTheTrashErasesForGood(t *testing.T) {
	st := chatStore(t)
	ok[Status](t, st, `{"operation":"create","sessionId":"d"}`)
	ok[TrashItem](t, st, `{"operation":"delete","sessionId":"c"}`)
	ok[TrashItem](t, st, `{"operation":"delete","sessionId":"d"}`)
	st.DrainChanges(true)
	t.Run("one session", func(t *testing.T) {
		assert.Equal(t, Erased{Erased: []string{"c"}}, ok[Erased](t, st, `{"operation":"trash.empty","sessionId":"c"}`))
		assert.Equal(t, `{"sessionId":"c","operation":"trash.empty","erased":true,"reset":false,"from":0,"count":0,"annotationFrom":0,"annotationCount":0,"meta":null}`+"\n", string(st.DrainChanges(true)))
		fails(t, st, `{"operation":"trash.restore","sessionId":"c"}`, SessionNotFound)
		fails(t, st, `{"operation":"trash.empty","sessionId":"c"}`, SessionNotFound)
	})
	t.Run("the id is free again", func(t *testing.T) {
		ok[Status](t, st, `{"operation":"create","sessionId":"c"}`)
	})
	t.Run("a null sessionId is refused, not read as every session", func(t *testing.T) {
		st.DrainChanges(true)
		msg := fails(t, st, `{"operation":"trash.empty","sessionId":null}`, InvalidArgument)
		assert.Contains(t, msg, `field "sessionId" of operation "trash.empty" is null`)
		assert.Empty(t, string(st.DrainChanges(true)), "nothing erased")
		assert.Len(t, ok[[]TrashItem](t, st, `{"operation":"trash.list"}`), 1, "d is still in the trash")
	})
	t.Run("every session", func(t *testing.T) {
		assert.Equal(t, Erased{Erased: []string{"d"}}, ok[Erased](t, st, `{"operation":"trash.empty"}`))
		assert.Equal(t, Erased{Erased: []string{}}, ok[Erased](t, st, `{"operation":"trash.empty"}`))
	})
	t.Run("delete with permanent erases a live session at once", func(t *testing.T) {
		st.DrainChanges(true)
		assert.Equal(t, Erased{Erased: []string{"c"}}, ok[Erased](t, st, `{"operation":"delete","sessionId":"c","permanent":true}`))
		assert.Empty(t, ok[[]TrashItem](t, st, `{"operation":"trash.list"}`))
		d := string(st.DrainChanges(true))
		assert.True(t, strings.HasPrefix(d, `{"sessionId":"c","operation":"delete","erased":true`), d)
		fails(t, st, `{"operation":"delete","sessionId":"c","permanent":1}`, SessionNotFound)
	})
}

func TestAnEraseThenACreateInOneDrainReplacesTheRecords(t *testing.T) {
	st := chatStore(t)
	ok[Erased](t, st, `{"operation":"delete","sessionId":"c","permanent":true}`)
	ok[Status](t, st, `{"operation":"create","sessionId":"c"}`)
	d := string(st.DrainChanges(true))
	assert.True(t, strings.HasPrefix(d, `{"sessionId":"c","operation":"create","reset":true,"from":0,"count":0`), d)
}

func TestTrashedSessionsComeBackFromStorage(t *testing.T) {
	st := chatStore(t)
	snap := snapshot(t, st, "c")
	t.Run("restore with deletedAt puts a session straight into the trash", func(t *testing.T) {
		st2 := testStore(t)
		item := ok[TrashItem](t, st2, `{"operation":"restore","deletedAt":"2026-11-30T00:00:00.000Z","snapshot":`+snap+`}`)
		assert.Equal(t, "2026-11-30T00:00:00.000Z", item.DeletedAt)
		assert.Empty(t, ok[[]SessionSummary](t, st2, `{"operation":"sessions"}`))
		ok[Status](t, st2, `{"operation":"trash.restore","sessionId":"c"}`)
		assert.Equal(t, snap, snapshot(t, st2, "c"))
	})
	t.Run("sync.trash follows another tab both ways without a change", func(t *testing.T) {
		require.True(t, st.WarmSearch(-1), "the index is built")
		ok[obj](t, st, `{"operation":"sync.trash","sessionId":"c","deletedAt":"2026-11-30T00:00:00.000Z"}`)
		assert.Empty(t, ok[[]SessionSummary](t, st, `{"operation":"sessions"}`))
		ok[obj](t, st, `{"operation":"sync.trash","sessionId":"c","deletedAt":null}`)
		assert.Equal(t, snap, snapshot(t, st, "c"))
		require.True(t, st.WarmSearch(-1))
		assert.Equal(t, 1, ok[SearchResult](t, st, `{"operation":"search","query":"u3"}`).Total, "each node once")
		assert.Empty(t, string(st.DrainChanges(true)))
	})
	t.Run("sync.forget drops a trashed session", func(t *testing.T) {
		ok[obj](t, st, `{"operation":"sync.trash","sessionId":"c","deletedAt":"2026-11-30T00:00:00.000Z"}`)
		ok[obj](t, st, `{"operation":"sync.forget","sessionId":"c"}`)
		assert.Empty(t, ok[[]TrashItem](t, st, `{"operation":"trash.list"}`))
		ok[Status](t, st, `{"operation":"create","sessionId":"c"}`)
	})
}

func TestAnImportOfATrashedConversationIsSkipped(t *testing.T) {
	st := testStore(t)
	data := `[{"role":"user","content":"hello there"},{"role":"assistant","content":"hi"}]`
	first := ok[ImportResult](t, st, obj{"operation": "import", "data": data})
	require.Len(t, first.Sessions, 1)
	id := first.Sessions[0].SessionID
	ok[TrashItem](t, st, obj{"operation": "delete", "sessionId": id})
	before := ok[[]SessionSummary](t, st, `{"operation":"sessions"}`)

	t.Run("its only conversation: SESSION_ALREADY_EXISTS naming the trash, nothing made", func(t *testing.T) {
		msg := fails(t, st, obj{"operation": "import", "data": data}, SessionAlreadyExists)
		assert.Equal(t, `nothing imported: session "`+id+`" is in the trash; restore it (or empty the trash) to import it again`, msg)
		assert.Equal(t, before, ok[[]SessionSummary](t, st, `{"operation":"sessions"}`))
	})
	t.Run("beside another: the other imports, the trashed one is reported skipped", func(t *testing.T) {
		pi := `{"type":"session","version":3,"id":"p","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}` + "\n" +
			`{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"text","text":"q"}]}}` + "\n"
		res := mustImportFiles(t, st, []ImportFile{{Path: "a.json", Data: []byte(data)}, {Path: "p.jsonl", Data: []byte(pi)}})
		var made, files []string
		for _, s := range res.Sessions {
			made = append(made, s.SessionID)
		}
		for _, f := range res.Files {
			files = append(files, fmt.Sprintf("%s %d %s", f.Path, f.Sessions, f.Skipped))
		}
		assert.Equal(t, []string{"p"}, made)
		assert.Equal(t, []string{`a.json 0 nothing imported: session "` + id + `" is in the trash; restore it (or empty the trash) to import it again`, "p.jsonl 1 "}, files)
		assert.Len(t, ok[[]TrashItem](t, st, `{"operation":"trash.list"}`), 1, "still in the trash, and no copy beside it")
	})
	t.Run("one of a ChatGPT export's conversations: the other imports, it is reported skipped", func(t *testing.T) {
		st := testStore(t)
		export := fixture(t, "librechat/chatgpt-modern-export.json")
		all := mustImport(t, st, export, "auto")
		require.Len(t, all.Sessions, 2)
		gone, kept := all.Sessions[0].SessionID, all.Sessions[1].SessionID
		ok[TrashItem](t, st, obj{"operation": "delete", "sessionId": gone})
		skippedBefore := len(all.Skipped)
		again := mustImport(t, st, export, "auto")
		require.Len(t, again.Sessions, 1)
		assert.Equal(t, kept, again.Sessions[0].SessionID)
		assert.Equal(t, 0, again.Sessions[0].Added)
		require.Len(t, again.Skipped, skippedBefore+1)
		last := again.Skipped[len(again.Skipped)-1]
		assert.Equal(t, gone, last.SessionID)
		assert.Contains(t, last.Reason, "is in the trash")
		assert.Len(t, ok[[]SessionSummary](t, st, `{"operation":"sessions"}`), 1, "no copy of it beside the other")
	})
	t.Run("restored, the same data adds nothing", func(t *testing.T) {
		ok[Status](t, st, obj{"operation": "trash.restore", "sessionId": id})
		again := ok[ImportResult](t, st, obj{"operation": "import", "data": data})
		require.Len(t, again.Sessions, 1)
		assert.Equal(t, id, again.Sessions[0].SessionID)
		assert.Equal(t, 0, again.Sessions[0].Added)
	})
}
