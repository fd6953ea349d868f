package core

import (
	"cmp"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"

	"github.com/sessiontree/sessiontree/core/internal/store"
)

// restoreAt stores an empty session id whose updatedAt is at, as the JS
// shim restores a stored one.
func restoreAt(t *testing.T, st *Store, id, at string) {
	t.Helper()
	req := fmt.Sprintf(`{"operation":"restore","updatedAt":%q,"createdAt":"2026-01-01T00:00:00.000Z","snapshot":{"version":1,"sessionId":%q,"cursor":null,"activeBranch":"main","nodes":[]}}`, at, id)
	ok[Status](t, st, req)
}

func pageIDs(list []SessionSummary) []string {
	ids := make([]string, len(list))
	for i, s := range list {
		ids[i] = s.SessionID
	}
	return ids
}

func TestSessionsNewestFirst(t *testing.T) {
	st := testStore(t)
	restoreAt(t, st, "old", "2026-01-01T00:00:00.000Z")
	restoreAt(t, st, "b", "2026-03-01T00:00:00.000Z")
	restoreAt(t, st, "a", "2026-03-01T00:00:00.000Z") // a tie: sessionId descending puts b first
	restoreAt(t, st, "undated", "")
	ok[Status](t, st, `{"operation":"create","sessionId":"new"}`) // the test clock: 2026-11-29
	ok[Node](t, st, `{"operation":"append","sessionId":"old","message":{"role":"user","content":"now the newest"}}`)

	created := ok[[]SessionSummary](t, st, `{"operation":"sessions"}`)
	// Created at the same time, the first four are in sessionId order, as a store restored from IndexedDB lists them.
	assert.Equal(t, []string{"a", "b", "old", "undated", "new"}, pageIDs(created), "creation order stays the default")
	assert.Equal(t, created, ok[[]SessionSummary](t, st, `{"operation":"sessions","order":"created"}`))

	all := ok[[]SessionSummary](t, st, `{"operation":"sessions","order":"updated"}`)
	assert.Equal(t, []string{"old", "new", "b", "a", "undated"}, pageIDs(all))

	// Pages of two, each after the last of the one before, make the whole list.
	var walked []string
	var before *store.PageKey
	for pages := 0; pages < 10; pages++ {
		req := map[string]any{"operation": "sessions", "order": "updated", "limit": 2}
		if before != nil {
			req["before"] = before
		}
		page := ok[[]SessionSummary](t, st, req)
		walked = append(walked, pageIDs(page)...)
		if len(page) < 2 {
			break
		}
		last := page[len(page)-1]
		before = &store.PageKey{UpdatedAt: last.UpdatedAt, SessionID: last.SessionID}
	}
	assert.Equal(t, pageIDs(all), walked)

	// A key no session has (one erased meanwhile) goes on from where it would stand.
	gone := ok[[]SessionSummary](t, st, `{"operation":"sessions","order":"updated","before":{"updatedAt":"2026-03-01T00:00:00.000Z","sessionId":"az"}}`)
	assert.Equal(t, []string{"a", "undated"}, pageIDs(gone))
	assert.Empty(t, ok[[]SessionSummary](t, st, `{"operation":"sessions","order":"updated","before":{"updatedAt":"","sessionId":"undated"}}`))
}

func TestSessionsNewestFirstComparesUTF16(t *testing.T) {
	st := testStore(t)
	// U+FF5E is one UTF-16 unit (0xFF5E); U+1F600 is two (0xD83D 0xDE00): JavaScript and IndexedDB put U+FF5E after it, Go's byte order before.
	restoreAt(t, st, "\U0001F600", "2026-03-01T00:00:00.000Z")
	restoreAt(t, st, "\uFF5E", "2026-03-01T00:00:00.000Z")
	restoreAt(t, st, "z", "2026-03-01T00:00:00.000Z")
	got := ok[[]SessionSummary](t, st, `{"operation":"sessions","order":"updated"}`)
	assert.Equal(t, []string{"\uFF5E", "\U0001F600", "z"}, pageIDs(got))
}

// unitOrder is the order of a and b as JavaScript compares strings: by UTF-16 code units.
func unitOrder(a, b string) int {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			if ua[i] < ub[i] {
				return -1
			}
			return 1
		}
	}
	return cmp.Compare(len(ua), len(ub))
}

func TestCompareUTF16(t *testing.T) {
	words := []string{"", "a", "ab", "b", "\u00e9", "\uD7FF", "\uE000", "\uFF5E", "\uFFFF", "\U00010000", "\U0001F600", "\U0001F601", "\U0010FFFF", "a\U0001F600", "a\uFFFF"}
	differ := 0
	for _, a := range words {
		for _, b := range words {
			assert.Equal(t, unitOrder(a, b), store.CompareUTF16(a, b), "%q against %q", a, b)
			if unitOrder(a, b) != strings.Compare(a, b) {
				differ++
			}
		}
	}
	assert.Greater(t, differ, 0, "the words hold pairs Go's byte order puts the other way")
}

func TestSessionsPageBadRequests(t *testing.T) {
	st := testStore(t)
	restoreAt(t, st, "s", "2026-03-01T00:00:00.000Z")
	for req, want := range map[string]string{
		`{"operation":"sessions","order":"newest"}`:                                                      `field "order" must be "created" or "updated", not "newest"`,
		`{"operation":"sessions","order":3}`:                                                             `field "order" must be a string`,
		`{"operation":"sessions","order":"updated","limit":0}`:                                           `field "limit" must be an integer from 1 to 2147483647`,
		`{"operation":"sessions","order":"updated","limit":2.5}`:                                         `field "limit" must be an integer from 1 to 2147483647`,
		`{"operation":"sessions","order":"updated","limit":"5"}`:                                         `field "limit" must be an integer from 1 to 2147483647`,
		`{"operation":"sessions","before":{"updatedAt":"","sessionId":"s"}}`:                             `field "before" needs "order": "updated"`,
		`{"operation":"sessions","order":"updated","before":"s"}`:                                        `field "before" must be {"updatedAt": string, "sessionId": string}`,
		`{"operation":"sessions","order":"updated","before":{"sessionId":"s"}}`:                          `field "before" must be {"updatedAt": string, "sessionId": string}`,
		`{"operation":"sessions","order":"updated","before":{"updatedAt":"","sessionId":7}}`:             `field "before" must be {"updatedAt": string, "sessionId": string}`,
		`{"operation":"sessions","order":"updated","before":{"updatedAt":"","sessionId":""}}`:            `field "before" must be {"updatedAt": string, "sessionId": string}`,
		`{"operation":"sessions","order":"updated","before":{"updatedAt":null,"sessionId":"a"}}`:         `field "before" must be {"updatedAt": string, "sessionId": string}`,
		`{"operation":"sessions","order":"updated","before":{"updatedAt":"2024","sessionId":null}}`:      `field "before" must be {"updatedAt": string, "sessionId": string}`,
		`{"operation":"sessions","order":"updated","before":{"updatedAt":"2024","sessionId":"\ud800"}}`:  `field "before" holds a lone UTF-16 surrogate`,
		`{"operation":"sessions","order":"updated","before":{"updatedAt":"2024\udc00","sessionId":"a"}}`: `field "before" holds a lone UTF-16 surrogate`,
	} {
		assert.Contains(t, fails(t, st, req, InvalidArgument), want, req)
	}
	assert.Len(t, ok[[]SessionSummary](t, st, `{"operation":"sessions","order":"updated","limit":2147483647}`), 1)
}
