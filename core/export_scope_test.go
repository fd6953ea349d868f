package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// branchedExportStore holds session "tr": n0001 (user) → n0002 (assistant)
// → n0003 (user, the cursor's path on main), and n0004, a second answer to
// n0001 on an automatically named branch; the cursor is back at n0003.
func branchedExportStore(t *testing.T) *Store {
	t.Helper()
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "tr", "title": "Trip"})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "tr", "message": obj{"role": "user", "content": "Plan a trip"}})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "tr", "message": obj{"role": "assistant", "content": "Day 1: Louvre"}})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "tr", "message": obj{"role": "user", "content": "More"}})
	ok[Status](t, st, obj{"operation": "jump", "sessionId": "tr", "nodeId": "n0001"})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "tr", "message": obj{"role": "assistant", "content": "Day 1: Orsay"}})
	ok[Status](t, st, obj{"operation": "jump", "sessionId": "tr", "nodeId": "n0003"})
	return st
}

func TestExportScope(t *testing.T) {
	st := branchedExportStore(t)
	export := func(t *testing.T, req obj) Export {
		t.Helper()
		req["operation"], req["sessionId"] = "export", "tr"
		return ok[Export](t, st, req)
	}

	t.Run("each format says its own scope when none is asked", func(t *testing.T) {
		for format, want := range map[string]string{"markdown": "path", "openai": "path", "pi": "tree", "snapshot": "tree"} {
			assert.Equal(t, want, export(t, obj{"format": format}).Scope, "format %s", format)
		}
	})
	t.Run("markdown of the path says so and holds only the path", func(t *testing.T) {
		ex := export(t, obj{"format": "markdown", "scope": "path"})
		assert.Equal(t, "path", ex.Scope)
		assert.Equal(t, export(t, obj{"format": "markdown"}), ex)
		assert.True(t, strings.HasPrefix(ex.Text, "# Trip\n\nScope: this path, root → cursor (3 of 4 nodes) · "), ex.Text)
		assert.NotContains(t, ex.Text, "Orsay")
	})
	t.Run("markdown of the whole tree says so and holds every node depth first", func(t *testing.T) {
		ex := export(t, obj{"format": "markdown", "scope": "tree"})
		assert.Equal(t, Export{Format: "markdown", Scope: "tree", Filename: "tr.md", MimeType: "text/markdown", Text: "# Trip\n\n" +
			"Scope: the whole tree (4 nodes, 1 root, depth first; ● marks the path to the cursor) · session `tr` · cursor `n0003` · branch `main`\n\n" +
			"## user\n\n<sub>2026-11-29T12:00:00.002Z · `n0001` · root · branch `main` · 2 replies · ●</sub>\n\nPlan a trip\n\n" +
			"## assistant\n\n<sub>2026-11-29T12:00:00.004Z · `n0002` · reply to `n0001` · branch `main` · ●</sub>\n\nDay 1: Louvre\n\n" +
			"## user\n\n<sub>2026-11-29T12:00:00.006Z · `n0003` · reply to `n0002` · branch `main` · ● cursor</sub>\n\nMore\n\n" +
			"## assistant\n\n<sub>2026-11-29T12:00:00.009Z · `n0004` · reply to `n0001` · branch `main-2`</sub>\n\nDay 1: Orsay\n"}, ex)
	})
	t.Run("a scope the format cannot write is refused naming the ones it can", func(t *testing.T) {
		cases := []struct {
			format string
			scope  any
			want   string
		}{
			{"openai", "tree", `field "scope": export format "openai" writes scope path, not "tree"`},
			{"pi", "path", `field "scope": export format "pi" writes scope tree, not "path"`},
			{"snapshot", "path", `field "scope": export format "snapshot" writes scope tree, not "path"`},
			{"markdown", "all", `field "scope": export format "markdown" writes scope path or tree, not "all"`},
			{"markdown", "", `field "scope": export format "markdown" writes scope path or tree, not ""`},
			{"markdown", 1, `field "scope" must be a string`},
		}
		for _, c := range cases {
			got := fails(t, st, obj{"operation": "export", "sessionId": "tr", "format": c.format, "scope": c.scope}, InvalidArgument)
			assert.Equal(t, c.want, got, "format %s scope %v", c.format, c.scope)
		}
	})
	t.Run("a null scope is the format's own", func(t *testing.T) {
		assert.Equal(t, "path", export(t, obj{"format": "markdown", "scope": nil}).Scope)
	})
}

func TestExportTreeOfADeepChain(t *testing.T) {
	st := testStore(t)
	const depth = 20000
	nodes := make([]string, depth)
	for i := range nodes {
		parent := "null"
		if i > 0 {
			parent = `"c` + itoa(i-1) + `"`
		}
		nodes[i] = `{"id":"c` + itoa(i) + `","parentId":` + parent + `,"branch":"main","kind":"message","timestamp":"2026-11-29T12:00:00.000Z","message":{"role":"user","content":"m` + itoa(i) + `"}}`
	}
	snap := `{"version":1,"sessionId":"deep","cursor":"c0","activeBranch":"main","nodes":[` + strings.Join(nodes, ",") + `]}`
	ok[Status](t, st, `{"operation":"snapshot.load","sessionId":"deep","snapshot":`+snap+`}`)
	ex := ok[Export](t, st, obj{"operation": "export", "sessionId": "deep", "format": "markdown", "scope": "tree"})
	require.Equal(t, depth, strings.Count(ex.Text, "\n## user\n"))
	for _, i := range []int{1, depth / 2, depth - 1} {
		child, parent := strings.Index(ex.Text, "· `c"+itoa(i)+"` · reply to"), strings.Index(ex.Text, "· `c"+itoa(i-1)+"` · ")
		assert.Greater(t, child, parent, "c%d comes after its parent", i)
	}
	assert.Contains(t, ex.Text, "`c0` · root · branch `main` · ● cursor")
}

// itoa is strconv.Itoa for the tests' ids.
func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestExportMarkdownSaysAMessageHasNoText(t *testing.T) {
	st := testStore(t)
	ok[Status](t, st, obj{"operation": "create", "sessionId": "e"})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "e", "message": obj{"role": "system", "content": ""}})
	ok[obj](t, st, obj{"operation": "append", "sessionId": "e", "message": obj{"role": "user", "content": "hi"}})
	md := ok[Export](t, st, obj{"operation": "export", "sessionId": "e", "format": "markdown"}).Text
	sys := md[strings.Index(md, "## system"):strings.Index(md, "## user")]
	assert.True(t, strings.HasSuffix(sys, "</sub>\n\n_(no text)_\n\n"), "an empty message is said to be empty, not a heading over nothing: %q", sys)
	assert.Contains(t, md, "## user\n")
}
