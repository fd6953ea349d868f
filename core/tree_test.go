package core

import (
	"strings"
	"testing"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func treeText(tb testing.TB, st *Store, id string) string {
	tb.Helper()
	return ok[Tree](tb, st, `{"operation":"tree","sessionId":"`+id+`"}`).Text
}

func TestTreeText(t *testing.T) {
	t.Run("a three-branch tree draws connectors at its branch points", func(t *testing.T) {
		st := testStore(t)
		buildBranchy(t, st, "b")
		golden(t, "tree-branchy.txt", treeText(t, st, "b"))
	})

	t.Run("labels, a hidden subtree and the preferred path are marked", func(t *testing.T) {
		st := testStore(t)
		buildBranchy(t, st, "b")
		annotateBranchy(t, st, "b")
		golden(t, "tree-annotated.txt", treeText(t, st, "b"))
	})

	t.Run("a cursor inside a hidden subtree is marked on its line", func(t *testing.T) {
		st := testStore(t)
		buildBranchy(t, st, "b")
		ok[Marks](t, st, `{"operation":"hide","sessionId":"b","nodeId":"n0005"}`)
		assert.Equal(t, "n0001 system: You are terse.\n"+
			"├─ n0002 user: Plan a trip to São Tomé\n"+
			"│  ├─ n0003 assistant: Day 1: arrive.  [main]\n"+
			"│  └─ n0004 assistant: Day 1: rest.  [main-2]\n"+
			"└─ n0005 [hidden: 2 nodes]  ← cursor inside\n", treeText(t, st, "b"))
	})

	t.Run("hiding a branch point hides both branches, and rows keep every node", func(t *testing.T) {
		st := testStore(t)
		buildBranchy(t, st, "b")
		ok[Marks](t, st, `{"operation":"hide","sessionId":"b","nodeId":"n0002"}`)
		assert.Equal(t, "n0001 system: You are terse.\n"+
			"├─ n0002 [hidden: 3 nodes]\n"+
			"└─ n0005 summary: Tried a luxury plan; too costly.\n"+
			"   n0006 user: Cheaper, please 🙂  [budget*]  ← cursor\n", treeText(t, st, "b"))
		tree := ok[Tree](t, st, `{"operation":"tree","sessionId":"b"}`)
		require.Len(t, tree.Rows, 6)
		assert.Equal(t, []bool{false, true, true, true, false, false},
			[]bool{tree.Rows[0].Hidden, tree.Rows[1].Hidden, tree.Rows[2].Hidden, tree.Rows[3].Hidden, tree.Rows[4].Hidden, tree.Rows[5].Hidden})
	})

	t.Run("showHidden draws hidden subtrees with a mark", func(t *testing.T) {
		st := testStore(t)
		buildBranchy(t, st, "b")
		ok[Marks](t, st, `{"operation":"hide","sessionId":"b","nodeId":"n0002"}`)
		assert.Equal(t, "n0001 system: You are terse.\n"+
			"├─ n0002 user: Plan a trip to São Tomé  (hidden)\n"+
			"│  ├─ n0003 assistant: Day 1: arrive.  [main]\n"+
			"│  └─ n0004 assistant: Day 1: rest.  [main-2]\n"+
			"└─ n0005 summary: Tried a luxury plan; too costly.\n"+
			"   n0006 user: Cheaper, please 🙂  [budget*]  ← cursor\n",
			ok[Tree](t, st, `{"operation":"tree","sessionId":"b","showHidden":true}`).Text)
		assert.Equal(t, `field "showHidden" must be true or false`, fails(t, st, `{"operation":"tree","sessionId":"b","showHidden":1}`, InvalidArgument))
	})

	t.Run("a hidden node in the middle of a run ends the drawn run", func(t *testing.T) {
		st := testStore(t)
		ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"c","snapshot":`+chainSnapshot("c", 10)+`}`)
		ok[Marks](t, st, `{"operation":"hide","sessionId":"c","nodeId":"c5"}`)
		assert.Equal(t, "c0 user: message 0\n"+
			"c1 assistant: message 1\n"+
			"c2 user: message 2\n"+
			"c3 assistant: message 3\n"+
			"c4 user: message 4\n"+
			"c5 [hidden: 5 nodes]  ← cursor inside\n", treeText(t, st, "c"))
	})

	t.Run("every entry kind has a readable line", func(t *testing.T) {
		st := testStore(t)
		buildEntries(t, st, "e")
		golden(t, "tree-entries.txt", treeText(t, st, "e"))
	})

	t.Run("a 10,000-node linear run is compacted to a few lines", func(t *testing.T) {
		st := testStore(t)
		ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"long","snapshot":`+chainSnapshot("long", 10_000)+`}`)
		assert.Equal(t, "c0 user: message 0\n"+
			"c1 assistant: message 1\n"+
			"c2 user: message 2\n"+
			"··· 9994 nodes (c3 … c9996)\n"+
			"c9997 assistant: message 9997\n"+
			"c9998 user: message 9998\n"+
			"c9999 assistant: message 9999  [main*]  ← cursor\n", treeText(t, st, "long"))

		ok[Marks](t, st, `{"operation":"label","sessionId":"long","nodeId":"c5000","label":"half way"}`)
		ok[Status](t, st, `{"operation":"jump","sessionId":"long","nodeId":"c2"}`)
		golden(t, "tree-long-run.txt", treeText(t, st, "long"))

		tree := ok[Tree](t, st, `{"operation":"tree","sessionId":"long"}`)
		require.Len(t, tree.Rows, 10_000, "rows keep every node")
		assert.Equal(t, "half way", tree.Rows[5000].Label)
		assert.Equal(t, 15, strings.Count(tree.Text, "\n"))
	})

	t.Run("previews are cut between whole characters", func(t *testing.T) {
		st := testStore(t)
		ok[Status](t, st, `{"operation":"create","sessionId":"p"}`)
		ok[obj](t, st, `{"operation":"append","sessionId":"p","message":{"role":"user","content":"`+strings.Repeat("e\u0301", 59)+`👩‍👩‍👧 and more"}}`)
		assert.Equal(t, "n0001 user: "+strings.Repeat("e\u0301", 59)+"👩‍👩‍👧…  [main*]  ← cursor\n", treeText(t, st, "p"))
	})

	t.Run("rows carry labels, hidden and preferred flags", func(t *testing.T) {
		st := testStore(t)
		buildBranchy(t, st, "b")
		annotateBranchy(t, st, "b")
		tree := ok[Tree](t, st, `{"operation":"tree","sessionId":"b"}`)
		var got []string
		for _, r := range tree.Rows {
			got = append(got, r.ID+" "+r.Label+" hidden="+boolText(r.Hidden)+" root="+boolText(r.HiddenRoot)+" preferred="+boolText(r.Preferred))
		}
		assert.Equal(t, []string{
			"n0001  hidden=no root=no preferred=yes",
			"n0002 the question hidden=no root=no preferred=yes",
			"n0003  hidden=yes root=yes preferred=no",
			"n0004 rest day ✓ hidden=no root=no preferred=yes",
			"n0005  hidden=no root=no preferred=no",
			"n0006  hidden=no root=no preferred=no",
		}, got)
	})
}

// TestTreeJSONMatchesEncodingJSON: the hand-written encoder gives exactly
// the bytes encoding/json gives for the same value.
func TestTreeJSONMatchesEncodingJSON(t *testing.T) {
	st := testStore(t)
	buildBranchy(t, st, "b")
	annotateBranchy(t, st, "b")
	ok[obj](t, st, `{"operation":"append","sessionId":"b","message":{"role":"user","content":"<b>\"quoted\" \u2028 line"}}`)
	tree := st.Session("b").Tree()
	type plain Tree // no MarshalJSON
	want, err := jsonx.Marshal(plain(tree))
	require.NoError(t, err)
	got, err := jsonx.Marshal(tree)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}
