package search

// boundedDistance returns the optimal string alignment distance between a
// and b (Levenshtein's insertions, deletions and substitutions plus the
// transposition of two adjacent characters, each costing 1) when it is at
// most max, and max+1 otherwise. It compares runes; the inputs are folded
// first (see foldRune), nothing here normalises.
//
// The single-row dynamic programme is the one of
// github.com/agnivade/levenshtein (MIT licence, third_party/levenshtein/LICENSE;
// the tests use the package as a reference),
// changed in three ways: a transposition costs 1, as a typo "teh" for
// "the" should (Damerau; the "optimal string alignment" variant, which
// keeps one extra row); only the diagonal band of width 2·max+1 is
// computed; and the loop stops as soon as every cell of a row exceeds
// max, since the distance can then only grow. A typo check against a
// random word of the vocabulary usually stops after max+1 rows.
//
// prev2, prev and cur are scratch rows of at least len(b)+1 entries.
func boundedDistance(a, b []rune, max int, rows *[3][]int) int {
	if len(a) > len(b) {
		a, b = b, a
	}
	la, lb := len(a), len(b)
	if lb-la > max {
		return max + 1
	}
	if la == 0 {
		return lb
	}
	for k := range rows {
		if cap(rows[k]) < lb+1 {
			rows[k] = make([]int, lb+1)
		}
		rows[k] = rows[k][:lb+1]
	}
	prev2, prev, cur := rows[0], rows[1], rows[2]
	inf := max + 1
	for j := 0; j <= lb; j++ {
		if j <= max {
			prev[j] = j
		} else {
			prev[j] = inf
		}
	}
	for i := 1; i <= la; i++ {
		lo, hi := i-max, i+max
		if lo < 1 {
			lo = 1
		}
		if hi > lb {
			hi = lb
		}
		cur[lo-1] = inf
		if lo == 1 && i <= max {
			cur[0] = i
		}
		rowMin := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := prev[j-1] + cost // substitution or match
			if d := prev[j] + 1; d < v {
				v = d // deletion
			}
			if d := cur[j-1] + 1; d < v {
				v = d // insertion
			}
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				if d := prev2[j-2] + 1; d < v {
					v = d // transposition
				}
			}
			if v > inf {
				v = inf
			}
			cur[j] = v
			if v < rowMin {
				rowMin = v
			}
		}
		if hi < lb {
			cur[hi+1] = inf
		}
		if rowMin > max {
			return inf
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if prev[lb] > max {
		return inf
	}
	return prev[lb]
}

// prefixTypoMin is the shortest query word (in characters) that matches
// a longer word's start within one edit (see prefixTypo): shorter ones
// reach too many words to mean anything.
const prefixTypoMin = 5

// prefixTypo returns how many characters of tok a query word w matches as
// the start of tok within one edit, a word being typed with a typo in it
// ("compct" for "compaction": "compact" is one insertion away): a prefix
// of tok of len(w), len(w)+1 or len(w)−1 characters (the first found at
// distance 0, else 1, in that order), shorter than tok, whose first two
// characters are w's (the vocabulary's candidates are found by them). 0
// when none matches or w is shorter than prefixTypoMin. The caller has
// tried an exact prefix first. (Meilisearch matches the word being typed
// as a prefix within its typo allowance too:
// https://www.meilisearch.com/docs/learn/relevancy/typo_tolerance_settings.)
func prefixTypo(w, tok []rune, rows *[3][]int) int {
	n := len(w)
	if n < prefixTypoMin || len(tok) < n || tok[0] != w[0] || tok[1] != w[1] {
		return 0
	}
	best, bestD := 0, 2
	for _, m := range [3]int{n, n + 1, n - 1} {
		if m >= len(tok) {
			continue
		}
		if d := boundedDistance(w, tok[:m], 1, rows); d < bestD {
			best, bestD = m, d
		}
	}
	return best
}

// allowance is the number of edits a query word of n characters may be
// away from a word of the text of l characters: maxTypos of the longer of
// the two, so that two deletions from a 9-letter word (a 7-letter query)
// still find it, as two insertions into a 7-letter word would; but no
// typos at all for queries of up to 3 characters, whose neighbours within
// one edit are too many to mean anything (they match exactly or as a
// prefix only). The caller still needs the distance to be at most the
// allowance, which for l and n further apart than it never holds.
func allowance(n, l int) int {
	if n <= 3 {
		return 0
	}
	return maxTypos(max(n, l))
}

// maxTypos is the number of edits allowed between words the longer of
// which has n characters: 0 for up to 3 characters, 1 for 4 to 7, 2 for
// 8 or more.
func maxTypos(n int) int {
	switch {
	case n <= 3:
		return 0
	case n <= 7:
		return 1
	}
	return 2
}
