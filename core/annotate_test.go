package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildBranchy's nodes (their messages were sent as Go maps, so their keys
// are sorted): n0001 system (root), n0002 user, n0003 assistant
// (main), n0004 assistant (main-2), n0005 summary, n0006 user (budget,
// cursor).

// annotateBranchy labels, hides and prefers parts of buildBranchy's tree.
func annotateBranchy(tb testing.TB, st *Store, id string) {
	tb.Helper()
	for _, req := range []string{
		`{"operation":"label","sessionId":"` + id + `","nodeId":"n0002","label":"the question"}`,
		`{"operation":"label","sessionId":"` + id + `","nodeId":"n0004","label":"draft"}`,
		`{"operation":"label","sessionId":"` + id + `","nodeId":"n0004","label":"rest day ✓"}`,
		`{"operation":"label","sessionId":"` + id + `","nodeId":"n0006","label":"temporary"}`,
		`{"operation":"label","sessionId":"` + id + `","nodeId":"n0006","label":""}`,
		`{"operation":"hide","sessionId":"` + id + `","nodeId":"n0003"}`,
		`{"operation":"prefer","sessionId":"` + id + `","nodeId":"n0003"}`,
		`{"operation":"prefer","sessionId":"` + id + `","nodeId":"n0004"}`,
	} {
		ok[Marks](tb, st, req)
	}
}

func TestAnnotations(t *testing.T) {
	st := testStore(t)
	buildBranchy(t, st, "b")

	t.Run("label, hide and prefer answer the node's marks", func(t *testing.T) {
		m := ok[Marks](t, st, `{"operation":"label","sessionId":"b","nodeId":"n0002","label":"the question"}`)
		assert.Equal(t, Marks{SessionID: "b", NodeID: ptr("n0002"), Label: ptr("the question")}, m)
		m = ok[Marks](t, st, `{"operation":"hide","sessionId":"b","nodeId":"n0002","hidden":true}`)
		assert.Equal(t, Marks{SessionID: "b", NodeID: ptr("n0002"), Label: ptr("the question"), Hidden: true}, m)
		m = ok[Marks](t, st, `{"operation":"hide","sessionId":"b","nodeId":"n0002","hidden":false}`)
		assert.Equal(t, Marks{SessionID: "b", NodeID: ptr("n0002"), Label: ptr("the question")}, m)
		m = ok[Marks](t, st, `{"operation":"prefer","sessionId":"b","nodeId":"n0004"}`)
		assert.Equal(t, Marks{SessionID: "b", NodeID: ptr("n0004"), Preferred: true, PreferredNode: ptr("n0004")}, m)
		m = ok[Marks](t, st, `{"operation":"prefer","sessionId":"b","nodeId":null}`)
		assert.Equal(t, Marks{SessionID: "b"}, m)
	})

	st = testStore(t)
	buildBranchy(t, st, "b")
	annotateBranchy(t, st, "b")
	before := ok[Status](t, st, `{"operation":"session","sessionId":"b"}`)

	t.Run("annotations add no node and change no context", func(t *testing.T) {
		assert.Equal(t, 6, before.NodeCount)
		assert.Equal(t, `{"cursor":"n0006","messages":[{"content":"You are terse.","role":"system"},{"role":"user","content":"The following is a summary of a branch that this conversation came back from:\n\n<summary>\nTried a luxury plan; too costly.\n</summary>"},{"content":"Cheaper, please 🙂","role":"user"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}`,
			contextOf(t, st, "b"))
	})

	t.Run("list flags labels, hidden nodes and the preferred path", func(t *testing.T) {
		items := ok[[]ListItem](t, st, `{"operation":"list","sessionId":"b"}`)
		var got []string
		for _, it := range items {
			got = append(got, it.ID+" label="+it.Label+" hidden="+boolText(it.Hidden)+" preferred="+boolText(it.Preferred))
		}
		assert.Equal(t, []string{
			"n0001 label= hidden=no preferred=yes",
			"n0002 label=the question hidden=no preferred=yes",
			"n0003 label= hidden=yes preferred=no",
			"n0004 label=rest day ✓ hidden=no preferred=yes",
			"n0005 label= hidden=no preferred=no",
			"n0006 label= hidden=no preferred=no",
		}, got)
	})

	t.Run("a hidden node still answers context", func(t *testing.T) {
		ok[Status](t, st, `{"operation":"jump","sessionId":"b","nodeId":"n0003"}`)
		assert.Equal(t, `{"cursor":"n0003","messages":[{"content":"You are terse.","role":"system"},{"content":"Plan a trip to São Tomé","role":"user"},{"content":"Day 1: arrive.","role":"assistant"}],"state":{"model":null,"thinkingLevel":null,"activeTools":null,"sessionName":null}}`,
			contextOf(t, st, "b"))
		ok[Status](t, st, `{"operation":"jump","sessionId":"b","nodeId":"n0006"}`)
	})

	t.Run("the snapshot keeps every record in order", func(t *testing.T) {
		golden(t, "annotations.snapshot.json", snapshot(t, st, "b"))
	})

	t.Run("annotations survive a snapshot round trip byte for byte", func(t *testing.T) {
		first := snapshot(t, st, "b")
		other := testStore(t)
		ok[Status](t, other, `{"operation":"snapshot.load","sessionId":"b","snapshot":`+first+`}`)
		assert.Equal(t, first, snapshot(t, other, "b"))
		assert.Equal(t, ok[[]ListItem](t, st, `{"operation":"list","sessionId":"b"}`), ok[[]ListItem](t, other, `{"operation":"list","sessionId":"b"}`))
		assert.Equal(t, ok[Tree](t, st, `{"operation":"tree","sessionId":"b"}`).Text, ok[Tree](t, other, `{"operation":"tree","sessionId":"b"}`).Text)
	})

	t.Run("clone copies every annotation and adds its source record", func(t *testing.T) {
		ok[Status](t, st, `{"operation":"clone","sessionId":"b","newSessionId":"c"}`)
		b, c := snapshot(t, st, "b"), snapshot(t, st, "c")
		source := `,{"kind":"source","nodeId":null,"sourceSessionId":"b","sourceNodeId":"n0006","via":"clone","timestamp":"2026-11-29T12:00:00.033Z"}]}`
		assert.Equal(t, strings.Replace(strings.TrimSuffix(b, "]}"), `"sessionId":"b"`, `"sessionId":"c"`, 1)+source, c)
	})

	t.Run("fork keeps the annotations of the nodes it copies", func(t *testing.T) {
		ok[Status](t, st, `{"operation":"fork","sessionId":"b","nodeId":"n0004","newSessionId":"f"}`)
		items := ok[[]ListItem](t, st, `{"operation":"list","sessionId":"f"}`)
		require.Len(t, items, 3)
		assert.Equal(t, "the question", items[1].Label)
		assert.Equal(t, "rest day ✓", items[2].Label)
		assert.True(t, items[2].Preferred)
		assert.NotContains(t, snapshot(t, st, "f"), `"nodeId":"n0003"`)
	})
}

func boolText(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func TestAnnotationValidation(t *testing.T) {
	st := testStore(t)
	buildBranchy(t, st, "b")
	before := snapshot(t, st, "b")
	cases := []struct {
		name, request string
		code          Code
		want          string
	}{
		{"a label on an unknown node", `{"operation":"label","sessionId":"b","nodeId":"zz","label":"x"}`, NodeNotFound, `node "zz" is not in session "b"`},
		{"a label without the label field", `{"operation":"label","sessionId":"b","nodeId":"n0001"}`, InvalidArgument, `field "label" is required for operation "label" ("" clears the label)`},
		{"a label that is not a string", `{"operation":"label","sessionId":"b","nodeId":"n0001","label":7}`, InvalidArgument, `field "label" must be a string`},
		{"a label with a newline", `{"operation":"label","sessionId":"b","nodeId":"n0001","label":"a\nb"}`, InvalidArgument, `field "label" must be at most 1000 characters without control characters`},
		{"hide with a string flag", `{"operation":"hide","sessionId":"b","nodeId":"n0001","hidden":"yes"}`, InvalidArgument, `field "hidden" must be true or false`},
		{"hide in an unknown session", `{"operation":"hide","sessionId":"nope","nodeId":"n0001"}`, SessionNotFound, `session "nope" does not exist`},
		{"prefer without nodeId", `{"operation":"prefer","sessionId":"b"}`, InvalidArgument, `field "nodeId" is required for operation "prefer" (null clears the preferred path)`},
		{"prefer of an unknown node", `{"operation":"prefer","sessionId":"b","nodeId":"zz"}`, NodeNotFound, `node "zz" is not in session "b"`},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused", func(t *testing.T) {
			assert.Equal(t, c.want, fails(t, st, c.request, c.code))
			assert.Equal(t, before, snapshot(t, st, "b"))
		})
	}
}

func TestSnapshotAnnotationFaults(t *testing.T) {
	head := `{"version":1,"sessionId":"s","cursor":null,"activeBranch":"main","nodes":[{"id":"a","parentId":null,"branch":"main","kind":"message","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"x"}}],"annotations":`
	const ts = `"timestamp":"2026-01-01T00:00:00.000Z"`
	cases := []struct{ name, annotations, want string }{
		{"annotations that are not an array", `{}`, `snapshot: field "annotations" must be an array`},
		{"an annotation that is not an object", `[1]`, `snapshot: annotations[0] must be an object`},
		{"an unknown kind", `[{"kind":"pin","nodeId":"a",` + ts + `}]`, `snapshot: annotations[0] has a bad kind "pin" (known: label, hide, prefer, title, source, import)`},
		{"an unknown node", `[{"kind":"label","nodeId":"b","label":"x",` + ts + `}]`, `snapshot: annotations[0] names node "b", which is not in the snapshot`},
		{"a label without label", `[{"kind":"label","nodeId":"a",` + ts + `}]`, `snapshot: annotations[0] needs a label string of at most 1000 characters without control characters`},
		{"a hide without hidden", `[{"kind":"hide","nodeId":"a",` + ts + `}]`, `snapshot: annotations[0] needs "hidden": true or false`},
		{"a hide with a label", `[{"kind":"hide","nodeId":"a","hidden":true,"label":"x",` + ts + `}]`, `snapshot: annotations[0] has a field that a hide annotation does not have`},
		{"a label without nodeId", `[{"kind":"label","label":"x",` + ts + `}]`, `snapshot: annotations[0] needs a nodeId`},
		{"a bad timestamp", `[{"kind":"prefer","nodeId":"a","timestamp":"yesterday"}]`, `snapshot: annotations[0] has a bad timestamp: it must be an RFC 3339 string`},
		{"an unknown field", `[{"kind":"prefer","nodeId":"a","color":"red",` + ts + `}]`, `snapshot: annotations[0] has unknown field "color"`},
	}
	for _, c := range cases {
		t.Run(c.name+" is rejected", func(t *testing.T) {
			st := testStore(t)
			msg := fails(t, st, `{"operation":"snapshot.load","sessionId":"s","snapshot":`+head+c.annotations+`}}`, InvalidSnapshot)
			assert.Equal(t, c.want, msg)
		})
	}
}

func TestDrainCarriesAnnotationRecords(t *testing.T) {
	st := testStore(t)
	st.TrackChanges(true)
	ok[Status](t, st, `{"operation":"create","sessionId":"s"}`)
	ok[obj](t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"hi"}}`)
	st.DrainChanges(true)
	ok[Marks](t, st, `{"operation":"label","sessionId":"s","nodeId":"n0001","label":"greeting"}`)
	ok[Marks](t, st, `{"operation":"hide","sessionId":"s","nodeId":"n0001"}`)
	assert.Equal(t,
		`{"sessionId":"s","operation":"hide","reset":false,"from":1,"count":0,"annotationFrom":0,"annotationCount":2,"meta":{"sessionId":"s","title":"","cursor":"n0001","activeBranch":"main","createdAt":"2026-11-29T12:00:00.001Z","updatedAt":"2026-11-29T12:00:00.007Z","nodeCount":1,"annotationCount":2}}`+"\n"+
			`{"kind":"label","nodeId":"n0001","label":"greeting","timestamp":"2026-11-29T12:00:00.004Z"}`+"\n"+
			`{"kind":"hide","nodeId":"n0001","hidden":true,"timestamp":"2026-11-29T12:00:00.006Z"}`+"\n",
		string(st.DrainChanges(true)))
	ok[obj](t, st, `{"operation":"append","sessionId":"s","message":{"role":"user","content":"again"}}`)
	assert.Contains(t, string(st.DrainChanges(false)), `"from":1,"count":1,"annotationFrom":2,"annotationCount":0,`)
}
