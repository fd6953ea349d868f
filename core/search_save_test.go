package core

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// freshPage returns a store holding the sessions of from (restored from
// their snapshots, as the shim restores stored sessions) with ids paged
// out to stubs, and the restore requests of every session.
func freshPage(t *testing.T, from *Store, ids []string, paged ...string) (*Store, map[string]string) {
	t.Helper()
	st := testStore(t)
	restores := map[string]string{}
	for _, id := range ids {
		restores[id] = restoreOf(t, from, id)
		ok[Status](t, st, restores[id])
	}
	for _, id := range paged {
		ok[obj](t, st, obj{"operation": "page.out", "sessionId": id})
	}
	return st, restores
}

func TestASavedSearchIndexAnswersAFreshPageWithoutLoadingEverySession(t *testing.T) {
	ids := []string{"a", "b", "c", "d"}
	whole := testStore(t)
	seedFruit(t, whole)
	require.True(t, whole.WarmSearch(-1))
	assert.Nil(t, testStore(t).SearchIndexBytes(), "no index, nothing to keep")
	partial := testStore(t)
	seedFruit(t, partial)
	partial.WarmSearch(3)
	assert.Nil(t, partial.SearchIndexBytes(), "an index still being built is not kept")

	// The page that saved it had paged two sessions out.
	first := testStore(t)
	seedFruit(t, first)
	require.True(t, first.WarmSearch(-1))
	ok[obj](t, first, `{"operation":"page.out","sessionId":"a"}`)
	ok[obj](t, first, `{"operation":"page.out","sessionId":"c"}`)
	data := first.SearchIndexBytes()
	require.NotEmpty(t, data)
	assert.Nil(t, first.SearchIndexBytes(), "nothing changed since")

	// A fresh page: every session a stub but d, which it opened.
	st, restores := freshPage(t, whole, ids, "a", "b", "c")
	n, err := st.LoadSearchIndex(data)
	require.NoError(t, err)
	assert.Equal(t, 4, n, "every session is as it was saved")
	assert.Equal(t, 12, st.s.Index.Docs.LiveDocs())
	for _, q := range []struct {
		query string
		loads []string
	}{
		{"quince", []string{"b"}},
		{"nowhere", nil},
		{"apple", []string{"a", "c"}}, // b is in memory since the query before
		{"orchard plums", nil},
	} {
		got, loaded := pagedSearch(t, st, q.query, nil, restores)
		assert.Equal(t, runSearch(t, whole, q.query, nil), got, "search(%q)", q.query)
		assert.ElementsMatch(t, q.loads, loaded, "search(%q) loads only the sessions of its hits", q.query)
	}
	// Taken again over an index of its own: the sessions as they were are taken, the rest indexed afresh.
	seedTexts(t, st, "d", "a late apple")
	n, err = st.LoadSearchIndex(data)
	require.NoError(t, err)
	assert.Equal(t, 4, n, "every session begins with the nodes written (d grew since: its new node is indexed as new)")
	seedTexts(t, whole, "d", "a late apple")
	got, loaded := pagedSearch(t, st, "apple", nil, restores)
	hits := func(res SearchResult) (out []string) {
		for _, h := range res.Hits {
			out = append(out, h.SessionID+": "+h.Snippet) // the two stores number and time new nodes apart
		}
		return out
	}
	assert.ElementsMatch(t, hits(runSearch(t, whole, "apple", nil)), hits(got))
	assert.Empty(t, loaded)
}

func TestASavedSearchIndexLeavesOutWhatChangedSince(t *testing.T) {
	first := testStore(t)
	seedFruit(t, first)
	require.True(t, first.WarmSearch(-1))
	data := first.SearchIndexBytes()

	// Since then: another tab appended to b (its stub grew), c was
	// replaced by other nodes, d was deleted.
	later := testStore(t)
	seedFruit(t, later)
	seedTexts(t, later, "b", "a fig as well")
	replaced := testStore(t)
	seedTexts(t, replaced, "c", "cherry", "chestnut", "cloudberry")
	st := testStore(t)
	restores := map[string]string{"a": restoreOf(t, later, "a"), "b": restoreOf(t, later, "b"), "c": restoreOf(t, replaced, "c")}
	for _, id := range []string{"a", "b", "c"} {
		ok[Status](t, st, restores[id])
	}
	ok[obj](t, st, `{"operation":"page.out","sessionId":"a"}`)
	ok[obj](t, st, `{"operation":"page.out","sessionId":"b"}`)
	n, err := st.LoadSearchIndex(data)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "only a is as it was saved")
	assert.Equal(t, 3, st.s.Index.Docs.LiveDocs(), "a's documents")

	want := testStore(t)
	for _, id := range []string{"a", "b", "c"} {
		ok[Status](t, want, restores[id])
	}
	for _, query := range []string{"fig", "apple", "chestnut", "walnut", "medlar"} {
		got, _ := pagedSearch(t, st, query, nil, restores)
		assert.Equal(t, hitIDsOf(runSearch(t, want, query, nil), true), hitIDsOf(got, true), "search(%q)", query)
	}
}

func TestLoadSearchIndexRefusesDamagedBytes(t *testing.T) {
	first := testStore(t)
	seedFruit(t, first)
	require.True(t, first.WarmSearch(-1))
	data := first.SearchIndexBytes()
	body := data[:len(data)-4]
	for n := 0; n < len(data); n++ {
		st := testStore(t)
		seedFruit(t, st)
		_, err := st.LoadSearchIndex(data[:n])
		require.Error(t, err, "cut at %d of %d bytes", n, len(data))
		if n < len(body) {
			// Cut and checked again: the reading itself refuses it.
			_, err = st.LoadSearchIndex(checked(body[:n]))
			require.Error(t, err, "cut at %d of %d bytes, checked", n, len(body))
		}
		assert.Nil(t, st.s.Index.Docs, "the store is unchanged")
	}
	bad := append([]byte{}, body...)
	bad[4] = 1 // format 1, without the check
	_, err := testStore(t).LoadSearchIndex(checked(bad))
	assert.Error(t, err)
}

// checked returns body with the check SearchIndexBytes ends its bytes with.
func checked(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(append([]byte{}, body...), crc32.ChecksumIEEE(body))
}

// FuzzLoadSearchIndex reads fuzzed bytes with a good check, so that
// what is fuzzed is the reading of the table and the index.
func FuzzLoadSearchIndex(f *testing.F) {
	first := testStore(f)
	seedFruit(f, first)
	first.WarmSearch(-1)
	data := first.SearchIndexBytes()
	f.Add(data[:len(data)-4])
	f.Fuzz(func(t *testing.T, body []byte) {
		st := testStore(t)
		seedFruit(t, st)
		if _, err := st.LoadSearchIndex(checked(body)); err != nil {
			return
		}
		for _, q := range []string{"apple", "orchard plums", "quince"} {
			ok[SearchResult](t, st, obj{"operation": "search", "query": q})
		}
	})
}

func TestTheIndexIsKeptAgainOnlyPastAShareOfChangesOrWhenASessionLeaves(t *testing.T) {
	st := testStore(t)
	for i := 0; i < 10; i++ {
		texts := make([]string, 10)
		for k := range texts {
			texts[k] = "plum and pear number " + string(rune('a'+k))
		}
		seedTexts(t, st, string(rune('a'+i)), texts...)
	}
	require.True(t, st.WarmSearch(-1))
	require.NotNil(t, st.SearchIndexBytes(), "the first time")
	seedTexts(t, st, "a", "one more")
	require.True(t, st.WarmSearch(-1))
	assert.Nil(t, st.SearchIndexBytes(), "1 document of 101 is under 1/16")
	seedTexts(t, st, "b", "2", "3", "4", "5", "6", "7")
	require.True(t, st.WarmSearch(-1))
	assert.NotNil(t, st.SearchIndexBytes(), "7 of 107 reach 1/16")
	assert.Nil(t, st.SearchIndexBytes())
	ok[obj](t, st, `{"operation":"delete","sessionId":"c","permanent":true}`)
	assert.NotNil(t, st.SearchIndexBytes(), "a session gone: its words must go from the kept bytes")
}

func TestErasingASessionInTheTrashKeepsTheIndexAgain(t *testing.T) {
	// The shim deletes the kept bytes with every erasure (store/erase.js):
	// they hold the session's words. The index is then kept again at the
	// next chance, or a fresh page would find none and load every session.
	for _, erase := range []string{
		`{"operation":"trash.empty","sessionId":"c"}`,
		`{"operation":"trash.empty"}`,
		`{"operation":"sync.forget","sessionId":"c"}`, // another tab erased it
	} {
		t.Run(erase, func(t *testing.T) {
			st := testStore(t)
			seedFruit(t, st)
			require.True(t, st.WarmSearch(-1))
			ok[obj](t, st, `{"operation":"delete","sessionId":"c"}`)
			require.NotNil(t, st.SearchIndexBytes(), "c left the store")
			require.Nil(t, st.SearchIndexBytes())
			ok[obj](t, st, erase)
			assert.NotNil(t, st.SearchIndexBytes(), "the erasure deleted the kept bytes")
		})
	}
}

func TestAFreshPageDoesNotKeepAnIndexWithoutItsPagedOutSessions(t *testing.T) {
	// A fresh page holds every stored session as a stub, the index it
	// builds at start holds none of them: kept, it would write over the
	// index an earlier page kept, and the next search would load them all.
	ids := []string{"a", "b", "c", "d"}
	whole := testStore(t)
	seedFruit(t, whole)
	st, restores := freshPage(t, whole, ids, "a", "b", "c")
	require.True(t, st.WarmSearch(-1), "d, the one session in memory, is indexed")
	assert.Nil(t, st.SearchIndexBytes(), "a, b and c are not in the index")
	// A search across every session loads them; paged out again, they keep their documents.
	pagedSearch(t, st, "apple", nil, restores)
	require.True(t, st.WarmSearch(-1))
	for _, id := range []string{"a", "b"} {
		ok[obj](t, st, obj{"operation": "page.out", "sessionId": id})
	}
	data := st.SearchIndexBytes()
	require.NotNil(t, data, "the index holds every session")
	next, _ := freshPage(t, whole, ids, ids...)
	n, err := next.LoadSearchIndex(data)
	require.NoError(t, err)
	assert.Equal(t, 4, n)
}

func TestASavedSearchIndexDamagedInsideAWordIsRefused(t *testing.T) {
	// Bytes that still read as an index (one letter of a word changed)
	// would answer for the paged-out sessions, whose text nothing checks
	// before their hits are loaded: "quince" found nowhere.
	whole := testStore(t)
	seedFruit(t, whole)
	require.True(t, whole.WarmSearch(-1))
	data := whole.SearchIndexBytes()
	at := bytes.Index(data, []byte("quince"))
	require.Positive(t, at)
	data[at+5] = 'f'
	st, _ := freshPage(t, whole, []string{"a", "b", "c", "d"}, "a", "b", "c", "d")
	_, err := st.LoadSearchIndex(data)
	assert.Error(t, err)
	assert.True(t, st.s.Index.Docs == nil, "the store is unchanged")
}

// TestAKeptIndexWithABadListIsBuiltAgain: bytes that pass their check but
// hold a posting list out of order (only a fault in writing them could)
// are taken, the list left packed; the search that reaches it drops the
// index and answers from a new one, as a store without it would.
func TestAKeptIndexWithABadListIsBuiltAgain(t *testing.T) {
	first := testStore(t)
	seedTexts(t, first, "a", "apple pie", "apple tart", "plum cake")
	require.True(t, first.WarmSearch(-1))
	data := first.SearchIndexBytes()
	body := append([]byte{}, data[:len(data)-4]...)
	list := []byte("\x00\x05apple\x02\x00\x01") // the term, two postings: document 0, then 1 (a gap of 1)
	at := bytes.Index(body, list)
	require.GreaterOrEqual(t, at, 0)
	body[at+len(list)-1] = 0 // a gap of 0: the same document twice
	st := testStore(t)
	seedTexts(t, st, "a", "apple pie", "apple tart", "plum cake")
	_, err := st.LoadSearchIndex(checked(body))
	require.NoError(t, err, "its lists are read when a query reaches them")
	want := runSearch(t, first, "apple", nil)
	require.Len(t, want.Hits, 2)
	assert.Equal(t, want, runSearch(t, st, "apple", nil))
	assert.False(t, st.s.Index.Docs.Damaged(), "the index was built afresh")
	assert.Equal(t, runSearch(t, first, "plum", nil), runSearch(t, st, "plum", nil))
}

// TestALargeKeptIndexIsCheckedWhole: the check of a kept index is
// computed a chunk at a time (64 KiB a call); over several chunks it is
// still the CRC-32 of every byte, and a byte changed past the first
// chunk is refused. The dropping of sessions changed since runs in
// chunks too: one whose messages differ loses its documents, in the last
// chunk of them.
func TestALargeKeptIndexIsCheckedWhole(t *testing.T) {
	seed := func(st *Store, last string) {
		for s := 0; s < 3; s++ {
			texts := make([]string, 2000)
			for i := range texts {
				texts[i] = fmt.Sprintf("message %d of session %d says word%d and word%d", i, s, i*7+s, i*13+s)
				if s == 2 {
					texts[i] += last
				}
			}
			seedTexts(t, st, fmt.Sprint("s", s), texts...)
		}
	}
	first := testStore(t)
	seed(first, "")
	require.True(t, first.WarmSearch(-1))
	data := first.SearchIndexBytes()
	body := data[:len(data)-4]
	require.Greater(t, len(body), 3*64<<10, "several chunks")
	assert.Equal(t, crc32.ChecksumIEEE(body), binary.LittleEndian.Uint32(data[len(body):]))
	bad := append([]byte{}, data...)
	bad[2*64<<10+100] ^= 1
	_, err := testStore(t).LoadSearchIndex(bad)
	assert.Error(t, err, "a byte changed in the third chunk")

	st := testStore(t)
	seed(st, " (written again)")
	n, err := st.LoadSearchIndex(data)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the session written again loses its documents")
	assert.Equal(t, 2000, st.s.Index.Docs.DeadDocs())
	assert.Equal(t, 4000, st.s.Index.Docs.LiveDocs())
}
