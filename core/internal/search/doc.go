// Package search is sessiontree's full-text search: text folding (case,
// accents, width; fold.go), tokenizing into words and unspaced runs, an
// inverted index with typo-tolerant word matching (index.go, query.go,
// distance.go), ranking by match points and word rarity (rank.go), a scan
// of documents not yet indexed that answers as the index would (scan.go),
// and snippets (snippet.go).
//
// It knows nothing of sessions or stores: a document is the text of node
// number node of an owner, a non-zero uint32 key of the caller's choosing
// (core numbers its sessions), added with Index.Add; Index.Search takes a query and the caller's keep,
// text and ordering functions and returns hits as (owner, node, score,
// snippet, ranges). Offsets in snippets are UTF-16 code units, as a
// browser counts them. The package imports the standard library and
// golang.org/x/text (Unicode normalization for folding).
package search
