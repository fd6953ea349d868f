package core

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// familyShape is a family as "root | member:title:nodes:missing… | child<parent@node/kind…".
func familyShape(f Family) string {
	var b strings.Builder
	b.WriteString(f.Root + " |")
	for _, m := range f.Members {
		b.WriteString(" " + m.SessionID + ":" + m.Title + ":" + strconv.Itoa(m.NodeCount))
		if m.Missing {
			b.WriteString(":missing")
		}
	}
	b.WriteString(" |")
	for _, e := range f.Edges {
		node := "null"
		if e.NodeID != nil {
			node = *e.NodeID
		}
		b.WriteString(" " + e.SessionID + "<" + e.ParentSessionID + "@" + node + "/" + e.Kind)
	}
	return b.String()
}

func family(t *testing.T, st *Store, id string) Family {
	t.Helper()
	return ok[Family](t, st, obj{"operation": "family", "sessionId": id})
}

func TestForkAndCloneRecordTheirSource(t *testing.T) {
	st := testStore(t)
	st.TrackChanges(true)
	buildBranchy(t, st, "b")

	t.Run("a fork records the session and node it was forked at", func(t *testing.T) {
		ok[Status](t, st, obj{"operation": "fork", "sessionId": "b", "nodeId": "n0004", "newSessionId": "f"})
		snap := snapshot(t, st, "f")
		assert.Contains(t, snap, `{"kind":"source","nodeId":null,"sourceSessionId":"b","sourceNodeId":"n0004","via":"fork","timestamp":`)
	})
	t.Run("a clone records the session and its cursor", func(t *testing.T) {
		ok[Status](t, st, obj{"operation": "clone", "sessionId": "b", "newSessionId": "c"})
		assert.Contains(t, snapshot(t, st, "c"), `"sourceSessionId":"b","sourceNodeId":"n0006","via":"clone"`)
	})
	t.Run("a fork of a fork names only its own parent", func(t *testing.T) {
		ok[Status](t, st, obj{"operation": "fork", "sessionId": "f", "nodeId": "n0002", "newSessionId": "g"})
		snap := snapshot(t, st, "g")
		assert.Equal(t, 1, strings.Count(snap, `"kind":"source"`))
		assert.Contains(t, snap, `"sourceSessionId":"f","sourceNodeId":"n0002","via":"fork"`)
	})
	t.Run("the /fork command records its source too", func(t *testing.T) {
		res := ok[CommandResult](t, st, obj{"operation": "command", "sessionId": "b", "line": "/fork n0002"})
		id := res.Data.(map[string]any)["sessionId"].(string)
		assert.Contains(t, snapshot(t, st, id), `"sourceSessionId":"b","sourceNodeId":"n0001","via":"fork"`)
	})
	t.Run("the source survives a snapshot round trip", func(t *testing.T) {
		other := testStore(t)
		ok[Status](t, other, obj{"operation": "snapshot.load", "sessionId": "g", "snapshot": rawJSON(snapshot(t, st, "g"))})
		assert.Equal(t, snapshot(t, st, "g"), snapshot(t, other, "g"))
		assert.Equal(t, "f | f::0:missing g:Branchy <b>&:2 | g<f@n0002/fork", familyShape(family(t, other, "g")))
	})
	t.Run("the stored summary carries the source, and a stub keeps it", func(t *testing.T) {
		drained := string(st.DrainChanges(false))
		assert.Contains(t, drained, `"source":{"sessionId":"f","nodeId":"n0002","via":"fork"}`)
		ok[obj](t, st, []byte(`{"operation":"page.out","sessionId":"g"}`))
		assert.Equal(t, "b | b:Branchy <b>&:6 f:Branchy <b>&:3 c:Branchy <b>&:6 g:Branchy <b>&:2 | f<b@n0004/fork c<b@n0006/clone g<f@n0002/fork",
			familyShapeWithout(family(t, st, "g"), lastSession(st)), "g is a stub: its count and link come from its summary")
	})
}

// lastSession returns the id of the store's newest session.
func lastSession(st *Store) string { return st.s.Order[len(st.s.Order)-1] }

// familyShapeWithout is familyShape less member and edge of session id.
func familyShapeWithout(f Family, id string) string {
	var keep Family
	keep.Root = f.Root
	for _, m := range f.Members {
		if m.SessionID != id {
			keep.Members = append(keep.Members, m)
		}
	}
	for _, e := range f.Edges {
		if e.SessionID != id {
			keep.Edges = append(keep.Edges, e)
		}
	}
	return familyShape(keep)
}

func TestFamily(t *testing.T) {
	t.Run("a fork of a fork is a family of three from any member", func(t *testing.T) {
		st := testStore(t)
		buildBranchy(t, st, "a")
		ok[Status](t, st, obj{"operation": "fork", "sessionId": "a", "nodeId": "n0003", "newSessionId": "b"})
		ok[Status](t, st, obj{"operation": "fork", "sessionId": "b", "nodeId": "n0002", "newSessionId": "c"})
		ok[Status](t, st, obj{"operation": "create", "sessionId": "lone"})
		want := "a | a:Branchy <b>&:6 b:Branchy <b>&:3 c:Branchy <b>&:2 | b<a@n0003/fork c<b@n0002/fork"
		for _, id := range []string{"a", "b", "c"} {
			f := family(t, st, id)
			assert.Equal(t, id, f.SessionID)
			assert.Equal(t, want, familyShape(f), "asked from %s", id)
		}
		assert.Equal(t, "lone | lone::0 |", familyShape(family(t, st, "lone")))
	})
	t.Run("a cycle in bad data ends", func(t *testing.T) {
		st := testStore(t)
		for _, pair := range [][2]string{{"x", "y"}, {"y", "z"}, {"z", "x"}} {
			snap := `{"version":1,"sessionId":"` + pair[0] + `","cursor":null,"activeBranch":"main","nodes":[],"annotations":[` +
				`{"kind":"source","nodeId":null,"sourceSessionId":"` + pair[1] + `","sourceNodeId":null,"via":"fork","timestamp":"2026-01-01T00:00:00.000Z"}]}`
			ok[Status](t, st, obj{"operation": "snapshot.load", "sessionId": pair[0], "snapshot": rawJSON(snap)})
		}
		assert.Equal(t, "z | z::0 y::0 x::0 | y<z@null/fork x<y@null/fork", familyShape(family(t, st, "x")))
	})
	t.Run("a session without links answers its edges as an empty array, never null", func(t *testing.T) {
		st := testStore(t)
		ok[Status](t, st, obj{"operation": "create", "sessionId": "lone"})
		env := do(t, st, obj{"operation": "family", "sessionId": "lone"})
		require.True(t, env.OK)
		assert.Contains(t, string(env.Value), `"edges":[]`)
	})
	t.Run("an unknown session is SESSION_NOT_FOUND", func(t *testing.T) {
		assert.Equal(t, `session "nope" does not exist`, fails(t, testStore(t), obj{"operation": "family", "sessionId": "nope"}, SessionNotFound))
	})
	t.Run("a bad source record fails the snapshot and changes nothing", func(t *testing.T) {
		st := testStore(t)
		snap := `{"version":1,"sessionId":"x","cursor":null,"activeBranch":"main","nodes":[],"annotations":[` +
			`{"kind":"source","nodeId":null,"sourceSessionId":"y","sourceNodeId":null,"via":"teleport","timestamp":"2026-01-01T00:00:00.000Z"}]}`
		msg := fails(t, st, obj{"operation": "snapshot.load", "sessionId": "x", "snapshot": rawJSON(snap)}, InvalidSnapshot)
		assert.Equal(t, `snapshot: annotations[0] has a bad via "teleport" (known: fork, clone, import)`, msg)
		fails(t, st, obj{"operation": "family", "sessionId": "x"}, SessionNotFound)
	})
}

// piParent and piChild are a Pi session and a fork of it as Pi writes one:
// the child's header names the parent's file, and its entries repeat the
// path it was forked from, ids and all.
const piParent = `{"type":"session","version":3,"id":"0a1b2c3d-parent","timestamp":"2026-01-02T03:04:05.000Z","cwd":"/w"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-02T03:04:06.000Z","message":{"role":"user","content":"Plan the trip"}}
{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-02T03:04:07.000Z","message":{"role":"assistant","content":"Day 1: Lyon"}}
{"type":"message","id":"m3","parentId":"m2","timestamp":"2026-01-02T03:04:08.000Z","message":{"role":"user","content":"And day 2?"}}
`

const piChild = `{"type":"session","version":3,"id":"9f8e7d6c-child","timestamp":"2026-01-03T03:04:05.000Z","cwd":"/w","parentSession":"/home/me/.pi/agent/sessions/--w--/2026-01-02T03-04-05-000Z_0a1b2c3d-parent.jsonl"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-02T03:04:06.000Z","message":{"role":"user","content":"Plan the trip"}}
{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-02T03:04:07.000Z","message":{"role":"assistant","content":"Day 1: Lyon"}}
{"type":"message","id":"x3","parentId":"m2","timestamp":"2026-01-03T03:04:08.000Z","message":{"role":"user","content":"Go to Nice instead"}}
`

func TestImportedForkLinks(t *testing.T) {
	t.Run("a Pi parentSession links the fork, before and after the parent arrives", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, []byte(piChild), "auto")
		require.Len(t, res.Sessions, 1)
		assert.Empty(t, res.Warnings)
		assert.Equal(t, "0a1b2c3d-parent | 0a1b2c3d-parent::0:missing 9f8e7d6c-child:Plan the trip:4 | 9f8e7d6c-child<0a1b2c3d-parent@null/import",
			familyShape(family(t, st, "9f8e7d6c-child")))
		mustImport(t, st, []byte(piParent), "auto")
		assert.Equal(t, "0a1b2c3d-parent | 0a1b2c3d-parent:Plan the trip:4 9f8e7d6c-child:Plan the trip:4 | 9f8e7d6c-child<0a1b2c3d-parent@m2/import",
			familyShape(family(t, st, "0a1b2c3d-parent")), "the node is the last one both share")
	})
	t.Run("the node both share follows a parent that grew (found again, not kept stale)", func(t *testing.T) {
		st := testStore(t)
		mustImport(t, st, []byte(piChild), "auto")
		lines := strings.SplitAfter(piParent, "\n")
		mustImport(t, st, []byte(lines[0]+lines[1]), "auto") // the parent's file when it held m1 only
		assert.Contains(t, familyShape(family(t, st, "9f8e7d6c-child")), "9f8e7d6c-child<0a1b2c3d-parent@m1/import")
		assert.Contains(t, familyShape(family(t, st, "9f8e7d6c-child")), "@m1/import", "asked again, the same")
		mustImport(t, st, []byte(piParent), "auto") // it grew: m2 and m3
		assert.Contains(t, familyShape(family(t, st, "9f8e7d6c-child")), "9f8e7d6c-child<0a1b2c3d-parent@m2/import")
	})
	t.Run("a parentSession that is a bare id is the id", func(t *testing.T) {
		st := testStore(t)
		data := strings.Replace(piChild, `/home/me/.pi/agent/sessions/--w--/2026-01-02T03-04-05-000Z_0a1b2c3d-parent.jsonl`, `p_1`, 1)
		mustImport(t, st, []byte(data), "auto")
		assert.Contains(t, snapshot(t, st, "9f8e7d6c-child"), `"sourceSessionId":"p_1","sourceNodeId":null,"via":"import"`)
	})
	t.Run("a bad parentSession is dropped with a warning, never failing the import", func(t *testing.T) {
		st := testStore(t)
		data := strings.Replace(piChild, `/home/me/.pi/agent/sessions/--w--/2026-01-02T03-04-05-000Z_0a1b2c3d-parent.jsonl`, `/sessions/bad\u0007id`, 1)
		res := mustImport(t, st, []byte(data), "auto")
		require.Len(t, res.Warnings, 1)
		assert.Contains(t, res.Warnings[0].Message, "the link is dropped")
		assert.NotContains(t, snapshot(t, st, "9f8e7d6c-child"), `"kind":"source"`)
	})
	t.Run("a Codex forked_from_id links the fork", func(t *testing.T) {
		st := testStore(t)
		data := `{"timestamp":"2025-09-01T10:00:00.000Z","type":"session_meta","payload":{"id":"forked","forked_from_id":"original","timestamp":"2025-09-01T10:00:00.000Z","cwd":"/w"}}
{"timestamp":"2025-09-01T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}
`
		mustImport(t, st, []byte(data), "auto")
		assert.Equal(t, "original | original::0:missing forked:hi:2 | forked<original@null/import", familyShape(family(t, st, "forked")))
	})
}

// rawJSON is JSON text that json.Marshal writes as it stands.
type rawJSON string

// MarshalJSON returns the text.
func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }
