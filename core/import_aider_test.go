package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const aiderSample = "aider/.aider.chat.history.md"

func TestImportAider(t *testing.T) {
	t.Run("the sample: each run with prompts is a session, tool output and commands are entries", func(t *testing.T) {
		st := testStore(t)
		res := mustImport(t, st, sample(t, aiderSample), "auto")
		assert.Equal(t, "aider", res.Format)
		require.Len(t, res.Sessions, 2)
		require.Len(t, res.Skipped, 1)
		assert.Equal(t, "the run at line 39 has no prompt or reply (Aider opened and closed); skipped", res.Skipped[0].Reason)
		first, last := res.Sessions[0], res.Sessions[1]
		assert.Equal(t, "Make add() handle strings like \"1\" + \"2\"", first.Title)
		assert.Equal(t, treeShape{15, 1, 0, "L37", []string{"main"}}, shapeOf(t, st, first.SessionID))
		assert.Equal(t, []string{
			"user: Make add() handle strings\nlike \"1\" + \"2\"",
			"assistant: I will convert both arguments with `float()`.\n\n#### Changes\n\ncalc.py\n```python\n<<<<<<< SEARCH\ndef add(a, b):\n    return a + b\n=======\ndef add(a, b):\n    return float(a) + float(b)\n>>>>>>> REPLACE\n```",
			"user: why float and not int?",
			"assistant: `float` keeps decimals such as \"1.5\"; `int` would refuse them.",
		}, roleTexts(t, st, first.SessionID), "a #### heading in a reply (no two spaces) stays in the reply; /ask sends its words")
		assert.Equal(t, []string{"user: Add a test", "assistant: Added `test_calc.py`."}, roleTexts(t, st, last.SessionID))
		n := ok[obj](t, st, obj{"operation": "node", "sessionId": last.SessionID, "nodeId": "L47"})
		assert.Equal(t, obj{"customType": "aider/tool", "data": obj{"text": "Lint errors in calc.py:\ncalc.py:3: unused import os"}}, n["entry"], "\"> \" marks only the first line of a tool block")
		assert.Equal(t, []string{res.Skipped[0].Reason}, warningTexts(res))
	})
	t.Run("a history whose trailing white space was removed says so, not that Aider opened and closed", func(t *testing.T) {
		lines := strings.Split(string(sample(t, aiderSample)), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		_, err := testStore(t).Import([]byte(strings.Join(lines, "\n")), "auto")
		require.NotNil(t, err)
		assert.Contains(t, err.Message, "the run at line 1 has no prompt Aider marked: its prompt lines end in two spaces, and no line of this file does (was its trailing white space removed?); skipped")
		assert.NotContains(t, err.Message, "Aider opened and closed", "its runs have tool output: not runs Aider opened and closed")
	})
	t.Run("prompts without the two-space mark are read as reply text, with a warning that says why", func(t *testing.T) {
		data := "# aider chat started at 2025-02-10 15:20:01\n\n#### first q\n\nanswer one\n\n#### second q\n\nanswer two\n"
		st := testStore(t)
		res := mustImport(t, st, []byte(data), "auto")
		require.Len(t, res.Sessions, 1)
		assert.Contains(t, strings.Join(warningTexts(res), "\n"), `no line of this file ends in Aider's two-space mark (was its trailing white space removed?), so its 2 "#### " line(s) are read as reply text, not prompts`)
	})
	t.Run("importing again adds nothing; the history grown by a run adds only that run", func(t *testing.T) {
		data := sample(t, aiderSample)
		st := testStore(t)
		mustImport(t, st, data, "auto")
		again := mustImport(t, st, data, "auto")
		for _, s := range again.Sessions {
			assert.Equal(t, 0, s.Added)
		}
		grown := testStore(t)
		first := mustImport(t, grown, data[:nthLineEnd(data, 38)], "auto")
		require.Len(t, first.Sessions, 1)
		rest := mustImport(t, grown, data, "auto")
		assert.Equal(t, []int{0, 5}, []int{rest.Sessions[0].Added, rest.Sessions[1].Added})
	})
	t.Run("a JSON file named as aider, and Aider text named as another format, are refused", func(t *testing.T) {
		st := testStore(t)
		assert.Contains(t, fails(t, st, obj{"operation": "import", "format": "aider", "data": `{"a":1}`}, InvalidArgument), "the data is JSON, but aider exports are text")
		assert.Contains(t, fails(t, st, obj{"operation": "import", "format": "pi", "data": string(sample(t, aiderSample))}, InvalidArgument), "the data is text, but pi exports are JSON")
	})
}

func FuzzImportAider(f *testing.F) {
	fuzzImport(f, "aider", string(sample(f, aiderSample)),
		"# aider chat started at x\n#### /ask  \n> a\n#### b  \n\n> c  \nreply\n> d  ",
		"text before\n# aider chat started at 2025-01-01 00:00:00\n####  \n#### <blank>  \n")
}
