package core

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seedTexts creates session id and appends one user message per text,
// returning the node ids in order.
func seedTexts(tb testing.TB, st *Store, id string, texts ...string) []string {
	tb.Helper()
	if st.Session(id) == nil {
		ok[Status](tb, st, obj{"operation": "create", "sessionId": id})
	}
	ids := make([]string, len(texts))
	for i, text := range texts {
		n := ok[obj](tb, st, obj{"operation": "append", "sessionId": id, "message": obj{"role": "user", "content": text}})
		ids[i] = n["id"].(string)
	}
	return ids
}

// runSearch runs a search request (fields besides operation) and returns
// the result.
func runSearch(tb testing.TB, st *Store, query string, fields obj) SearchResult {
	tb.Helper()
	req := obj{"operation": "search", "query": query}
	for k, v := range fields {
		req[k] = v
	}
	return ok[SearchResult](tb, st, req)
}

// hitIDs returns the node ids of the hits, in order.
func hitIDs(res SearchResult) []string {
	ids := []string{}
	for _, h := range res.Hits {
		ids = append(ids, h.NodeID)
	}
	return ids
}

// highlighted returns the substrings of the snippet that the ranges of a
// hit mark, reading the ranges as UTF-16 offsets as JavaScript would.
func highlighted(tb testing.TB, h SearchHit) []string {
	tb.Helper()
	units := utf16.Encode([]rune(h.Snippet))
	out := []string{}
	for _, r := range h.Ranges {
		require.True(tb, 0 <= r[0] && r[0] < r[1] && r[1] <= len(units), "range %v outside snippet %q (%d units)", r, h.Snippet, len(units))
		if r[0] > 0 {
			require.False(tb, utf16.IsSurrogate(rune(units[r[0]])) && units[r[0]] >= 0xdc00, "range %v starts inside a surrogate pair", r)
		}
		if r[1] < len(units) {
			require.False(tb, units[r[1]] >= 0xdc00 && units[r[1]] <= 0xdfff, "range %v ends inside a surrogate pair", r)
		}
		out = append(out, string(utf16.Decode(units[r[0]:r[1]])))
	}
	return out
}

// searchCorpus is the text of the matching tables; ids are n0001… in
// order.
var searchCorpus = []string{
	"The deployment pipeline failed yesterday",          // n0001
	"Nous irons à Lumière demain",                       // n0002
	"Un café, s'il vous plaît",                          // n0003
	"CAFE NOIR sign on the door",                        // n0004
	"We landed in São Tomé at noon",                     // n0005
	"我喜歡用signal聊天",                                      // n0006
	"great job 👍🏽 team",                                 // n0007
	"the family 👨‍👩‍👧 arrived",                          // n0008
	"İstanbul'da buluşalım",                             // n0009
	"Die Straße ist lang",                               // n0010
	"Привет мир, hello 世界",                              // n0011
	"ΟΔΥΣΣΕΥΣ returns home",                             // n0012
	"สวัสดีครับ ยินดีต้อนรับ",                           // n0013
	"kubernetes cluster upgrade scheduled",              // n0014
	"Please review the authentication middleware today", // n0015
}

func TestSearchMatchesQueriesToNodes(t *testing.T) {
	st := testStore(t)
	seedTexts(t, st, "s", searchCorpus...)
	tests := []struct {
		name  string
		query string
		want  []string
	}{
		{"an exact word is found", "pipeline", []string{"n0001"}},
		{"a prefix is found", "deplo", []string{"n0001"}},
		{"a substitution is forgiven", "deploymant", []string{"n0001"}},
		{"a deletion is forgiven", "deploymnt", []string{"n0001"}},
		{"an insertion is forgiven", "deployyment", []string{"n0001"}},
		{"a transposition is forgiven", "depolyment", []string{"n0001"}},
		{"a transposition in a short word is forgiven", "fialed", []string{"n0001"}},
		{"two typos in a long word are forgiven", "dpeloymnet", []string{"n0001"}},
		{"two typos in a long word of another node are forgiven", "authentcaiton", []string{"n0015"}},
		{"two typos in a short word are not forgiven", "fialde", []string{}},
		{"three typos are not forgiven", "dpeloymnte", []string{}},
		{"a word of three letters takes no typo", "teh", []string{}},
		{"every query word must match", "deployment kubernetes", []string{}},
		{"query words match in any order", "yesterday pipeline", []string{"n0001"}},
		{"words with typos combine", "kubernetse clustr", []string{"n0014"}},
		{"an accent in the text is ignored", "lumiere", []string{"n0002"}},
		{"an accent in the query is ignored", "LUMIÈRE", []string{"n0002"}},
		{"an unaccented capital query finds an accented word", "CAFE", []string{"n0004", "n0003"}},
		{"an accented query finds an unaccented capital word", "café", []string{"n0004", "n0003"}},
		{"accents on several words are ignored", "sao tome", []string{"n0005"}},
		{"an accented query finds accented words", "São Tomé", []string{"n0005"}},
		{"one CJK character is found inside a run", "歡", []string{"n0006"}},
		{"two CJK characters are found as a substring", "喜歡", []string{"n0006"}},
		{"a long CJK run is found as a substring", "我喜歡用", []string{"n0006"}},
		{"CJK characters out of order are not found", "歡喜", []string{}},
		{"a Latin word glued to CJK is a word", "signal", []string{"n0006"}},
		{"a mixed CJK and Latin query matches", "我喜歡用signal", []string{"n0006"}},
		{"an emoji finds the emoji with a skin tone", "👍", []string{"n0007"}},
		{"a ZWJ emoji sequence is found", "👨‍👩‍👧", []string{"n0008"}},
		{"a dotted capital I folds to i", "istanbul", []string{"n0009"}},
		{"a query with a dotted capital I matches", "İSTANBUL", []string{"n0009"}},
		{"a dotless i folds to i", "bulusalim", []string{"n0009"}},
		{"sharp s matches ss", "strasse", []string{"n0010"}},
		{"ss in the query matches sharp s in capitals", "STRASSE", []string{"n0010"}},
		{"Cyrillic words are words", "мир", []string{"n0011"}},
		{"Cyrillic and Latin words combine", "привет hello", []string{"n0011"}},
		{"Han characters after Latin words are found", "世界", []string{"n0011"}},
		{"a final sigma matches a medial sigma", "οδυσσευσ", []string{"n0012"}},
		{"Thai is found as a substring", "ยินดี", []string{"n0013"}},
		{"punctuation alone finds nothing", "!!!", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, hitIDs(runSearch(t, st, tt.query, nil)), "search(%q)", tt.query)
		})
	}
}

func TestSearchHighlightsTheMatchedCharacters(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		query   string
		snippet string
		want    []string
	}{
		{"an accented word is highlighted as written", "Nous irons à Lumière demain", "lumiere", "Nous irons à Lumière demain", []string{"Lumière"}},
		{"a decomposed accent stays with its letter", "Nous irons à Lumie\u0300re demain", "lumiere", "Nous irons à Lumie\u0300re demain", []string{"Lumie\u0300re"}},
		{"a prefix match highlights the prefix only", "deployment pipeline", "deplo", "deployment pipeline", []string{"deplo"}},
		{"a typo match highlights the whole word", "deployment pipeline", "deploymant", "deployment pipeline", []string{"deployment"}},
		{"a sharp s is highlighted whole", "Die Straße ist lang", "strass", "Die Straße ist lang", []string{"Straß"}},
		{"an emoji keeps its skin tone", "great job 👍🏽 team", "👍", "great job 👍🏽 team", []string{"👍🏽"}},
		{"a ZWJ sequence is highlighted whole", "the family 👨‍👩‍👧 arrived", "👨", "the family 👨‍👩‍👧 arrived", []string{"👨‍👩‍👧"}},
		{"a flag is never split", "flags 🇫🇷🇩🇪 here", "🇩", "flags 🇫🇷🇩🇪 here", []string{"🇩🇪"}},
		{"letters outside the BMP are whole", "𝐀𝐁𝐂 bold", "abc", "𝐀𝐁𝐂 bold", []string{"𝐀𝐁𝐂"}},
		{"one CJK character", "我喜歡用signal", "歡", "我喜歡用signal", []string{"歡"}},
		{"CJK and Latin together", "我喜歡用signal", "喜歡 signal", "我喜歡用signal", []string{"喜歡", "signal"}},
		{"every occurrence is highlighted", "cafe, Café and CAFÉ", "cafe", "cafe, Café and CAFÉ", []string{"cafe", "Café", "CAFÉ"}},
		{"adjacent matches merge", "signalsignal", "signalsignal", "signalsignal", []string{"signalsignal"}},
		{"white space is collapsed", "first   line\n\nsecond\tline", "second", "first line second line", []string{"second"}},
		{"a dotted capital I is highlighted", "İstanbul'da", "istanbul", "İstanbul'da", []string{"İstanbul"}},
		{"a long text is cut around the match",
			strings.Repeat("lorem ipsum ", 20) + "the needle is here " + strings.Repeat("dolor sit ", 20), "needle",
			"…lorem ipsum lorem ipsum the needle is here dolor sit dolor sit dolor sit dolor sit dolor sit dolor…",
			[]string{"needle"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := testStore(t)
			seedTexts(t, st, "s", tt.text)
			res := runSearch(t, st, tt.query, nil)
			require.Len(t, res.Hits, 1, "search(%q) in %q", tt.query, tt.text)
			assert.Equal(t, tt.snippet, res.Hits[0].Snippet)
			assert.Equal(t, tt.want, highlighted(t, res.Hits[0]))
		})
	}
}

func TestSearchRanksHits(t *testing.T) {
	t.Run("exact beats prefix beats typo, whatever their age", func(t *testing.T) {
		st := testStore(t)
		ids := seedTexts(t, st, "s", "edit the config now", "the configuration file", "a confog typo")
		res := runSearch(t, st, "config", nil)
		assert.Equal(t, []string{ids[0], ids[1], ids[2]}, hitIDs(res))
		assert.Equal(t, 1.0, res.Hits[0].Score)
		assert.Greater(t, res.Hits[1].Score, res.Hits[2].Score)
	})
	t.Run("one typo beats two typos", func(t *testing.T) {
		st := testStore(t)
		ids := seedTexts(t, st, "s", "authentiaction", "authenticatoin", "authentcaiton")
		assert.Equal(t, []string{ids[1], ids[0], ids[2]}, hitIDs(runSearch(t, st, "authentication", nil)))
	})
	t.Run("recency breaks ties", func(t *testing.T) {
		st := testStore(t)
		ids := seedTexts(t, st, "s", "release notes", "release notes", "release notes")
		assert.Equal(t, []string{ids[2], ids[1], ids[0]}, hitIDs(runSearch(t, st, "release", nil)))
	})
	t.Run("words close together beat words far apart", func(t *testing.T) {
		st := testStore(t)
		ids := seedTexts(t, st, "s", "release notes are ready", "the release went out and later someone wrote notes")
		assert.Equal(t, []string{ids[0], ids[1]}, hitIDs(runSearch(t, st, "release notes", nil)))
	})
	t.Run("equal scores and times come out in a fixed order", func(t *testing.T) {
		st := testStore(t)
		for _, id := range []string{"b", "a"} {
			ok[Status](t, st, obj{"operation": "snapshot.load", "sessionId": id, "snapshot": obj{
				"version": 1, "sessionId": id, "cursor": nil, "activeBranch": "main", "nodes": []obj{
					{"id": "x", "parentId": nil, "branch": "main", "kind": "message", "timestamp": "2026-01-01T00:00:00.000Z", "message": obj{"role": "user", "content": "same words"}},
					{"id": "y", "parentId": "x", "branch": "main", "kind": "message", "timestamp": "2026-01-01T00:00:00.000Z", "message": obj{"role": "user", "content": "same words"}},
				}}})
		}
		res := runSearch(t, st, "same words", nil)
		got := []string{}
		for _, h := range res.Hits {
			got = append(got, h.SessionID+"/"+h.NodeID)
		}
		assert.Equal(t, []string{"a/y", "a/x", "b/y", "b/x"}, got)
	})
	t.Run("limit keeps the best and total counts all", func(t *testing.T) {
		st := testStore(t)
		ids := seedTexts(t, st, "s", "alpha beta", "alpha", "alpha gamma", "alphabet")
		res := runSearch(t, st, "alpha", obj{"limit": 2})
		assert.Equal(t, []string{ids[2], ids[1]}, hitIDs(res))
		assert.Equal(t, 4, res.Total)
	})
}

func TestSearchFiltersHits(t *testing.T) {
	st := testStore(t)
	a := seedTexts(t, st, "one", "shared word here")
	ok[obj](t, st, obj{"operation": "append", "sessionId": "one", "message": obj{"role": "assistant", "content": "shared word answer"}})
	b := seedTexts(t, st, "two", "shared word elsewhere")
	ok[Status](t, st, obj{"operation": "branch", "sessionId": "two", "nodeId": b[0], "branch": "side"})
	side := seedTexts(t, st, "two", "shared word on a side branch")
	summary := ok[obj](t, st, obj{"operation": "branch.summary", "sessionId": "one", "nodeId": a[0], "branch": "sum", "summary": "a shared word summary"})

	t.Run("sessionId keeps one session's hits", func(t *testing.T) {
		res := runSearch(t, st, "shared", obj{"sessionId": "two"})
		assert.Equal(t, []string{side[0], b[0]}, hitIDs(res))
		assert.Equal(t, 2, res.Total)
	})
	t.Run("roles keep the named roles", func(t *testing.T) {
		res := runSearch(t, st, "shared", obj{"roles": []string{"assistant", "summary"}})
		assert.Equal(t, []string{summary["id"].(string), "n0002"}, hitIDs(res))
		assert.Equal(t, []string{"summary", "assistant"}, []string{res.Hits[0].Role, res.Hits[1].Role})
	})
	t.Run("branch keeps a branch's hits", func(t *testing.T) {
		res := runSearch(t, st, "shared", obj{"sessionId": "two", "branch": "side"})
		assert.Equal(t, []string{side[0]}, hitIDs(res))
		assert.Equal(t, "side", res.Hits[0].Branch)
	})
	t.Run("a summary is searched", func(t *testing.T) {
		assert.Equal(t, []string{summary["id"].(string)}, hitIDs(runSearch(t, st, "summary", nil)))
	})
}

func TestSearchRejectsBadRequests(t *testing.T) {
	st := testStore(t)
	seedTexts(t, st, "s", "hello")
	tests := []struct {
		name string
		req  obj
		code Code
		msg  string
	}{
		{"a missing query", obj{}, InvalidArgument, `field "query" is required for operation "search"`},
		{"a blank query", obj{"query": "  "}, InvalidArgument, `field "query" must not be empty`},
		{"a query that is not a string", obj{"query": 3}, InvalidArgument, `field "query" must be a string`},
		{"a huge query", obj{"query": strings.Repeat("a", store.MaxQueryLength+1)}, InvalidArgument, `field "query" is 1001 characters long; the longest query is 1000`},
		{"a fractional limit", obj{"query": "a", "limit": 1.5}, InvalidArgument, `field "limit" must be an integer from 1 to 1000`},
		{"a zero limit", obj{"query": "a", "limit": 0}, InvalidArgument, `field "limit" must be an integer from 1 to 1000`},
		{"roles that are not an array", obj{"query": "a", "roles": "user"}, InvalidArgument, `field "roles" must be an array of role names such as ["user", "assistant"]`},
		{"an empty role", obj{"query": "a", "roles": []string{""}}, InvalidArgument, `field "roles"[0] must not be empty`},
		{"an unknown session", obj{"query": "a", "sessionId": "nope"}, SessionNotFound, `session "nope" does not exist`},
		{"an unknown branch of the session", obj{"query": "a", "sessionId": "s", "branch": "nope"}, NotFound, `branch "nope" does not exist in session "s"`},
		{"an unknown field", obj{"query": "a", "page": 2}, InvalidArgument, `unknown field "page" for operation "search" (allowed: query, sessionId, limit, roles, branch)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := obj{"operation": "search"}
			for k, v := range tt.req {
				req[k] = v
			}
			assert.Equal(t, tt.msg, fails(t, st, req, tt.code))
		})
	}
}

func TestSearchIndexFollowsEveryOperation(t *testing.T) {
	st := testStore(t)
	ids := seedTexts(t, st, "main", "apples are red", "bananas are yellow")
	found := func(query string) []string {
		t.Helper()
		got := []string{}
		for _, h := range runSearch(t, st, query, nil).Hits {
			got = append(got, h.SessionID+"/"+h.NodeID)
		}
		return got
	}

	t.Run("after append", func(t *testing.T) {
		more := seedTexts(t, st, "main", "cherries are dark")
		assert.Equal(t, []string{"main/" + more[0]}, found("cherries"))
	})
	t.Run("after branch and an append on the new branch", func(t *testing.T) {
		ok[Status](t, st, obj{"operation": "branch", "sessionId": "main", "nodeId": ids[0], "branch": "alt"})
		alt := seedTexts(t, st, "main", "durian smells")
		assert.Equal(t, []string{"main/" + alt[0]}, found("durian"))
		assert.Equal(t, []string{"main/" + alt[0]}, hitIDsOf(runSearch(t, st, "durian", obj{"branch": "alt"}), true))
	})
	t.Run("after fork", func(t *testing.T) {
		ok[Status](t, st, obj{"operation": "fork", "sessionId": "main", "nodeId": ids[1], "newSessionId": "forked"})
		assert.Equal(t, []string{"forked/" + ids[1], "main/" + ids[1]}, found("bananas"))
		assert.Equal(t, []string{"main/n0003"}, found("cherries"), "the fork holds only the path to its node")
		appended := seedTexts(t, st, "forked", "elderberry jam")
		assert.Equal(t, []string{"forked/" + appended[0]}, found("elderberry"))
	})
	t.Run("after clone", func(t *testing.T) {
		ok[Status](t, st, obj{"operation": "clone", "sessionId": "main", "newSessionId": "cloned"})
		assert.Equal(t, []string{"cloned/n0003", "main/n0003"}, found("cherries"))
		fig := seedTexts(t, st, "cloned", "figs are sweet")
		assert.Equal(t, []string{"cloned/" + fig[0]}, found("figs"), "an append to the clone is not in the original")
	})
	t.Run("after import", func(t *testing.T) {
		data := `[{"id":"conv1","title":"Fruit chat","create_time":1700000000,"current_node":"m2","mapping":{` +
			`"m1":{"id":"m1","parent":null,"children":["m2"],"message":{"id":"m1","author":{"role":"user"},"create_time":1700000001,"content":{"content_type":"text","parts":["grapefruit please"]}}},` +
			`"m2":{"id":"m2","parent":"m1","children":[],"message":{"id":"m2","author":{"role":"assistant"},"create_time":1700000002,"content":{"content_type":"text","parts":["here is a grapefruit"]}}}}}]`
		res := ok[ImportResult](t, st, obj{"operation": "import", "data": data})
		require.Len(t, res.Sessions, 1)
		assert.Equal(t, []string{"conv1/m2", "conv1/m1"}, found("grapefruit"))
	})
	t.Run("after snapshot.load replaces a session, no stale hits remain", func(t *testing.T) {
		ok[Status](t, st, obj{"operation": "snapshot.load", "sessionId": "cloned", "snapshot": obj{
			"version": 1, "sessionId": "cloned", "cursor": "k1", "activeBranch": "main", "nodes": []obj{
				{"id": "k1", "parentId": nil, "branch": "main", "kind": "message", "timestamp": "2026-01-01T00:00:00.000Z", "message": obj{"role": "user", "content": "kiwis only"}},
			}}})
		assert.Equal(t, []string{"cloned/k1"}, found("kiwis"))
		assert.Equal(t, []string{}, found("figs"))
		assert.Equal(t, []string{"main/n0003"}, found("cherries"))
	})
	t.Run("after a failed snapshot.load nothing changes", func(t *testing.T) {
		fails(t, st, obj{"operation": "snapshot.load", "sessionId": "cloned", "snapshot": obj{
			"version": 1, "sessionId": "cloned", "cursor": "zz", "activeBranch": "main", "nodes": []obj{
				{"id": "k2", "parentId": nil, "branch": "main", "kind": "message", "timestamp": "2026-01-01T00:00:00.000Z", "message": obj{"role": "user", "content": "limes instead"}},
			}}}, InvalidSnapshot)
		assert.Equal(t, []string{}, found("limes"))
		assert.Equal(t, []string{"cloned/k1"}, found("kiwis"))
	})
	t.Run("after many replacements the rebuilt index is still right", func(t *testing.T) {
		nodes := make([]obj, 1500)
		for i := range nodes {
			nodes[i] = obj{"id": fmt.Sprintf("m%d", i), "parentId": nil, "branch": "main", "kind": "message", "timestamp": "2026-01-01T00:00:00.000Z", "message": obj{"role": "user", "content": fmt.Sprintf("mango number %d", i)}}
		}
		for round := 0; round < 4; round++ {
			nodes[0]["message"] = obj{"role": "user", "content": fmt.Sprintf("papaya round %d", round)}
			ok[Status](t, st, obj{"operation": "snapshot.load", "sessionId": "big", "snapshot": obj{
				"version": 1, "sessionId": "big", "cursor": nil, "activeBranch": "main", "nodes": nodes}})
			assert.Equal(t, 1500-1, runSearch(t, st, "mango", obj{"limit": 1}).Total, "round %d", round) // indexes the new session
		}
		assert.Equal(t, 1500-1, runSearch(t, st, "mango", obj{"limit": 1}).Total)
		assert.Equal(t, []string{"big/m0"}, found("papaya 3"))
		assert.Equal(t, []string{}, found("papaya 2"))
		assert.Equal(t, 0, st.s.Index.Docs.DeadDocs(), "the index was rebuilt")
		assert.Equal(t, []string{"main/n0003"}, found("cherries"))
		assert.Equal(t, []string{"cloned/k1"}, found("kiwis"))
	})
	t.Run("after label, relabel and unlabel", func(t *testing.T) {
		ok[obj](t, st, obj{"operation": "label", "sessionId": "main", "nodeId": ids[0], "label": "favourite quince"})
		assert.Equal(t, []string{"main/" + ids[0]}, found("quince"))
		ok[obj](t, st, obj{"operation": "label", "sessionId": "main", "nodeId": ids[0], "label": "rhubarb"})
		assert.Equal(t, []string{}, found("quince"))
		assert.Equal(t, []string{"main/" + ids[0]}, found("rhubarb"))
		assert.Equal(t, []string{"main/" + ids[0]}, found("apples rhubarb"), "text and label match together")
		ok[obj](t, st, obj{"operation": "label", "sessionId": "main", "nodeId": ids[0], "label": ""})
		assert.Equal(t, []string{}, found("rhubarb"))
		assert.Equal(t, []string{"forked/" + ids[0], "main/" + ids[0]}, found("apples"), "the relabelled node is found once")
	})
	t.Run("after appending an entry", func(t *testing.T) {
		n := ok[obj](t, st, obj{"operation": "append", "sessionId": "main", "entry": obj{"kind": "model_change", "provider": "openai", "model": "gpt-5"}})
		res := runSearch(t, st, "openai", nil)
		assert.Equal(t, []string{n["id"].(string)}, hitIDs(res))
		assert.Equal(t, "model_change", res.Hits[0].Role)
	})
	t.Run("after restore", func(t *testing.T) {
		snap := snapshot(t, st, "main")
		other := testStore(t)
		ok[Status](t, other, `{"operation":"restore","snapshot":`+snap+`}`)
		assert.Equal(t, []string{"n0003"}, hitIDs(runSearch(t, other, "cherries", nil)))
	})
}

// TestASearchIndexesAFewNodesAndScansTheRest: loading and appending build
// no index; a search across every session indexes at most
// store.SearchWarmNodes of the nodes not yet indexed and finds the rest
// by a scan; a search within one session indexes nothing.
func TestASearchIndexesAFewNodesAndScansTheRest(t *testing.T) {
	st := testStore(t)
	seedTexts(t, st, "a", "walnuts in autumn")
	ok[Status](t, st, obj{"operation": "snapshot.load", "sessionId": "b", "snapshot": obj{
		"version": 1, "sessionId": "b", "cursor": "k1", "activeBranch": "main", "nodes": []obj{
			{"id": "k1", "parentId": nil, "branch": "main", "kind": "message", "timestamp": "2026-01-01T00:00:00.000Z", "message": obj{"role": "user", "content": "walnut bread"}},
		}}})
	assert.Nil(t, st.s.Index.Docs, "loading and appending build no index")
	assert.Empty(t, st.s.Index.Of)
	assert.Equal(t, []string{"b/k1"}, hitIDsOf(runSearch(t, st, "walnut", obj{"sessionId": "b"}), true))
	require.NotNil(t, st.s.Index.Docs)
	assert.Equal(t, 0, st.s.Index.Docs.LiveDocs(), "a search within one session indexes nothing")

	assert.Equal(t, []string{"b/k1", "a/n0001"}, hitIDsOf(runSearch(t, st, "walnut", nil), true))
	assert.Equal(t, 2, st.s.Index.Docs.LiveDocs(), "a few nodes: indexed by the search")
	more := seedTexts(t, st, "a", "walnut cake")
	assert.Equal(t, []string{"a/" + more[0], "b/k1", "a/n0001"}, hitIDsOf(runSearch(t, st, "walnut", nil), true), "later appends are indexed by the next search")
	assert.Equal(t, 3, st.s.Index.Docs.LiveDocs())

	// More than the search indexes: the rest is scanned, and found.
	nodes := make([]obj, store.SearchWarmNodes+10)
	for i := range nodes {
		text := fmt.Sprintf("filler %d", i)
		if i == len(nodes)-1 {
			text = "a walnut at the end"
		}
		var parent any
		if i > 0 {
			parent = fmt.Sprintf("f%d", i-1)
		}
		nodes[i] = obj{"id": fmt.Sprintf("f%d", i), "parentId": parent, "branch": "main", "kind": "message", "timestamp": "2026-01-01T00:00:00.000Z", "message": obj{"role": "user", "content": text}}
	}
	ok[Status](t, st, obj{"operation": "snapshot.load", "sessionId": "c", "snapshot": obj{"version": 1, "sessionId": "c", "cursor": nil, "activeBranch": "main", "nodes": nodes}})
	res := runSearch(t, st, "walnut", nil)
	assert.Contains(t, hitIDsOf(res, true), fmt.Sprintf("c/f%d", len(nodes)-1), "found by the scan")
	assert.Equal(t, 3+store.SearchWarmNodes, st.s.Index.Docs.LiveDocs(), "indexed: store.SearchWarmNodes of them")
	require.True(t, st.WarmSearch(-1))
	assert.Equal(t, res, runSearch(t, st, "walnut", nil), "the index answers as the scan did")
}

// TestSearchDuringTheBuildAnswersExactly searches after every slice of
// the index build: each answer holds the same hits, and as many, as the
// answer of a store whose index is complete.
func TestSearchDuringTheBuildAnswersExactly(t *testing.T) {
	seed := func(st *Store) {
		seedTexts(t, st, "a", "the deployment pipeline failed", "retry the deploymnet", "Café au lait", "我喜歡用signal")
		seedTexts(t, st, "b", "pipeline of the release", "a depolyment at night", "cafe noir 我喜歡")
		seedTexts(t, st, "c", "nothing here", "deployments and pipelines", "signals")
	}
	queries := []struct {
		query  string
		fields obj
	}{
		{"deployment", nil},
		{"deploy", nil},
		{"pipeline deployment", nil},
		{"café", nil},
		{"喜歡", nil},
		{"我喜歡用", nil},
		{"signal", obj{"roles": []string{"user"}}},
		{"deployment", obj{"sessionId": "b"}},
		{"nowhere", nil},
	}
	whole := testStore(t)
	seed(whole)
	require.True(t, whole.WarmSearch(-1))
	want := make([]SearchResult, len(queries))
	for i, q := range queries {
		want[i] = runSearch(t, whole, q.query, q.fields)
	}
	st := testStore(t)
	seed(st)
	for step := 0; ; step++ {
		for i, q := range queries {
			got := runSearch(t, st, q.query, q.fields)
			assert.Equal(t, want[i].Total, got.Total, "step %d: search(%q).total", step, q.query)
			assert.ElementsMatch(t, hitIDsOf(want[i], true), hitIDsOf(got, true), "step %d: search(%q)", step, q.query)
		}
		if st.WarmSearch(2) {
			break
		}
	}
	assert.Equal(t, 10, st.s.Index.Docs.LiveDocs())
}

func TestWarmSearchBuildsTheIndexInSlices(t *testing.T) {
	st := testStore(t)
	a := seedTexts(t, st, "a", "plum one", "plum two", "plum three", "plum four")
	b := seedTexts(t, st, "b", "plum five", "plum six", "plum seven")
	seedTexts(t, st, "c", "plum eight", "plum nine")
	assert.False(t, st.WarmSearch(3), "3 of 9 nodes")
	assert.Equal(t, 3, st.s.Index.Of[st.Session("a")].Indexed)

	// Changes while warming: an append to the session being warmed, a
	// label on a node already warmed (that session starts over), a
	// replaced session and a forgotten one.
	more := seedTexts(t, st, "a", "plum ten")
	ok[obj](t, st, obj{"operation": "label", "sessionId": "a", "nodeId": a[0], "label": "damson"})
	assert.False(t, st.WarmSearch(0))
	assert.Equal(t, 0, st.s.Index.Of[st.Session("a")].Indexed, "a label on a warmed node starts the session over")
	assert.False(t, st.WarmSearch(6))
	ok[Status](t, st, obj{"operation": "snapshot.load", "sessionId": "b", "snapshot": obj{
		"version": 1, "sessionId": "b", "cursor": "k1", "activeBranch": "main", "nodes": []obj{
			{"id": "k1", "parentId": nil, "branch": "main", "kind": "message", "timestamp": "2026-01-01T00:00:00.000Z", "message": obj{"role": "user", "content": "plum jam"}},
		}}})
	ok[obj](t, st, obj{"operation": "sync.forget", "sessionId": "c"})
	for !st.WarmSearch(2) {
	}
	assert.True(t, st.WarmSearch(0), "nothing left to warm")

	res := runSearch(t, st, "plum", obj{"limit": 50})
	assert.ElementsMatch(t, []string{"a/" + a[0], "a/" + a[1], "a/" + a[2], "a/" + a[3], "a/" + more[0], "b/k1"}, hitIDsOf(res, true))
	assert.Equal(t, []string{"a/" + a[0]}, hitIDsOf(runSearch(t, st, "damson", nil), true))
	assert.Empty(t, hitIDsOf(runSearch(t, st, "seven", nil), true), "the replaced session's nodes are gone")
	assert.Empty(t, hitIDsOf(runSearch(t, st, "eight", nil), true), "the forgotten session's nodes are gone")
	assert.Equal(t, 6, st.s.Index.Docs.LiveDocs())
	_ = b
	later := seedTexts(t, st, "a", "plum eleven")
	assert.Equal(t, []string{"a/" + later[0]}, hitIDsOf(runSearch(t, st, "eleven", nil), true), "a warmed session's appends are indexed by the next search")
}

func TestSearchForgetsAForgottenSession(t *testing.T) {
	st := testStore(t)
	seedTexts(t, st, "keep", "hazelnut spread")
	seedTexts(t, st, "gone", "hazelnut milk")
	assert.Len(t, runSearch(t, st, "hazelnut", nil).Hits, 2)
	ok[obj](t, st, obj{"operation": "sync.forget", "sessionId": "gone"})
	assert.Equal(t, []string{"keep/n0001"}, hitIDsOf(runSearch(t, st, "hazelnut", nil), true))
}

// hitIDsOf returns the node ids of the hits (withSession prefixes the
// session id).
func hitIDsOf(res SearchResult, withSession bool) []string {
	ids := []string{}
	for _, h := range res.Hits {
		if withSession {
			ids = append(ids, h.SessionID+"/"+h.NodeID)
		} else {
			ids = append(ids, h.NodeID)
		}
	}
	return ids
}

func TestSearchReadsEveryKindOfContent(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
	messages := []string{
		`{"role":"user","content":[{"type":"text","text":"parts hold words"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Reykjavík\"}"}}]}`,
		`{"role":"user","content":""}`,
		`{"role":"user","content":[]}`,
		`{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}}]}`,
		`{"role":"user","content":"say \"quoted\" caf\u00e9\nnext \\ line"}`,
	}
	for _, m := range messages {
		ok[obj](t, st, `{"operation":"append","sessionId":"s","message":`+m+`}`)
	}
	assert.Equal(t, []string{"n0001"}, hitIDs(runSearch(t, st, "parts", nil)))
	assert.Equal(t, []string{"n0002"}, hitIDs(runSearch(t, st, "reykjavik", nil)), "tool-call arguments are searched")
	assert.Equal(t, []string{"n0002"}, hitIDs(runSearch(t, st, "get_weather", nil)))
	assert.Equal(t, []string{"n0005", "n0001"}, hitIDs(runSearch(t, st, "image", nil)), "an image part is searchable by its placeholder")
	res := runSearch(t, st, "quoted cafe next", nil)
	require.Equal(t, []string{"n0006"}, hitIDs(res), "escapes in string content are decoded")
	assert.Equal(t, `say "quoted" café next \ line`, res.Hits[0].Snippet)
}

func TestSearchCommand(t *testing.T) {
	st := testStore(t)
	seedTexts(t, st, "s", "The deployment pipeline failed", "Nous irons à Lumière demain", "deploy again tomorrow")
	seedTexts(t, st, "other", "deployment elsewhere")
	assert.Equal(t, strings.Join([]string{
		"> /tree search depolyment",
		"n0001 [main] user: The «deployment» pipeline failed",
		"> /tree search lumiere demain",
		"n0002 [main] user: Nous irons à «Lumière» «demain»",
		"> /tree search deploy",
		"n0003 [main] user: «deploy» again tomorrow",
		"n0001 [main] user: The «deploy»ment pipeline failed",
		"> /tree search nothing here",
		"(no hits)",
		"> /tree search",
		"! INVALID_ARGUMENT: /tree search takes 1 argument; usage: /tree search <query>",
		"",
	}, "\n"), transcript(t, st, "s", "/tree search depolyment", "/tree search lumiere demain", "/tree search deploy", "/tree search nothing here", "/tree search"))
}

// FuzzSearch appends arbitrary text and searches it with an arbitrary
// query: nothing panics, every range lies inside its snippet on UTF-16
// boundaries that do not split a surrogate pair, and a query equal to a
// word of the text finds the node.
func FuzzSearch(f *testing.F) {
	f.Add("The deployment pipeline failed", "depolyment")
	f.Add("我喜歡用signal聊天 👍🏽 İstanbul Straße", "歡 signal")
	f.Add("e\u0301\u200d\U0001F1EB\U0001F1F7 x", "\u200d")
	f.Add("ﬁnd ① Ａ", "find 1 a")
	f.Fuzz(func(t *testing.T, text, query string) {
		if !utf8.ValidString(text) || !utf8.ValidString(query) {
			return
		}
		st := testStore(t)
		ok[Status](t, st, obj{"operation": "create", "sessionId": "s"})
		env := do(t, st, obj{"operation": "append", "sessionId": "s", "message": obj{"role": "user", "content": text}})
		require.True(t, env.OK)
		env = do(t, st, obj{"operation": "search", "query": query})
		if !env.OK {
			return
		}
		var res SearchResult
		require.NoError(t, json.Unmarshal(env.Value, &res))
		for _, h := range res.Hits {
			highlighted(t, h)
			for k := 1; k < len(h.Ranges); k++ {
				require.Less(t, h.Ranges[k-1][1], h.Ranges[k][0]+1, "ranges in order, not overlapping")
			}
		}
		for _, w := range strings.Fields(text) {
			if w == query && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == "" {
				require.Equal(t, 1, res.Total, "an ASCII word of the text is found: %q", w)
			}
		}
	})
}

// TestAnAttachedSessionIsCaughtUpByTheNextSearch: once warmed, a session's
// appends, labels and a sync.merge taken back leave the index as a fresh
// build would have it, one document per node.
func TestAnAttachedSessionIsCaughtUpByTheNextSearch(t *testing.T) {
	st := testStore(t)
	ids := seedTexts(t, st, "a", "pear tart", "pear cider")
	require.True(t, st.WarmSearch(-1))
	more := seedTexts(t, st, "a", "pear jam")
	ok[obj](t, st, obj{"operation": "label", "sessionId": "a", "nodeId": ids[0], "label": "greengage"})
	ok[obj](t, st, obj{"operation": "label", "sessionId": "a", "nodeId": more[0], "label": "medlar"})
	fails(t, st, `{"operation":"sync.merge","sessionId":"a","nodes":[`+
		`{"id":"x1","parentId":null,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"pear sorbet"}},`+
		`{"id":"x2","parentId":"nowhere","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.001Z","message":{"role":"user","content":"pear sorbet"}}]}`, InvalidSnapshot)

	assert.ElementsMatch(t, []string{"a/" + ids[0], "a/" + ids[1], "a/" + more[0]}, hitIDsOf(runSearch(t, st, "pear", nil), true))
	assert.Equal(t, []string{"a/" + ids[0]}, hitIDsOf(runSearch(t, st, "greengage", nil), true), "a label on an indexed node replaces its document")
	assert.Equal(t, []string{"a/" + more[0]}, hitIDsOf(runSearch(t, st, "medlar", nil), true), "a node labelled before it was indexed is indexed with its label")
	assert.Empty(t, hitIDsOf(runSearch(t, st, "sorbet", nil), true), "a merge taken back leaves nothing")
	assert.Equal(t, 3, st.s.Index.Docs.LiveDocs())
	assert.Equal(t, 1, st.s.Index.Docs.DeadDocs(), "the relabelled node's old document")
}

// TestOwnersHoldLiveSessions: every owner the search index still lists
// holds the session the store has under its id, through whatever makes a
// session leave or be replaced (trash, restore, erase, a snapshot loaded
// over it, paging out and in, another tab's forget, the kept index read
// back): the search keeps an owner's hits on that alone.
func TestOwnersHoldLiveSessions(t *testing.T) {
	st := testStore(t)
	st.TrackChanges(true)
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		seedTexts(t, st, id, "hazelnut "+id, "almond "+id)
	}
	check := func(step string) {
		t.Helper()
		st.Call([]byte(`{"operation":"search","query":"hazelnut"}`)) // PAGED_OUT while e is a stub
		st.s.TakeFaults()
		for k, o := range st.s.Index.Owners {
			if o != nil {
				assert.Same(t, st.s.ByID[o.Session.ID()], o.Session, "%s: owner %d (%s)", step, k, o.Session.ID())
			}
		}
	}
	check("seeded")
	ok[TrashItem](t, st, `{"operation":"delete","sessionId":"b"}`)
	check("b in the trash")
	ok[Status](t, st, `{"operation":"trash.restore","sessionId":"b"}`)
	check("b restored")
	ok[Erased](t, st, `{"operation":"delete","sessionId":"c","permanent":true}`)
	check("c erased")
	ok[Status](t, st, obj{"operation": "snapshot.load", "sessionId": "d", "snapshot": json.RawMessage(snapshot(t, st, "d"))})
	check("d loaded again over itself")
	st.DrainChanges(true)
	restore := restoreOf(t, st, "e")
	ok[obj](t, st, `{"operation":"page.out","sessionId":"e"}`)
	check("e paged out")
	ok[Status](t, st, restore)
	check("e paged in")
	ok[obj](t, st, obj{"operation": "sync.forget", "sessionId": "a"})
	check("a forgotten")
	kept := st.s.SearchIndexBytes()
	require.NotNil(t, kept)
	_, err := st.s.LoadSearchIndex(kept)
	require.NoError(t, err)
	check("the kept index read back")
	assert.Equal(t, []string{"b", "d", "e"}, sessionsOf(runSearch(t, st, "hazelnut", nil)))
}

// sessionsOf returns the sessions of the hits, sorted, each once.
func sessionsOf(res SearchResult) []string {
	seen := map[string]bool{}
	var ids []string
	for _, h := range res.Hits {
		if !seen[h.SessionID] {
			seen[h.SessionID] = true
			ids = append(ids, h.SessionID)
		}
	}
	sort.Strings(ids)
	return ids
}
