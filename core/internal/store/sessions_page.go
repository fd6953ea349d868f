package store

import (
	"slices"
	"unicode/utf8"
)

// PageKey is where a page of the sessions newest first starts after: the
// updatedAt and sessionId of the last summary of the page before.
type PageKey struct {
	UpdatedAt string `json:"updatedAt"`
	SessionID string `json:"sessionId"`
}

// SessionsByUpdate returns the summaries of SessionList newest first:
// updatedAt descending, then sessionId descending, both compared as
// UTF-16 code units (CompareUTF16), the order of an IndexedDB index on
// [updatedAt, sessionId] read backwards (js/store/listing.js readHead),
// so a page read from IndexedDB before the wasm starts is the page core
// answers. Only summaries strictly after before (when not nil) are
// given, at most limit of them (limit < 0: all).
func (st *Store) SessionsByUpdate(before *PageKey, limit int) []SessionSummary {
	all := st.SessionList()
	slices.SortFunc(all, func(a, b SessionSummary) int {
		return -compareKey(PageKey{a.UpdatedAt, a.SessionID}, PageKey{b.UpdatedAt, b.SessionID})
	})
	from := 0
	if before != nil {
		from, _ = slices.BinarySearchFunc(all, *before, func(s SessionSummary, k PageKey) int {
			return -compareKey(PageKey{s.UpdatedAt, s.SessionID}, k)
		})
		if from < len(all) && all[from].UpdatedAt == before.UpdatedAt && all[from].SessionID == before.SessionID {
			from++
		}
	}
	all = all[from:]
	if limit >= 0 && limit < len(all) {
		all = all[:limit]
	}
	return all
}

// compareKey orders page keys as IndexedDB orders the array key
// [updatedAt, sessionId]: by updatedAt, then by sessionId.
func compareKey(a, b PageKey) int {
	if c := CompareUTF16(a.UpdatedAt, b.UpdatedAt); c != 0 {
		return c
	}
	return CompareUTF16(a.SessionID, b.SessionID)
}

// CompareUTF16 compares a and b (UTF-8) as sequences of UTF-16 code
// units, as JavaScript and IndexedDB compare strings: -1, 0 or 1. It
// differs from Go's byte order only where a character above U+FFFF
// (two code units, the first 0xD800–0xDBFF) meets one from U+E000 to
// U+FFFF, which UTF-16 puts after it and UTF-8 before. A byte that is
// not UTF-8 counts as U+FFFD.
func CompareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ua, ub := firstUnit(ra), firstUnit(rb)
			if ua == ub { // both above U+FFFF with one lead unit: the trail units order as the runes do
				ua, ub = ra, rb
			}
			if ua < ub {
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case a == "" && b == "":
		return 0
	case a == "":
		return -1
	}
	return 1
}

// firstUnit is the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r < 0x10000 {
		return r
	}
	return 0xD800 + (r-0x10000)>>10
}
