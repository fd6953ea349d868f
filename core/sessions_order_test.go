package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// sessionIDs is the order of the sessions answer.
func sessionIDs(t *testing.T, st *Store) []string {
	t.Helper()
	var ids []string
	for _, s := range ok[[]SessionSummary](t, st, `{"operation":"sessions"}`) {
		ids = append(ids, s.SessionID)
	}
	return ids
}

// The default order of sessions is creation order (createdAt, then
// sessionId as UTF-16 code units) whatever order the sessions came in: a
// store restored from IndexedDB adds them in that order (js/store/listing.js
// byCreation), and a tab reloaded must list them as before the reload. A
// session back from the trash, or imported with its own older dates, was
// listed last until then.
func TestSessionsListInCreationOrderAsAStoreRestoredFromItsRecords(t *testing.T) {
	st := chatStore(t)
	for _, id := range []string{"s1", "s2", "s3"} {
		ok[Status](t, st, `{"operation":"create","sessionId":"`+id+`"}`)
	}
	ok[TrashItem](t, st, `{"operation":"delete","sessionId":"s1"}`)
	ok[Status](t, st, `{"operation":"trash.restore","sessionId":"s1"}`)
	mustImport(t, st, []byte(`[{"id":"g","title":"T","current_node":"b","mapping":{
		"a":{"id":"a","parent":null,"children":["b"],"message":{"author":{"role":"user"},"create_time":1756000001,"content":{"content_type":"text","parts":["q"]}}},
		"b":{"id":"b","parent":"a","children":[],"message":{"author":{"role":"assistant"},"create_time":1756000002,"content":{"content_type":"text","parts":["r"]}}}}}]`), "auto")
	mustImport(t, st, []byte(`[{"id":"u","name":"Undated","messages":[{"role":"user","content":"hi"}]}]`), "auto")
	ok[Status](t, st, `{"operation":"create","sessionId":"s0"}`)
	want := []string{"u", "g", "c", "s1", "s2", "s3", "s0"} // undated (""), 2025, then as made here
	assert.Equal(t, want, sessionIDs(t, st))

	restored := testStore(t)
	for _, id := range want {
		status := ok[Status](t, st, `{"operation":"session","sessionId":"`+id+`"}`)
		snap := string(ok[RawMessage](t, st, `{"operation":"snapshot.save","sessionId":"`+id+`"}`))
		ok[Status](t, restored, `{"operation":"restore","createdAt":"`+status.CreatedAt+`","updatedAt":"`+status.UpdatedAt+`","snapshot":`+snap+`}`)
	}
	assert.Equal(t, want, sessionIDs(t, restored), "a store restored in creation order lists alike")

	// A clone made now lists last.
	ok[Status](t, st, `{"operation":"clone","sessionId":"c","newSessionId":"k"}`)
	assert.Equal(t, append(want, "k"), sessionIDs(t, st))
}
