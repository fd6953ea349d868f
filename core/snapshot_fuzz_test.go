package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// snapshotSeeds returns snapshots of sessions of every shape (messages,
// branches, entries, a summary, annotations) as snapshot.save writes them.
func snapshotSeeds(tb testing.TB) [][]byte {
	groups := [][]string{{
		`{"operation":"create","sessionId":"plain","title":"t"}`,
		`{"operation":"append","sessionId":"plain","message":{"role":"user","content":"hé \"q\""}}`,
		`{"operation":"append","sessionId":"plain","message":{"role":"assistant","content":[{"type":"text","text":"x"},{"type":"toolCall","id":"c","name":"f","arguments":{}}]}}`,
	}, {
		`{"operation":"create","sessionId":"tree"}`,
		`{"operation":"append","sessionId":"tree","message":{"role":"user","content":"a"}}`,
		`{"operation":"append","sessionId":"tree","entry":{"kind":"model_change","provider":"p","model":"m"}}`,
		`{"operation":"append","sessionId":"tree","message":{"role":"assistant","content":"b"}}`,
		`{"operation":"branch","sessionId":"tree","nodeId":"n0001","branch":"side"}`,
		`{"operation":"append","sessionId":"tree","branch":"side","message":{"role":"user","content":"c"}}`,
		`{"operation":"branch.summary","sessionId":"tree","nodeId":"n0003","branch":"sum","summary":"s"}`,
		`{"operation":"label","sessionId":"tree","nodeId":"n0001","label":"first"}`,
		`{"operation":"hide","sessionId":"tree","nodeId":"n0004","hidden":true}`,
		`{"operation":"prefer","sessionId":"tree","nodeId":"n0003"}`,
	}, {
		`{"operation":"create","sessionId":"empty"}`,
	}}
	var seeds [][]byte
	for _, reqs := range groups {
		st := testStore(tb)
		for _, r := range reqs {
			if out := st.Call([]byte(r)); !bytes.HasPrefix(out, []byte(`{"ok":true`)) {
				tb.Fatalf("seed request %s: %s", r, out)
			}
		}
		var id struct{ SessionID string }
		_ = json.Unmarshal([]byte(reqs[0]), &id)
		seeds = append(seeds, []byte(snapshot(tb, st, id.SessionID)))
	}
	return seeds
}

// FuzzSnapshotLoad fuzzes the snapshot parser on its own (FuzzCall reaches
// it only inside a request): any bytes give a session or an
// INVALID_SNAPSHOT/INVALID_ARGUMENT error with a message, never a panic or
// a hang; bytes that are not JSON are never accepted; the parser's fast
// path for input known to be compact JSON gives the same answer as the
// general one; and a snapshot that loads saves to bytes that load and save
// to the same bytes again, through the snapshot.load operation.
func FuzzSnapshotLoad(f *testing.F) {
	for _, s := range snapshotSeeds(f) {
		f.Add(s)
		f.Add(bytes.Replace(s, []byte(`"version":1`), []byte(`"version":2`), 1))
		f.Add(s[:len(s)/2])
	}
	f.Add([]byte(`{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[]}`))
	f.Add([]byte(`{"version":1,"sessionId":"s","cursor":"a","activeBranch":"\u200b","nodes":[{"id":"a","parentId":null,"branch":"\u200b","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"hi"}}]}`))
	f.Add([]byte(`{"version":1,"sessionId":"s","cursor":"b","activeBranch":"main","nodes":[{"id":"a","parentId":"b","branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"hi"}},{"id":"b","parentId":"a","branch":"main","kind":"message","timestamp":"x","message":{"role":"user","content":"hi"}}]}`))
	f.Add([]byte(` { "version" : 1 , "sessionId" : "s" , "cursor" : null , "activeBranch" : "main" , "nodes" : [ ] } `))
	f.Fuzz(func(t *testing.T, snap []byte) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				panic(fmt.Sprintf("HANG on %q", snap))
			}
		}()
		s, _, err := tree.ParseSnapshotOf(snap, "", false)
		if compact, cerr := jsonx.CompactRaw(snap); cerr == nil && bytes.Equal(compact, snap) {
			fast, _, ferr := tree.ParseSnapshotOf(snap, "", true)
			if (ferr == nil) != (err == nil) || ferr != nil && ferr.Message != err.Message {
				t.Fatalf("the compact-input path answers %q differently: %v, general %v", snap, ferr, err)
			}
			if fast != nil && s != nil && len(fast.Nodes) != len(s.Nodes) {
				t.Fatalf("the compact-input path gives %d nodes for %q, general %d", len(fast.Nodes), snap, len(s.Nodes))
			}
		}
		if err != nil {
			if err.Code != InvalidSnapshot && err.Code != InvalidArgument || err.Message == "" {
				t.Fatalf("bad error for %q: %+v", snap, err)
			}
			return
		}
		if !json.Valid(snap) {
			t.Fatalf("bytes that are not JSON were accepted: %q", snap)
		}
		// Through the operation: load, save, load the saved bytes, save again.
		id := mustJSON(t, s.ID())
		st := testStore(t)
		out := st.Call([]byte(`{"operation":"snapshot.load","sessionId":` + string(id) + `,"snapshot":` + string(snap) + `}`))
		if !json.Valid(out) {
			t.Fatalf("reply is not JSON: %q", out)
		}
		if !bytes.HasPrefix(out, []byte(`{"ok":true`)) {
			// Only the request's rules (the session id, NameProblem on
			// names) may refuse what the parser took.
			if !bytes.Contains(out, []byte(`"INVALID_ARGUMENT"`)) && !bytes.Contains(out, []byte(`"INVALID_SNAPSHOT"`)) {
				t.Fatalf("snapshot.load refused %q oddly: %s", snap, out)
			}
			return
		}
		saved := snapshot(t, st, s.ID())
		other := testStore(t)
		again := other.Call([]byte(`{"operation":"snapshot.load","sessionId":` + string(id) + `,"snapshot":` + saved + `}`))
		if !bytes.HasPrefix(again, []byte(`{"ok":true`)) {
			t.Fatalf("a saved snapshot does not load: %s\nsaved %s\nfrom %q", again, saved, snap)
		}
		if resaved := snapshot(t, other, s.ID()); resaved != saved {
			t.Fatalf("save, load, save differs:\nfirst  %s\nsecond %s", saved, resaved)
		}
	})
}

func TestSnapshotFuzzSeedsLoad(t *testing.T) {
	for _, seed := range snapshotSeeds(t) {
		s, _, err := tree.ParseSnapshotOf(seed, "", true)
		if err != nil {
			t.Fatalf("seed %s: %v", seed, err)
		}
		if s.ID() == "tree" && len(s.Nodes) != 5 {
			t.Errorf("seed tree has %d nodes, want 5", len(s.Nodes))
		}
	}
}
