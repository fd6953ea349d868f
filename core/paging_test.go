package core

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pagedStore returns opsStore's session "s" and a second session "t",
// with "s" paged out (a stub), and the restore request that brings "s"
// back (as the shim builds it from the stored records) and the sessions
// answer, taken before.
func pagedStore(t *testing.T) (st *Store, restore, sessions string) {
	t.Helper()
	st = opsStore(t)
	ok[Status](t, st, `{"operation":"create","sessionId":"t","title":"other"}`)
	st.DrainChanges(true)
	restore = restoreOf(t, st, "s")
	sessions = string(st.Call([]byte(`{"operation":"sessions"}`)))
	ok[obj](t, st, `{"operation":"page.out","sessionId":"s"}`)
	return st, restore, sessions
}

// restoreOf is the restore request the shim builds for session id as it
// is now.
func restoreOf(t *testing.T, st *Store, id string) string {
	s := ok[Status](t, st, obj{"operation": "session", "sessionId": id})
	req, err := json.Marshal(obj{"operation": "restore", "title": s.Title, "createdAt": s.CreatedAt, "updatedAt": s.UpdatedAt, "snapshot": json.RawMessage(snapshot(t, st, id))})
	require.NoError(t, err)
	return string(req)
}

func TestPagedOutSessionsAnswerSessionsAsBefore(t *testing.T) {
	st, _, sessions := pagedStore(t)
	assert.Equal(t, sessions, string(st.Call([]byte(`{"operation":"sessions"}`))), "a stub keeps its summary and its place")
	fails(t, st, `{"operation":"create","sessionId":"s"}`, SessionAlreadyExists)
	fails(t, st, `{"operation":"clone","sessionId":"t","newSessionId":"s"}`, SessionAlreadyExists)
	assert.Empty(t, ok[[]string](t, st, `{"operation":"page.faults"}`), "knowing an id is taken needs no nodes")
}

func TestCallsOnAPagedOutSessionFaultAndChangeNothing(t *testing.T) {
	for _, req := range []string{
		`{"operation":"context","sessionId":"s"}`,
		`{"operation":"append","sessionId":"s","message":{"role":"user","content":"x"}}`,
		`{"operation":"label","sessionId":"s","nodeId":"n0001","label":"l"}`,
		`{"operation":"search","query":"hello"}`,
		`{"operation":"command","line":"/tree list","sessionId":"s"}`,
		`{"operation":"fork","sessionId":"s","nodeId":"n0001"}`,
	} {
		t.Run(strings.SplitN(req, ",", 2)[0]+" faults on s", func(t *testing.T) {
			st, _, sessions := pagedStore(t)
			env := do(t, st, req)
			require.False(t, env.OK)
			assert.Equal(t, PagedOut, env.Error.Code, env.Error.Message)
			assert.Equal(t, []string{"s"}, ok[[]string](t, st, `{"operation":"page.faults"}`))
			assert.Empty(t, ok[[]string](t, st, `{"operation":"page.faults"}`), "page.faults forgets what it answered")
			assert.Equal(t, sessions, string(st.Call([]byte(`{"operation":"sessions"}`))))
			assert.Empty(t, string(st.DrainChanges(true)))
		})
	}
}

func TestARestoredStubAnswersAsIfItHadStayed(t *testing.T) {
	st := opsStore(t)
	snap := snapshot(t, st, "s")
	st, restore, sessions := pagedStore(t)
	ok[Status](t, st, restore)
	assert.Equal(t, snap, snapshot(t, st, "s"))
	assert.Equal(t, sessions, string(st.Call([]byte(`{"operation":"sessions"}`))), "the session is back in its place")
	ok[obj](t, st, `{"operation":"search","query":"hello"}`)
	assert.Equal(t, 0, st.s.Stubs)
}

func TestPageStubAddsAndUpdatesStubsOnly(t *testing.T) {
	st := opsStore(t)
	before := snapshot(t, st, "s")
	got := ok[map[string]int](t, st, obj{"operation": "page.stub", "sessions": []obj{
		{"sessionId": "p", "title": "paged", "createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-02T00:00:00.000Z", "nodeCount": 7, "cursor": "c7", "activeBranch": "main"},
		{"sessionId": "s", "title": "ignored", "nodeCount": 99},
	}})
	assert.Equal(t, 1, got["stubs"])
	assert.Equal(t, before, snapshot(t, st, "s"), "a session in memory is left as it is")
	ok[obj](t, st, obj{"operation": "page.stub", "sessions": []obj{{"sessionId": "p", "updatedAt": "2026-01-03T00:00:00.000Z", "nodeCount": 8}}})
	var list []SessionSummary
	require.NoError(t, json.Unmarshal(ok[RawMessage](t, st, `{"operation":"sessions"}`), &list))
	require.Len(t, list, 2)
	c := "c7"
	assert.Equal(t, SessionSummary{SessionID: "p", Title: "paged", NodeCount: 8, Cursor: &c, ActiveBranch: "main", UpdatedAt: "2026-01-03T00:00:00.000Z"}, list[0], // created before "s"
		"an update without cursor keeps the stub's cursor and title")
	fails(t, st, `{"operation":"page.stub","sessions":[{"nodeCount":1}]}`, InvalidArgument)
	ok[obj](t, st, `{"operation":"sync.forget","sessionId":"p"}`)
	assert.Equal(t, 0, st.s.Stubs, "a stub can be forgotten")
}

// TestPageStubMakesEachNewStubOnce: a list that names a new session twice
// makes one stub of it (the last entry's summary), beside the sessions the
// store already holds, and every stub answers as its own session.
func TestPageStubMakesEachNewStubOnce(t *testing.T) {
	st := opsStore(t)
	got := ok[map[string]int](t, st, obj{"operation": "page.stub", "sessions": []obj{
		{"sessionId": "p", "title": "first", "nodeCount": 1},
		{"sessionId": "q", "title": "q", "nodeCount": 2},
		{"sessionId": "p", "title": "second", "nodeCount": 3},
	}})
	assert.Equal(t, 2, got["stubs"])
	var list []SessionSummary
	require.NoError(t, json.Unmarshal(ok[RawMessage](t, st, `{"operation":"sessions"}`), &list))
	require.Len(t, list, 3)
	// In creation order: the stubs name no createdAt (""), so they come before "s".
	assert.Equal(t, []string{"p", "q", "s"}, []string{list[0].SessionID, list[1].SessionID, list[2].SessionID})
	assert.Equal(t, "second", list[0].Title)
	assert.Equal(t, 3, list[0].NodeCount)
	assert.Equal(t, "q", list[1].Title)
	assert.Equal(t, 2, list[1].NodeCount)
	fails(t, st, `{"operation":"context","sessionId":"q"}`, PagedOut)
	assert.Equal(t, []string{"q"}, ok[[]string](t, st, `{"operation":"page.faults"}`))
}

func TestPageOutRefusesASessionWithChangesNotDrained(t *testing.T) {
	st := opsStore(t)
	ok[obj](t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"x"}}`)
	fails(t, st, `{"operation":"page.out","sessionId":"s"}`, InvalidArgument)
	st.DrainChanges(true)
	ok[obj](t, st, `{"operation":"page.out","sessionId":"s"}`)
	ok[obj](t, st, `{"operation":"page.out","sessionId":"s"}`) // a stub stays one
	fails(t, st, `{"operation":"page.out","sessionId":"none"}`, SessionNotFound)
}

func TestAnImportIntoAPagedOutSessionFaultsBeforeItAddsAnything(t *testing.T) {
	st := testStore(t)
	st.TrackChanges(true)
	data := `{"version":1,"sessionId":"imp","cursor":"a","activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"hi"}}]}`
	ok[obj](t, st, obj{"operation": "import", "data": data})
	st.DrainChanges(true)
	restore := restoreOf(t, st, "imp")
	ok[obj](t, st, `{"operation":"page.out","sessionId":"imp"}`)
	fails(t, st, obj{"operation": "import", "data": data}, PagedOut)
	assert.Equal(t, []string{"imp"}, ok[[]string](t, st, `{"operation":"page.faults"}`))
	assert.Empty(t, string(st.DrainChanges(true)))

	im := NewImports(st)
	job, _, err := im.Start([]byte(data), "auto")
	require.Nil(t, err)
	_, found, ferr := im.Finish(job)
	require.True(t, found)
	require.NotNil(t, ferr)
	assert.Equal(t, PagedOut, ferr.Code)
	ok[Status](t, st, restore)
	res, found, ferr := im.Finish(job)
	require.True(t, found, "the job waits for the session to be loaded")
	require.Nil(t, ferr)
	assert.True(t, res.Sessions[0].Existing)
	assert.Equal(t, 0, res.Sessions[0].Added)
}

// TestReadStubsTakesEachMemberOfItsType reads page.stub's list with its
// narrow reader: every member of its type, null where a member may be
// null, unknown members ignored, and any other type refused.
func TestReadStubsTakesEachMemberOfItsType(t *testing.T) {
	readStubs := func(raw []byte) ([]store.StubEntry, bool) { return store.ReadStubEntries(raw) }
	list, ok := readStubs([]byte(`[{"sessionId":"a","title":null,"createdAt":"c","updatedAt":"u","nodeCount":12,"cursor":"n\u00e9","activeBranch":"main","tool":"codex","project":"/p","source":{"sessionId":"b","nodeId":null,"via":"fork"},"later":{"x":[1]}},{"sessionId":"b","title":"T","tool":null}]`))
	require.True(t, ok)
	require.Len(t, list, 2)
	a, b := list[0], list[1]
	assert.Equal(t, "a", a.SessionID)
	assert.Zero(t, a.Has&store.HasTitle, "a null title keeps the stub's")
	assert.Equal(t, []string{"c", "u", "codex", "/p"}, []string{a.CreatedAt, a.UpdatedAt, a.Tool, a.Project})
	assert.Equal(t, 12, a.NodeCount)
	assert.NotZero(t, a.Has&store.HasCursor)
	assert.Equal(t, "né", a.Cursor)
	require.NotNil(t, a.Source)
	assert.Equal(t, tree.StubSource{SessionID: "b", Via: "fork"}, *a.Source)
	assert.NotZero(t, b.Has&store.HasTitle)
	assert.Equal(t, "T", b.Title)
	assert.Equal(t, "", b.Tool)
	assert.Zero(t, b.Has&store.HasCursor)
	assert.Nil(t, b.Source)

	for _, bad := range []string{
		`{"sessionId":"a"}`,
		`[{"sessionId":1}]`,
		`[{"sessionId":"a","nodeCount":1.5}]`,
		`[{"sessionId":"a","nodeCount":"3"}]`,
		`[{"sessionId":"a","cursor":3}]`,
		`[{"sessionId":"a","source":"b"}]`,
		`[{"sessionId":"a"}] x`,
		`[{"sessionId":"a",}]`,
	} {
		_, ok := readStubs([]byte(bad))
		assert.False(t, ok, bad)
	}
}

// TestAFilteredSearchThatWouldLoadPastTheBudgetIsRefused: a search across
// every session filtered by role loads every paged-out one at once; when
// their nodes would pass the memory budget it is refused (INVALID_ARGUMENT
// naming the sessions, nodes, bytes and budget, no fault recorded), and
// one within a session still answers; under the budget it faults as
// before. Unfiltered, it faults on them all whatever their size (the shim
// reads them a batch at a time, Pager.indexThrough) and makes the index
// their documents stay in as they are paged out again.
func TestAFilteredSearchThatWouldLoadPastTheBudgetIsRefused(t *testing.T) {
	inUse := int64(1 << 20)
	st := New(Options{MemoryBudget: 64 << 20, MemoryInUse: func() int64 { return inUse }})
	ok[map[string]int](t, st, obj{"operation": "page.stub", "sessions": []obj{
		{"sessionId": "a", "nodeCount": 20000}, {"sessionId": "b", "nodeCount": 20000},
	}})
	msg := fails(t, st, `{"operation":"search","query":"hello","roles":["user"]}`, InvalidArgument)
	assert.Equal(t, "a search across every session filtered by branch or role is refused: it would load the 2 sessions not in memory (40000 nodes) at once, about 81920000 bytes of memory, and with the 1048576 bytes in use that passes the memory budget of 67108864 bytes (init option memoryBudget); search without the filter, or within one session (field \"sessionId\"); nothing was changed", msg)
	assert.Empty(t, ok[[]string](t, st, `{"operation":"page.faults"}`), "nothing to load")
	assert.Equal(t, PagedOut, do(t, st, `{"operation":"search","query":"hello","sessionId":"a"}`).Error.Code, "within one session it loads that one")
	ok[[]string](t, st, `{"operation":"page.faults"}`)

	assert.Nil(t, st.s.Index.Docs, "no index before a search across every session")
	assert.Equal(t, PagedOut, do(t, st, `{"operation":"search","query":"hello"}`).Error.Code, "unfiltered, it faults whatever the size")
	assert.Equal(t, []string{"a", "b"}, ok[[]string](t, st, `{"operation":"page.faults"}`))
	assert.NotNil(t, st.s.Index.Docs, "the index their documents stay in")

	small := New(Options{MemoryBudget: 64 << 20, MemoryInUse: func() int64 { return inUse }})
	ok[map[string]int](t, small, obj{"operation": "page.stub", "sessions": []obj{{"sessionId": "a", "nodeCount": 100}}})
	assert.Equal(t, PagedOut, do(t, small, `{"operation":"search","query":"hello","roles":["user"]}`).Error.Code)
	assert.Equal(t, []string{"a"}, ok[[]string](t, small, `{"operation":"page.faults"}`))
}

func TestAFolderImportIntoAPagedOutSessionFaultsBeforeItAddsAnything(t *testing.T) {
	st := testStore(t)
	st.TrackChanges(true)
	mustImportFiles(t, st, folderFiles(t, "cline"))
	st.DrainChanges(true)
	id := "1733000000000"
	before := ok[Status](t, st, obj{"operation": "session", "sessionId": id}).NodeCount
	restore := restoreOf(t, st, id)
	ok[obj](t, st, obj{"operation": "page.out", "sessionId": id})
	// The grown task folder, and a file of a session not here (first in the folder's order).
	grown := append(folderFiles(t, "lobechat")[:1], folderFiles(t, "cline-grown")...)
	_, err := st.ImportFiles(grown)
	require.NotNil(t, err, "the grown task reaches a paged-out session")
	assert.Equal(t, PagedOut, err.Code, err.Message)
	assert.Equal(t, []string{id}, ok[[]string](t, st, `{"operation":"page.faults"}`))
	assert.Empty(t, string(st.DrainChanges(true)), "nothing was added, not even the other file's session")

	ok[Status](t, st, restore)
	res := mustImportFiles(t, st, folderFiles(t, "lobechat")[:1])
	require.NotEmpty(t, res.Sessions)
	res = mustImportFiles(t, st, grown)
	var task *FileSession
	for i := range res.Sessions {
		if res.Sessions[i].SessionID == id {
			task = &res.Sessions[i]
		}
	}
	require.NotNil(t, task, "the grown task is in the report")
	assert.True(t, task.Existing)
	assert.Positive(t, task.Added)
	assert.Greater(t, ok[Status](t, st, obj{"operation": "session", "sessionId": id}).NodeCount, before)
	for _, f := range res.Files {
		assert.True(t, f.Tool != "" || f.Skipped != "", "file %q says what became of it", f.Path)
	}
}

// sessionRequests holds, for every public operation that names a session
// (a "sessionId" field), a request on opsStore's session "s" that succeeds
// there (TestEveryOperationOnAPagedOutSessionAnswersAsIfItHadStayed).
var sessionRequests = map[string]string{
	"append":         `{"operation":"append","sessionId":"s","message":{"role":"user","content":"more"}}`,
	"append.many":    `{"operation":"append.many","sessionId":"s","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}`,
	"branch":         `{"operation":"branch","sessionId":"s","nodeId":"n0002","branch":"other"}`,
	"branch.summary": `{"operation":"branch.summary","sessionId":"s","nodeId":"n0002","branch":"sum","summary":"so far"}`,
	"clone":          `{"operation":"clone","sessionId":"s","newSessionId":"c"}`,
	"command":        `{"operation":"command","line":"/tree list","sessionId":"s"}`,
	"create":         `{"operation":"create","sessionId":"new"}`,
	"delete":         `{"operation":"delete","sessionId":"s"}`,
	"fork":           `{"operation":"fork","sessionId":"s","nodeId":"n0002","newSessionId":"f"}`,
	"hide":           `{"operation":"hide","sessionId":"s","nodeId":"n0002"}`,
	"jump":           `{"operation":"jump","sessionId":"s","nodeId":"n0002"}`,
	"label":          `{"operation":"label","sessionId":"s","nodeId":"n0001","label":"L"}`,
	"prefer":         `{"operation":"prefer","sessionId":"s","nodeId":"n0002"}`,
	"remote.fork":    `{"operation":"remote.fork","sessionId":"s","nodeId":"n0002","branch":"rf"}`,
	"remote.jump":    `{"operation":"remote.jump","sessionId":"s","nodeId":"n0002"}`,
	"rename":         `{"operation":"rename","sessionId":"s","title":"Renamed"}`,
	"search":         `{"operation":"search","query":"hello","sessionId":"s"}`,
	"snapshot.load":  `{"operation":"snapshot.load","sessionId":"s","snapshot":{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}}`,
	"switch":         `{"operation":"switch","sessionId":"s","branch":"side"}`,
	"trash.empty":    `{"operation":"trash.empty","sessionId":"s"}`,
	"trash.restore":  `{"operation":"trash.restore","sessionId":"s"}`,
}

// TestEveryOperationOnAPagedOutSessionAnswersAsIfItHadStayed runs one
// request of every public operation naming a session on "s" paged out,
// loading it as the shim does when the answer is PAGED_OUT (the restore
// request, then the same request again), and on "s" kept: the answers,
// the sessions list and the snapshot of "s" after are the same. An
// operation that wrote into the stub instead of faulting (append.many did:
// a panic on the stub's nil maps) fails here.
func TestEveryOperationOnAPagedOutSessionAnswersAsIfItHadStayed(t *testing.T) {
	for _, info := range OperationInfos() {
		if !info.Public || !slices.Contains(operations[info.Name].fields, "sessionId") {
			continue
		}
		req, found := sessionRequests[info.Name]
		if !found {
			req, found = readOnlyRequests[info.Name]
		}
		if !assert.True(t, found, "no request on session s for operation %q", info.Name) {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			kept := opsStore(t)
			ok[Status](t, kept, `{"operation":"create","sessionId":"t","title":"other"}`)
			paged, restore, _ := pagedStore(t)
			// A call as the shim makes it: on PAGED_OUT, "s" is loaded and the call made again.
			call := func(req string) string {
				got := string(paged.Call([]byte(req)))
				if !strings.Contains(got, `"code":"PAGED_OUT"`) {
					return got
				}
				assert.Equal(t, []string{"s"}, ok[[]string](t, paged, `{"operation":"page.faults"}`))
				ok[Status](t, paged, restore)
				return string(paged.Call([]byte(req)))
			}
			if info.Name == "trash.empty" || info.Name == "trash.restore" {
				ok[obj](t, kept, `{"operation":"delete","sessionId":"s"}`)
				require.Contains(t, call(`{"operation":"delete","sessionId":"s"}`), `{"ok":true`)
			}
			want := string(kept.Call([]byte(req)))
			require.Contains(t, want, `{"ok":true`, req)
			assert.Equal(t, normal(want), normal(call(req)), req)
			assert.Equal(t, normal(sessionsAnswer(t, kept)), normal(sessionsAnswer(t, paged)))
			save := `{"operation":"snapshot.save","sessionId":"s"}`
			assert.Equal(t, normal(string(kept.Call([]byte(save)))), normal(call(save)))
		})
	}
}

// sessionsAnswer is the store's sessions answer.
func sessionsAnswer(t *testing.T, st *Store) string {
	return string(st.Call([]byte(`{"operation":"sessions"}`)))
}

// normal replaces every timestamp in text by "T" (the paged store made
// more calls before, so its clock is further on) and a map's revision,
// an opaque counter of the store's changes, by "R".
func normal(text string) string {
	return revisionPattern.ReplaceAllString(timestampPattern.ReplaceAllString(text, "T"), `"revision":"R"`)
}

var (
	timestampPattern = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`)
	revisionPattern  = regexp.MustCompile(`"revision":"[^"]*"`)
)
