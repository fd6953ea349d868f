package core

import (
	"strconv"
	"strings"
	"testing"
)

// forkedSnapshotRequest is a snapshot.load request of n nodes with a fork
// every `every` nodes (bench/map-data.mjs's session, built in Go).
func forkedSnapshotRequest(n, every int) []byte {
	var b strings.Builder
	branch := "main"
	b.WriteString(`{"operation":"snapshot.load","sessionId":"m","snapshot":{"version":1,"sessionId":"m","cursor":"n` + strconv.Itoa(n-1) + `","activeBranch":"b` + strconv.Itoa((n-1)/every) + `","nodes":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		p := i - 1
		if i > 0 && i%every == 0 {
			p = i - every/2
			branch = "b" + strconv.Itoa(i/every)
		}
		parent := "null"
		if p >= 0 {
			parent = `"n` + strconv.Itoa(p) + `"`
		}
		b.WriteString(`{"id":"n` + strconv.Itoa(i) + `","parentId":` + parent + `,"branch":"` + branch + `","kind":"message","timestamp":"2026-12-01T00:00:00.000Z","message":{"role":"user","content":"m"}}`)
	}
	b.WriteString("]}}")
	return []byte(b.String())
}

// BenchmarkMap: the first map of a 100,000-node session with 999 branch
// points (cut, laid out, written), and a map after an append that extends
// a run (the layout kept), beside tree.rows of the same session.
func BenchmarkMap(b *testing.B) {
	req := forkedSnapshotRequest(100_000, 100)
	mapReq := []byte(`{"operation":"map","sessionId":"m"}`)
	b.Run("first map of 100,000 nodes", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			st := testStore(b)
			st.Call(req)
			b.StartTimer()
			st.Call(mapReq)
		}
	})
	b.Run("tree.rows of the same session (the list)", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			st := testStore(b)
			st.Call(req)
			b.StartTimer()
			st.Call([]byte(`{"operation":"tree.rows","sessionId":"m"}`))
		}
	})
	b.Run("map after an append that extends a run", func(b *testing.B) {
		st := testStore(b)
		st.Call(req)
		st.Call(mapReq)
		for b.Loop() {
			st.Call([]byte(`{"operation":"append","sessionId":"m","message":{"role":"user","content":"x"}}`))
			st.Call(mapReq)
		}
	})
}
