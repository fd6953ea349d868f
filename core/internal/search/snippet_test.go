package search

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// searchOne indexes texts (owner 1, nodes 0…) and returns the hits of query.
func searchOne(t *testing.T, query string, texts ...string) []Hit {
	t.Helper()
	ix := NewIndex()
	for i, text := range texts {
		ix.Add(1, int32(i), text, int64(i))
	}
	res := ix.Search(Query{Text: query, Limit: 10}, Filter{}, func(_ uint32, n int32) string { return texts[n] }, func(a, b uint32) bool { return a < b })
	return res.Hits
}

// highlights returns the highlighted parts of a hit's snippet.
func highlights(h Hit) []string {
	u := utf16.Encode([]rune(h.Snippet))
	var out []string
	for _, r := range h.Ranges {
		out = append(out, string(utf16.Decode(u[r[0]:r[1]])))
	}
	return out
}

func TestSnippetsStandAtTheBestMatch(t *testing.T) {
	var lines []string
	for i := range 200 {
		lines = append(lines, "line "+strconv.Itoa(i))
	}
	long := strings.Join(lines, "\n")
	cases := []struct {
		name, query, text string
		shows             string   // the snippet holds this
		marked            []string // and highlights exactly these words
	}{
		{"line 199 in a 200-line message shows line 199", "line 199", long, "line 199", []string{"line", "199"}},
		{"a word found only late is shown where it is", "line 150", long, "line 150", []string{"line", "150"}},
		{"the exact word, not the near miss, is highlighted", "99999", "first 9999 then later on, far away from the start of this text, past the lead and the window: 99999", "99999", []string{"99999"}},
		{"a near miss is highlighted when it is all there is", "99999", "only 9999 here", "9999", []string{"9999"}},
		{"the window with every word beats the first word", "apple zebra", "apple " + strings.Repeat("filler ", 40) + "apple and zebra together", "apple and zebra together", []string{"apple", "zebra"}},
		{"exact matches beat typo matches for the window", "orange kiwi", "orang kiwi " + strings.Repeat("filler ", 40) + "orange kiwi", "orange kiwi", []string{"orange", "kiwi"}},
		{"a short text is shown whole from its start", "world", "hello world", "hello world", []string{"world"}},
		{"a word's start within one edit is highlighted as far as it matched", "compct", "after the Compaction step", "Compaction", []string{"Compact"}},
		{"an exact prefix beats a prefix within one edit", "contai", "a contour and a container", "container", []string{"contai"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hits := searchOne(t, c.query, c.text)
			if len(hits) != 1 {
				t.Fatalf("Search(%q) = %d hits, want 1", c.query, len(hits))
			}
			h := hits[0]
			t.Logf("snippet %q", h.Snippet)
			if !strings.Contains(h.Snippet, c.shows) {
				t.Errorf("Search(%q) snippet = %q, want it to hold %q", c.query, h.Snippet, c.shows)
			}
			if got := distinct(highlights(h)); strings.Join(got, "|") != strings.Join(c.marked, "|") {
				t.Errorf("Search(%q) highlights = %q in %q, want %q", c.query, got, h.Snippet, c.marked)
			}
		})
	}
}

// distinct returns ss without repeats, in order of first appearance.
func distinct(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
