package search

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpus is a test corpus: texts[i] is node i of owner 1, all indexed
// unless only the first indexed are (the rest searched by a scan).
type corpus struct {
	ix      *Index
	texts   []string
	indexed int
}

func newCorpus(texts []string, indexed int) *corpus {
	c := &corpus{ix: NewIndex(), texts: texts, indexed: indexed}
	for i := 0; i < indexed; i++ {
		c.ix.Add(1, int32(i), texts[i], int64(i))
	}
	return c
}

// search returns the nodes of the best hits of query, best first.
func (c *corpus) search(query string, limit int) []int32 {
	q := Query{Text: query, Limit: limit}
	if c.indexed < len(c.texts) {
		q.Rest = func(yield func(uint32, int32, int64) bool) {
			for i := c.indexed; i < len(c.texts); i++ {
				if !yield(1, int32(i), int64(i)) {
					return
				}
			}
		}
	}
	res := c.ix.Search(q, Filter{}, func(_ uint32, n int32) string { return c.texts[n] }, func(a, b uint32) bool { return a < b })
	var nodes []int32
	for _, h := range res.Hits {
		nodes = append(nodes, h.Node)
	}
	return nodes
}

// rank is the place (0 = first) of node in hits, or -1.
func rank(hits []int32, node int32) int {
	for i, n := range hits {
		if n == node {
			return i
		}
	}
	return -1
}

// commonAndRare returns 1,000 texts about a common word ("debit", in
// every other one, the newest last) and one, the oldest, holding the rare
// word "debian": "debin" is one typo from both.
func commonAndRare() []string {
	texts := []string{"install it on debian stable"}
	for i := 1; i < 1000; i++ {
		if i%2 == 0 {
			texts = append(texts, fmt.Sprintf("we debit step %d here", i))
		} else {
			texts = append(texts, fmt.Sprintf("note %d without the word", i))
		}
	}
	return texts
}

func TestRankingByRarity(t *testing.T) {
	for _, indexed := range []int{1000, 0, 500} {
		t.Run(fmt.Sprintf("a typo of a rare word ranks it above the same typo of a common one (%d of 1000 indexed)", indexed), func(t *testing.T) {
			c := newCorpus(commonAndRare(), indexed)
			hits := c.search("debin", 50)
			require.NotEmpty(t, hits)
			assert.Equal(t, 0, rank(hits, 0), "search(debin) = %v, want node 0 (debian) first", hits)
			assert.Contains(t, hits, int32(998), "the common word is still found")
		})
	}
	t.Run("a rare word of a two-word query ranks its message first", func(t *testing.T) {
		texts := append(commonAndRare(), "we debit the debian upgrade")
		c := newCorpus(texts, len(texts))
		hits := c.search("we debin", 50)
		assert.Equal(t, 1000, int(hits[0]), "search(we debin) = %v", hits)
	})
}

func TestRankingExactBeforeTypo(t *testing.T) {
	texts := []string{"a zyxwvut here"} // a rare word one typo from "zyxwvu"
	for i := 1; i < 200; i++ {
		texts = append(texts, fmt.Sprintf("zyxwvu number %d", i))
	}
	for _, indexed := range []int{len(texts), 0} {
		c := newCorpus(texts, indexed)
		hits := c.search("zyxwvu", 500)
		require.Len(t, hits, 200)
		assert.Equal(t, 199, rank(hits, 0), "exact matches of a common word all rank before a typo match of a rare one (%d indexed)", indexed)
		hits = c.search("zyxwvut", 500)
		assert.Equal(t, 0, rank(hits, 0), "the exact rare word first (%d indexed)", indexed)
	}
}

func TestTypoAllowanceCountsTheWordsLength(t *testing.T) {
	tests := []struct {
		name, text, query string
		found             bool
	}{
		{"two deletions from 9 letters (a 7-letter query)", "the container runtime", "contaer", true},
		{"two deletions from 10 letters", "a kubernetes cluster", "kuberntes", true},
		{"two insertions into 7 letters", "the runtime", "rruntimme", true},
		{"three deletions from 9 letters are too many", "the container runtime", "cntinr", false},
		{"a word's start within one edit (an insertion)", "context compaction", "compct", true},
		{"a word's start within one edit (a substitution)", "the container runtime", "contar", true},
		{"a word's start within one edit (a transposition)", "the dockerfile", "dokcer", true},
		{"a word's start two edits away is too far", "context compaction", "compcx", false},
		{"a word's start within one edit needs 5 letters", "context compaction", "cmpa", false},
		{"a word's start within one edit keeps its first two letters", "context compaction", "cpmpact", false},
		{"one typo in 4 letters", "a blue door", "dorr", true},
		{"no typos in 3 letters", "a blue door", "dor", false},
		{"two substitutions in 7 letters are too many", "the runtime", "rantimo", false},
	}
	for _, tt := range tests {
		for _, indexed := range []int{1, 0} {
			t.Run(fmt.Sprintf("%s (indexed %v)", tt.name, indexed == 1), func(t *testing.T) {
				c := newCorpus([]string{tt.text}, indexed)
				hits := c.search(tt.query, 10)
				assert.Equal(t, tt.found, len(hits) == 1, "search(%q) in %q = %v", tt.query, tt.text, hits)
			})
		}
	}
}

func TestAllowance(t *testing.T) {
	tests := []struct{ n, l, want int }{
		{3, 3, 0}, {3, 4, 0}, {4, 4, 1}, {4, 8, 2}, {7, 7, 1}, {7, 9, 2}, {9, 7, 2}, {8, 6, 2}, {5, 3, 1},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, allowance(tt.n, tt.l), "allowance(%d, %d)", tt.n, tt.l)
	}
}

func TestRarity(t *testing.T) {
	assert.Equal(t, rarity(1000, 1000), uint64(0), "a word in every document")
	assert.Greater(t, rarity(1000, 1), rarity(1000, 10), "rarer weighs more")
	assert.Equal(t, uint64(rareMax), rarity(1e300, 0), "capped")
	// ln(1 + (1000-10+0.5)/(10+0.5)) = 4.5578…, × 8 = 36.46
	assert.Equal(t, uint64(36), rarity(1000, 10))
}

func TestScanRanksAsTheIndexDoes(t *testing.T) {
	texts := []string{
		"The deployment pipeline failed", "retry the deploymnet tomorrow", "Café au lait, CAFE noir", "我喜歡用signal 喜歡",
		"a depolyment at night", "deployments and pipelines", "signals and noise", "naïve résumé", "éé abc", "Straße and strasse",
		"emoji 👍🏽 great", "the the the", "kubernetes cluster", "a kubernets clutser", "deploy it", "pipeline deployment",
	}
	for i := 0; i < 40; i++ {
		texts = append(texts, fmt.Sprintf("filler %d of the pipeline", i))
	}
	for _, query := range []string{"deployment", "deploy", "pipeline deployment", "café", "cafe", "喜歡", "我喜歡用", "signal", "éé", "ée", "strasse", "👍", "the", "kubernetes cluster", "naive resume", "nowhere", "pipelin"} {
		whole := newCorpus(texts, len(texts))
		want := whole.search(query, 100)
		for _, indexed := range []int{0, 7, len(texts) - 1} {
			c := newCorpus(texts, indexed)
			assert.Equal(t, want, c.search(query, 100), "search(%q) with %d of %d indexed", query, indexed, len(texts))
		}
	}
}

// TestALookupOfFewDocumentsRanksAsTheWalk: a rare word beside words in
// every document (the later units are looked up, not walked: see
// intersect) ranks and counts as the scan of the same texts does, typos,
// prefixes and several terms to a word included.
func TestALookupOfFewDocumentsRanksAsTheWalk(t *testing.T) {
	var texts []string
	for i := 0; i < 3000; i++ {
		text := fmt.Sprintf("session %d message alpha beta", i)
		if i%997 == 0 {
			text += " quokka"
		}
		if i%1499 == 0 {
			text += " quokkas betamax"
		}
		texts = append(texts, text)
	}
	indexed := newCorpus(texts, len(texts))
	scanned := newCorpus(texts, 0)
	for _, query := range []string{"quokka alpha beta", "quokka session message", "quoka alpha", "quokk bet", "session 1499 message", "alpha quokkas beta", "betamax alpha"} {
		want := scanned.search(query, 50)
		require.NotEmpty(t, want, query)
		assert.Equal(t, want, indexed.search(query, 50), "search(%q)", query)
		u, ok := indexed.ix.units(parseQuery(query, nil))
		require.True(t, ok)
		assert.Less(t, probeCost(indexed.ix, u[len(u)-1], 10), u[len(u)-1].cost, "%q: its last unit is looked up", query)
	}
}

// TestProximityCutKeepsTheAnswer: proximityCut measures only the
// candidates that can be among the best limit, and the hits are the
// first limit of those a search measuring its whole pool returns (limit
// 200 = proximityPool), scores and snippets too: texts of a few words in
// random order (ties in points everywhere, proximity from 0 to the most),
// queries of two and three words, exact and one typo away, indexed and
// scanned.
func TestProximityCutKeepsTheAnswer(t *testing.T) {
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"}
	rnd := uint32(7)
	next := func(n int) int { rnd = rnd*1664525 + 1013904223; return int(rnd>>16) % n }
	texts := make([]string, 150)
	for i := range texts {
		s := words[next(len(words))]
		for k := next(12); k >= 0; k-- {
			s += " " + words[next(len(words))]
		}
		texts[i] = s
	}
	search := func(c *corpus, query string, limit int) []Hit {
		q := Query{Text: query, Limit: limit}
		if c.indexed < len(c.texts) {
			q.Rest = func(yield func(uint32, int32, int64) bool) {
				for i := c.indexed; i < len(c.texts); i++ {
					if !yield(1, int32(i), int64(i/3)) {
						return
					}
				}
			}
		}
		return c.ix.Search(q, Filter{}, func(_ uint32, n int32) string { return c.texts[n] }, func(a, b uint32) bool { return a < b }).Hits
	}
	measured := 0
	for _, indexed := range []int{len(texts), 100} {
		c := newCorpus(texts, indexed)
		for _, query := range []string{"alpha bravo", "bravo alpha", "delta echo golf", "alhpa bravo", "charlie hotle", "echo"} {
			all := search(c, query, proximityPool)
			require.NotEmpty(t, all, query)
			for _, limit := range []int{1, 3, 10, 40} {
				got := search(c, query, limit)
				want := all[:min(limit, len(all))]
				assert.Equal(t, want, got, "%q limit %d, %d indexed", query, limit, indexed)
				measured += len(got)
			}
		}
	}
	assert.Greater(t, measured, 200)
}

// TestLoopsInChunksAnswerAsOneLoop: the walks over posting lists and
// matches, and the decoding of a packed list, run in calls of loopChunk
// items (see loopChunk). Lists of several chunks — 3·loopChunk+123
// documents over four owners in turn, the second left out by the filter —
// answer as the scan does, count every match, and answer the same once
// encoded and decoded; a packed list bad in its last chunk reads as none.
func TestLoopsInChunksAnswerAsOneLoop(t *testing.T) {
	const n = 3*loopChunk + 123
	texts := make([][]string, 4)
	ix := NewIndex()
	want := map[string]int{}
	for i := 0; i < n; i++ {
		owner := uint32(1 + i*4/n)
		text := fmt.Sprintf("note %d alpha", i)
		if i%3 == 0 {
			text += " beta"
		}
		ix.Add(owner, int32(len(texts[owner-1])), text, int64(i))
		texts[owner-1] = append(texts[owner-1], text)
		if owner != 2 {
			want["alpha"]++
			if i%3 == 0 {
				want["alpha beta"]++
			}
		}
	}
	keep := Filter{Owner: func(o uint32) bool { return o != 2 }}
	text := func(o uint32, node int32) string { return texts[o-1][node] }
	less := func(a, b uint32) bool { return a < b }
	scan := func(yield func(uint32, int32, int64) bool) {
		i := 0
		for o := range texts {
			for node := range texts[o] {
				if !yield(uint32(o+1), int32(node), int64(i)) {
					return
				}
				i++
			}
		}
	}
	decoded, err := Decode(ix.Encode(nil, func(o uint32) uint32 { return o }), 4)
	require.NoError(t, err)
	for _, q := range []string{"alpha", "alpha beta", "alpga beta", "beta note"} {
		got := ix.Search(Query{Text: q, Limit: 30}, keep, text, less)
		scanned := NewIndex().Search(Query{Text: q, Limit: 30, Rest: scan}, keep, text, less)
		assert.Equal(t, scanned, got, q)
		if c, ok := want[q]; ok {
			assert.Equal(t, c, got.Total, q)
		}
		assert.Equal(t, got, decoded.Search(Query{Text: q, Limit: 30}, keep, text, less), "%q, decoded", q)
	}
	assert.Len(t, ix.Search(Query{Text: "alpha", Limit: 30}, keep, text, less).Hits, 30)
	assert.False(t, decoded.Damaged())
	sizes := []int{0, len(texts[0]), len(texts[1]), len(texts[2]), len(texts[3])}
	assert.True(t, decoded.CheckOwners(sizes), "every document read, each node once")
	sizes[3], sizes[4] = sizes[3]+1, sizes[4]-1
	assert.False(t, decoded.CheckOwners(sizes), "the last owner's last node (in the last chunk) is past its size")
	_, err = Decode(ix.Encode(nil, func(o uint32) uint32 { return o }), 3)
	assert.Error(t, err, "owner 4's documents, in the last chunk, are past the owners")

	// A gap of 0 in the last chunk of "alpha"'s packed list: damaged, and
	// the term finds nothing (not the documents decoded before it).
	bad, err := Decode(ix.Encode(nil, func(o uint32) uint32 { return o }), 4)
	require.NoError(t, err)
	term := bad.lookupWord([]byte("alpha"))
	require.GreaterOrEqual(t, term, int32(0))
	pk := bad.packed[term]
	require.Greater(t, int(pk.n), 2*loopChunk)
	pk.bytes = append([]byte{}, pk.bytes...)
	pk.bytes[len(pk.bytes)-1] = 0
	bad.packed[term] = pk
	assert.Zero(t, bad.Search(Query{Text: "alpha", Limit: 30}, keep, text, less).Total)
	assert.True(t, bad.Damaged())
}

// TestAKeptPoolAnswersTheSameQueryAgain: a query with Keep keeps its
// ranked pool; the same query asked again while the documents have not
// changed answers from it — with the texts it could not read the first
// time, as the store's retry after loading the sessions of its hits does,
// equal to a ranking afresh — and never after a document was added or
// made dead, for another text or limit, without Keep, or when ranking
// read texts (a run of three unspaced characters).
func TestAKeptPoolAnswersTheSameQueryAgain(t *testing.T) {
	texts := [][]string{{}, {}, {}}
	ix := NewIndex()
	add := func(owner uint32, text string) {
		ix.Add(owner, int32(len(texts[owner-1])), text, int64(len(ix.docs)))
		texts[owner-1] = append(texts[owner-1], text)
	}
	for i := 0; i < 300; i++ {
		add(uint32(1+i%3), fmt.Sprintf("note %d about the snapshot of a branch 我喜歡用", i))
	}
	text := func(o uint32, n int32) string { return texts[o-1][n] }
	paged := func(o uint32, n int32) string { // owner 3 not in memory
		if o == 3 {
			return ""
		}
		return text(o, n)
	}
	less := func(a, b uint32) bool { return a < b }
	all := Filter{}
	no1 := Filter{Owner: func(o uint32) bool { return o != 1 }} // consulted only by a ranking
	owners := func(r Result) map[uint32]int {
		m := map[uint32]int{}
		for _, h := range r.Hits {
			m[h.Owner]++
		}
		return m
	}
	for _, q := range []string{"snapshto", "snapshot branch"} {
		want := ix.Search(Query{Text: q, Limit: 20}, all, text, less)
		require.Len(t, want.Hits, 20, q)
		ix.Search(Query{Text: q, Limit: 20, Keep: true}, all, paged, less)
		assert.Equal(t, want, ix.Search(Query{Text: q, Limit: 20, Keep: true}, all, text, less), "%q: from the pool, the texts read now", q)
		assert.Equal(t, want, ix.Search(Query{Text: q, Limit: 20, Keep: true}, no1, text, less), "%q: the pool again (its filter not asked)", q)
		assert.Zero(t, owners(ix.Search(Query{Text: q, Limit: 19, Keep: true}, no1, text, less))[1], "%q: another limit ranks afresh", q)
		assert.Zero(t, owners(ix.Search(Query{Text: q + " note", Limit: 20, Keep: true}, no1, text, less))[1], "%q: another text ranks afresh", q)
		assert.Zero(t, owners(ix.Search(Query{Text: q, Limit: 20}, no1, text, less))[1], "%q: without Keep it ranks afresh", q)
	}
	ix.Search(Query{Text: "snapshot", Limit: 20, Keep: true}, all, text, less)
	add(2, "the newest snapshot")
	got := ix.Search(Query{Text: "snapshot", Limit: 20, Keep: true}, no1, text, less)
	assert.Zero(t, owners(got)[1], "a document added: ranked afresh")
	assert.Equal(t, "the newest snapshot", got.Hits[0].Snippet)
	ix.Search(Query{Text: "snapshot", Limit: 20, Keep: true}, all, text, less)
	ix.DropOwner(3, len(texts[2]))
	got = ix.Search(Query{Text: "snapshot", Limit: 20, Keep: true}, no1, text, less)
	assert.Zero(t, owners(got)[1], "an owner's documents made dead: ranked afresh")
	assert.Zero(t, owners(got)[3], "an owner's documents made dead: ranked afresh")
	ix.Search(Query{Text: "喜歡用", Limit: 20, Keep: true}, all, text, less)
	assert.Zero(t, owners(ix.Search(Query{Text: "喜歡用", Limit: 20, Keep: true}, no1, text, less))[1], "a run of three characters reads texts: never kept")
}
