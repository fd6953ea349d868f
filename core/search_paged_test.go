package core

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pagedSearch runs a search on st as the JS shim does: while it faults
// (PAGED_OUT), the sessions page.faults names are restored from restores
// and it runs again. It returns the answer and the sessions it loaded.
func pagedSearch(t *testing.T, st *Store, query string, fields obj, restores map[string]string) (SearchResult, []string) {
	t.Helper()
	req := obj{"operation": "search", "query": query}
	for k, v := range fields {
		req[k] = v
	}
	var loaded []string
	for tries := 0; tries < 4; tries++ {
		env := do(t, st, req)
		if env.OK {
			var res SearchResult
			require.NoError(t, json.Unmarshal(env.Value, &res))
			return res, loaded
		}
		require.Equal(t, PagedOut, env.Error.Code, env.Error.Message)
		for _, id := range ok[[]string](t, st, `{"operation":"page.faults"}`) {
			ok[Status](t, st, restores[id])
			loaded = append(loaded, id)
		}
	}
	t.Fatalf("search(%q) still faults after 4 loads", query)
	return SearchResult{}, nil
}

// seedFruit fills st with four sessions of a few messages each.
func seedFruit(t testing.TB, st *Store) {
	seedTexts(t, st, "a", "an apple a day", "pears and plums in the orchard", "the damson jam")
	seedTexts(t, st, "b", "apple pie with cream", "a quince tree", "plums")
	seedTexts(t, st, "c", "the orchard gate", "greengage and apple", "medlar")
	seedTexts(t, st, "d", "nothing of fruit here", "apple", "walnut and apple cake")
}

// indexedFruit returns a store seeded by seedFruit, every session indexed,
// and the restore request of each session by id.
func indexedFruit(t *testing.T) (*Store, map[string]string) {
	st := testStore(t)
	seedFruit(t, st)
	restores := map[string]string{}
	for _, id := range []string{"a", "b", "c", "d"} {
		restores[id] = restoreOf(t, st, id)
	}
	require.True(t, st.WarmSearch(-1))
	return st, restores
}

// TestAPagedOutSessionKeepsItsSearchDocuments: a session paged out after
// the index holds it keeps its documents in the index, so a search across
// every session loads only the sessions whose text its answer shows (a
// snippet, the proximity of several words), and answers exactly as a
// store that never paged anything out.
func TestAPagedOutSessionKeepsItsSearchDocuments(t *testing.T) {
	whole := testStore(t)
	seedFruit(t, whole)
	require.True(t, whole.WarmSearch(-1))
	st, restores := indexedFruit(t)
	key := st.s.Index.Of[st.Session("b")].Key
	for _, id := range []string{"a", "b", "c", "d"} {
		ok[obj](t, st, obj{"operation": "page.out", "sessionId": id})
	}
	stub := st.Session("b")
	require.NotNil(t, stub.Paged)
	assert.Same(t, stub, st.s.Index.Owners[key].Session, "the stub holds the session's documents")
	assert.Equal(t, 12, st.s.Index.Docs.LiveDocs())

	for _, q := range []struct {
		query  string
		fields obj
		loads  []string
	}{
		{"quince", nil, []string{"b"}},
		{"medlar", nil, []string{"c"}},
		{"medlra", nil, nil}, // c is in memory since the query before
		{"nowhere", nil, nil},
		{"orchard plums", obj{"limit": 1}, []string{"a"}},
		{"apple", obj{"limit": 2}, []string{"d"}},
		{"apple", nil, nil},
		{"walnut", obj{"roles": []string{"user"}}, nil},
	} {
		want := runSearch(t, whole, q.query, q.fields)
		reused := st.s.Index.Docs.Reused()
		got, loaded := pagedSearch(t, st, q.query, q.fields, restores)
		assert.Equal(t, want, got, "search(%q)", q.query)
		assert.ElementsMatch(t, q.loads, loaded, "search(%q) loads only the sessions of its hits", q.query)
		if len(loaded) > 0 {
			// Loading relinked the documents: the index is unchanged, and
			// the search run again ranks from the pool its first run kept.
			assert.Equal(t, reused+1, st.s.Index.Docs.Reused(), "search(%q) run again after its loads", q.query)
		}
	}
	assert.Same(t, st.Session("b"), st.s.Index.Owners[key].Session, "a loaded session takes its documents back")
	assert.Equal(t, 12, st.s.Index.Docs.LiveDocs(), "nothing indexed twice")
}

// TestASearchLoadsAStubWhoseDocumentsAreNotCurrent: a stub another tab
// wrote to (its summary grew, or changed) is loaded for a search across
// every session; a session that comes back with other nodes than the
// ones its documents were made of loses them, and is indexed afresh.
func TestASearchLoadsAStubWhoseDocumentsAreNotCurrent(t *testing.T) {
	st := testStore(t)
	seedTexts(t, st, "a", "apricot")
	seedTexts(t, st, "b", "blackberry")
	require.True(t, st.WarmSearch(-1))
	restoreA := restoreOf(t, st, "a")
	ok[obj](t, st, `{"operation":"page.out","sessionId":"a"}`)
	assert.Equal(t, []string{"b/n0002"}, hitIDsOf(ok[SearchResult](t, st, `{"operation":"search","query":"blackberry"}`), true), "a's documents answer for it")
	// Another tab appended to a: its stub grows.
	other := testStore(t)
	seedTexts(t, other, "a", "apricot")
	seedTexts(t, other, "a", "a ripe fig")
	ok[map[string]int](t, st, obj{"operation": "page.stub", "sessions": []obj{{"sessionId": "a", "nodeCount": 2, "updatedAt": "2026-12-01T00:00:00.000Z"}}})
	assert.Equal(t, PagedOut, do(t, st, `{"operation":"search","query":"blackberry"}`).Error.Code, "the grown stub is loaded even for a hit elsewhere")
	assert.Equal(t, []string{"a"}, ok[[]string](t, st, `{"operation":"page.faults"}`))
	ok[Status](t, st, restoreOf(t, other, "a"))
	assert.Equal(t, []string{"a/n0002"}, hitIDsOf(ok[SearchResult](t, st, `{"operation":"search","query":"fig"}`), true), "the appended node is found")
	assert.Equal(t, []string{"a/n0001"}, hitIDsOf(ok[SearchResult](t, st, `{"operation":"search","query":"apricot"}`), true))

	// A session replaced under the same id (a snapshot.load in another
	// tab) comes back with other nodes: the documents kept are dropped.
	ok[obj](t, st, `{"operation":"page.out","sessionId":"a"}`)
	ok[Status](t, st, restoreA) // holds only n0001 "apricot"… as stored by the first tab
	assert.Equal(t, []string{"a/n0001"}, hitIDsOf(ok[SearchResult](t, st, `{"operation":"search","query":"apricot"}`), true))
	assert.Empty(t, hitIDsOf(ok[SearchResult](t, st, `{"operation":"search","query":"fig"}`), true), "the node it no longer holds is gone")
	replaced := testStore(t)
	seedTexts(t, replaced, "a", "cherry")
	ok[obj](t, st, `{"operation":"page.out","sessionId":"a"}`)
	ok[Status](t, st, restoreOf(t, replaced, "a")) // n0001 is now "cherry"
	assert.Empty(t, hitIDsOf(ok[SearchResult](t, st, `{"operation":"search","query":"apricot"}`), true), "the old text is gone")
	assert.Equal(t, []string{"a/n0001"}, hitIDsOf(ok[SearchResult](t, st, `{"operation":"search","query":"cherry"}`), true))
}

// stubOfTwo returns a store of session a ("apricot") and session b (text
// b), both indexed, and a paged out.
func stubOfTwo(t *testing.T, b string) *Store {
	st := testStore(t)
	seedTexts(t, st, "a", "apricot")
	seedTexts(t, st, "b", b)
	require.True(t, st.WarmSearch(-1))
	ok[obj](t, st, `{"operation":"page.out","sessionId":"a"}`)
	return st
}

// TestAFilteredSearchLoadsEveryStub: a search across every session by
// role or branch reads every session's nodes, so every stub is loaded.
func TestAFilteredSearchLoadsEveryStub(t *testing.T) {
	st := stubOfTwo(t, "blackberry")
	assert.Equal(t, PagedOut, do(t, st, `{"operation":"search","query":"blackberry","roles":["user"]}`).Error.Code)
	assert.Equal(t, []string{"a"}, ok[[]string](t, st, `{"operation":"page.faults"}`))
	assert.Equal(t, []string{"b/n0002"}, hitIDsOf(ok[SearchResult](t, st, `{"operation":"search","query":"blackberry"}`), true), "unfiltered, a's documents answer")
}

// TestAPagedOutSessionLeavesTheIndexWhenDeleted: a stub taken out of the
// store (deleted, forgotten) takes its documents with it.
func TestAPagedOutSessionLeavesTheIndexWhenDeleted(t *testing.T) {
	st := stubOfTwo(t, "apricot too")
	ok[obj](t, st, `{"operation":"sync.forget","sessionId":"a"}`)
	assert.Equal(t, []string{"b/n0002"}, hitIDsOf(ok[SearchResult](t, st, `{"operation":"search","query":"apricot"}`), true))
	assert.Equal(t, 1, st.s.Index.Docs.LiveDocs())
}

// TestASearchPassesOverAnUnreadableSession: a stub whose stored records
// could not be read (the shim's page.damaged, after a failed load) is
// passed over by a search across every session, which names it in
// "skipped" and answers from the rest, its documents no longer hits;
// every other call on it still needs its nodes. Stored again (page.stub)
// or loaded, it is searched again.
func TestASearchPassesOverAnUnreadableSession(t *testing.T) {
	st, restores := indexedFruit(t)
	for _, id := range []string{"a", "b", "c", "d"} {
		ok[obj](t, st, obj{"operation": "page.out", "sessionId": id})
	}
	assert.Contains(t, fails(t, st, `{"operation":"page.damaged","sessionId":"zz","message":"x"}`, SessionNotFound), "zz")
	assert.Contains(t, fails(t, st, `{"operation":"page.damaged","sessionId":"b"}`, InvalidArgument), "message")
	why := `session "b" has 2 nodes in 1 chunk records and 0 node records but its metadata says 3 nodes`
	ok[obj](t, st, obj{"operation": "page.damaged", "sessionId": "b", "message": why})

	skipped := []SkippedSession{{SessionID: "b", Message: why}}
	got, loaded := pagedSearch(t, st, "apple", nil, restores)
	assert.Equal(t, []string{"a/n0001", "c/n0008", "d/n0011", "d/n0012"}, sorted(hitIDsOf(got, true)), "b's apple pie is not a hit")
	assert.Equal(t, 4, got.Total)
	assert.Equal(t, skipped, got.Skipped)
	assert.NotContains(t, loaded, "b")
	got, _ = pagedSearch(t, st, "quince", nil, restores)
	assert.Empty(t, got.Hits, "b's documents left the index")
	assert.Equal(t, skipped, got.Skipped)
	got, _ = pagedSearch(t, st, "plums", obj{"roles": []string{"user"}}, restores)
	assert.Equal(t, skipped, got.Skipped, "a filtered search passes over it too")
	assert.Empty(t, runSearch(t, st, "medlar", obj{"sessionId": "c"}).Skipped, "a search of one session lists none")
	assert.Equal(t, PagedOut, do(t, st, `{"operation":"context","sessionId":"b"}`).Error.Code, "other calls still need its nodes")
	_, err := json.Marshal(got)
	require.NoError(t, err)

	// Stored again by another tab: read again.
	ok[obj](t, st, obj{"operation": "page.stub", "sessions": []obj{{"sessionId": "b", "title": "b", "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-02T00:00:00Z", "nodeCount": 3}}})
	got, loaded = pagedSearch(t, st, "quince", nil, restores)
	assert.Equal(t, []string{"b/n0005"}, hitIDsOf(got, true))
	assert.Nil(t, got.Skipped)
	assert.Contains(t, loaded, "b")
	assert.Equal(t, `{"hits":[],"total":0}`, string(do(t, st, `{"operation":"search","query":"zzzzqqq"}`).Value), "no skipped member when none is skipped")
}

// sorted returns a sorted copy of xs.
func sorted(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}
