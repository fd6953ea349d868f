package search

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encodeTexts are documents of every kind of term: words, accents, an
// unspaced script, emoji, typos to find.
var encodeTexts = []string{
	"The deployment pipeline failed", "retry the deploymnet tomorrow", "Café au lait, CAFE noir", "我喜歡用signal 喜歡",
	"a depolyment at night", "deployments and pipelines", "signals and noise", "naïve résumé", "emoji 👍🏽 great",
	"kubernetes cluster", "a kubernets clutser", "pipeline deployment",
}

var encodeQueries = []string{"deployment", "deploy", "pipeline deployment", "café", "喜歡", "我喜歡用", "signal", "👍", "kubernetes cluster", "naive resume", "nowhere", "pipelin"}

// searchAll answers query on ix, owners' texts in texts[owner-1], as (owner, node, score, snippet) lines.
func searchAll(ix *Index, texts [][]string, query string) []string {
	res := ix.Search(Query{Text: query, Limit: 100}, Filter{}, func(o uint32, n int32) string { return texts[o-1][n] }, func(a, b uint32) bool { return a < b })
	var out []string
	for _, h := range res.Hits {
		out = append(out, fmt.Sprintf("%d/%d %.4f %s", h.Owner, h.Node, h.Score, h.Snippet))
	}
	return append(out, fmt.Sprintf("total %d", res.Total))
}

func TestEncodeKeepsTheLiveDocumentsOnly(t *testing.T) {
	// Three owners; owner 2 is left out when written, and a document of
	// owner 3 was replaced (dead). The index read back answers every query
	// as an index built from the live documents alone.
	texts := [][]string{encodeTexts[:5], encodeTexts[5:9], encodeTexts[9:]}
	ix := NewIndex()
	for o, list := range texts {
		for i, text := range list {
			ix.Add(uint32(o+1), int32(i), text, int64(1000*o+i))
		}
	}
	ix.Replace(3, 0, "kubernetes cluster again", 2000)
	texts[2][0] = "kubernetes cluster again"
	data := ix.Encode(nil, func(o uint32) uint32 {
		return map[uint32]uint32{1: 1, 2: 0, 3: 2}[o]
	})

	got, err := Decode(data, 2)
	require.NoError(t, err)
	live := NewIndex()
	for i, text := range texts[0] {
		live.Add(1, int32(i), text, int64(i))
	}
	for i, text := range texts[2][1:] {
		live.Add(2, int32(i+1), text, int64(2000+i+1))
	}
	live.Add(2, 0, texts[2][0], 2000)
	kept := [][]string{texts[0], texts[2]}
	assert.Equal(t, live.LiveDocs(), got.LiveDocs())
	assert.Equal(t, 0, got.DeadDocs())
	for _, q := range encodeQueries {
		assert.Equal(t, searchAll(live, kept, q), searchAll(got, kept, q), "search(%q)", q)
	}
	// It goes on indexing as any index does.
	got.Add(1, 5, "a brand new deployment", 5)
	live.Add(1, 5, "a brand new deployment", 5)
	kept[0] = append(kept[0], "a brand new deployment")
	assert.Equal(t, searchAll(live, kept, "deployment"), searchAll(got, kept, "deployment"))
}

func TestDecodeRefusesDamagedBytes(t *testing.T) {
	ix := NewIndex()
	for i, text := range encodeTexts {
		ix.Add(1, int32(i), text, int64(i))
	}
	data := ix.Encode(nil, func(o uint32) uint32 { return o })
	_, err := Decode(data, 1)
	require.NoError(t, err)
	_, err = Decode(data, 0)
	assert.Error(t, err, "an owner beyond those given")
	for n := 0; n < len(data); n++ {
		_, err := Decode(data[:n], 1)
		assert.Error(t, err, "cut at %d of %d bytes", n, len(data))
	}
	_, err = Decode(append(data, 0), 1)
	assert.Error(t, err, "a byte too many")
}

func FuzzDecode(f *testing.F) {
	ix := NewIndex()
	for i, text := range encodeTexts {
		ix.Add(uint32(i%3+1), int32(i), text, int64(i)*1e9)
	}
	f.Add(ix.Encode(nil, func(o uint32) uint32 { return o }))
	f.Add([]byte{1, 1, 0, 0, 1, 0, 1, 'a', 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Decode(data, 3)
		if err != nil {
			return
		}
		// Whatever it read answers queries without a fault.
		texts := [][]string{{}, {}, {}}
		for _, d := range got.docs {
			for len(texts[d.owner-1]) <= int(d.node) && d.node < 1000 {
				texts[d.owner-1] = append(texts[d.owner-1], "some text")
			}
		}
		text := func(o uint32, n int32) string {
			if int(n) < len(texts[o-1]) {
				return texts[o-1][n]
			}
			return ""
		}
		got.Search(Query{Text: "a some", Limit: 5}, Filter{}, text, func(a, b uint32) bool { return a < b })
	})
}

// TestDecodeLeavesThePostingsPackedUntilAQueryNeedsThem: a decoded index
// answers as the one written, decoding a term's list only when a query
// reaches it, with the documents added since after them.
func TestDecodeLeavesThePostingsPackedUntilAQueryNeedsThem(t *testing.T) {
	ix := NewIndex()
	for i, text := range encodeTexts {
		ix.Add(1, int32(i), text, int64(i))
	}
	got, err := Decode(ix.Encode(nil, func(o uint32) uint32 { return o }), 1)
	require.NoError(t, err)
	packed := 0
	for _, pk := range got.packed {
		if pk.n > 0 {
			packed++
		}
	}
	assert.Equal(t, len(got.postings), packed, "every list packed")
	texts := [][]string{append([]string{}, encodeTexts...)}
	assert.Equal(t, searchAll(ix, texts, "deployment"), searchAll(got, texts, "deployment"))
	assert.Less(t, countPacked(got), packed, "the lists it reached were read")
	assert.Greater(t, countPacked(got), 0, "the rest stay packed")
	// Added since: after the packed ones, and found with them.
	texts[0] = append(texts[0], "deployment again")
	ix.Add(1, int32(len(encodeTexts)), "deployment again", 99)
	got.Add(1, int32(len(encodeTexts)), "deployment again", 99)
	for _, q := range encodeQueries {
		assert.Equal(t, searchAll(ix, texts, q), searchAll(got, texts, q), q)
	}
	assert.False(t, got.Damaged())
}

func countPacked(ix *Index) int {
	n := 0
	for _, pk := range ix.packed {
		if pk.n > 0 {
			n++
		}
	}
	return n
}
