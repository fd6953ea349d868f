package formats

import (
	"strings"
	"testing"
)

func TestMarkdownCodeFitsAnyValueInOneSpan(t *testing.T) {
	cases := []struct{ in, want string }{
		{"ex/1", "`ex/1`"},
		{"", "``"},
		{"a`b", "``a`b``"},
		{"a``b`", "``` a``b` ```"},
		{"`x", "`` `x ``"},
		{" x", "`  x `"},
		{"a\nb\u2028c\x00d", "`a b c d`"},
	}
	for _, c := range cases {
		if got := markdownCode(c.in); got != c.want {
			t.Errorf("markdownCode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMarkdownInlineEscapesEveryConstruct(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Paris trip", "Paris trip"},
		{"model_change", "model_change"},
		{"_x_ *y*", `\_x\_ \*y\*`},
		{`<img src=x onerror=alert(1)>`, `\<img src=x onerror=alert\(1\)\>`},
		{"[x](javascript:alert(1))", `\[x\]\(javascript:alert\(1\)\)`},
		{"a\n\n# b\u2028c", `a \# b c`},
		{`&lt; \ ! | ~ ` + "`", `\&lt; \\ \! \| \~ \` + "`"},
		{"2026-11-29T12:00:00.002Z", "2026-11-29T12:00:00.002Z"},
	}
	for _, c := range cases {
		if got := markdownInline(c.in); got != c.want {
			t.Errorf("markdownInline(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMarkdownContentKeepsMarkdownAndDisarmsHTMLAndLinks(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain Markdown stays", "Plan **two** days\n- a\n- b", "Plan **two** days\n- a\n- b"},
		{"raw HTML becomes text", `<img src=x onerror=alert(1)> <script>alert(2)</script>`, `&lt;img src=x onerror=alert(1)> &lt;script>alert(2)&lt;/script>`},
		{"an HTML block becomes text", "<div>\n<a href=\"javascript:alert(1)\">x</a>\n</div>", "&lt;div>\n&lt;a href=\"javascript:alert(1)\">x&lt;/a>\n&lt;/div>"},
		{"safe links stay", "[a](https://example.com/x) [b](/rel) [c](#top) [d](mailto:a@b.c) [e](x.html)", "[a](https://example.com/x) [b](/rel) [c](#top) [d](mailto:a@b.c) [e](x.html)"},
		{"javascript: links become text", "[x](javascript:alert(1)) [y](JavaScript:alert(1))", `[x]\(javascript:alert(1)) [y]\(JavaScript:alert(1))`},
		{"data: links and images become text", "[x](data:text/html,<script>alert(1)</script>) ![i](data:image/svg+xml,x)", `[x]\(data:text/html,&lt;script>alert(1)&lt;/script>) ![i]\(data:image/svg+xml,x)`},
		{"obfuscated schemes become text", "[a](java&#115;cript:x) [b](java\\script:x) [c](\n javascript:x) [d](<javascript:x>) [e](%6aavascript:x)",
			"[a]\\(java&#115;cript:x) [b]\\(java\\script:x) [c]\\(\n javascript:x) [d]\\(&lt;javascript:x>) [e]\\(%6aavascript:x)"},
		{"reference definitions become text", "[x]: javascript:alert(1)\n[x]", "[x]\\: javascript:alert(1)\n[x]"},
		{"autolinks become text", "<javascript:alert(1)> <https://a.b>", "&lt;javascript:alert(1)> &lt;https://a.b>"},
		{"fenced code stays as it is", "```html\n<script>alert(1)</script>\n[x](javascript:y)\n```\n<b>", "```html\n<script>alert(1)</script>\n[x](javascript:y)\n```\n&lt;b>"},
		{"tilde fences and longer closers", "~~~~\n<i>\n~~~~~~\n<i>", "~~~~\n<i>\n~~~~~~\n&lt;i>"},
		{"an open fence is closed", "```\n<i>", "```\n<i>\n```\n"},
		{"an indented fence is guarded", "  ```\n<img src=x onerror=alert(1)>\n```\n<i>\n```", "  \\```\n&lt;img src=x onerror=alert(1)>\n```\n<i>\n```"},
		{"a backtick info string is no fence and is guarded", "``` a`b\n<i>", "\\``` a`b\n&lt;i>"},
		{"a line with text after the fence stays code", "```\n<i>\n```python\n<b>\n```\n<u>", "```\n<i>\n```python\n<b>\n```\n&lt;u>"},
		{"a closing line only some renderers take is guarded", "```\n<i>\n```~~~\n<b>\n    ```\n\t```\n```\t\n<s>\n```\n<u>", "```\n<i>\n\\```~~~\n<b>\n\\    ```\n\\\t```\n\\```\t\n<s>\n```\n&lt;u>"},
		{"carriage returns are line ends", "```\r<i>\r```\r<b>", "```\n<i>\n```\n&lt;b>"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := markdownContent(c.in); got != c.want {
				t.Errorf("markdownContent(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

func TestMarkdownExportEscapesEveryMetadataField(t *testing.T) {
	s := &ExportSession{
		ID: "s`1`<b>", Title: "<script>alert(1)</script>", Active: "main`<i>",
		Nodes: []ExportNode{
			{ID: "n`1", Kind: KindMessage, Role: "<img src=x onerror=alert(1)>", Timestamp: "<t>", Label: "*<u>*", Text: "<script>alert(2)</script>"},
			{ID: "n2", ParentID: "n`1", Kind: KindModelChange, Role: "model_change", Entry: &Entry{}, Text: "<b>x</b>"},
		},
		Cursor: 1, Path: []int32{0, 1},
	}
	got := string(exportMarkdown(s))
	want := "# \\<script\\>alert\\(1\\)\\</script\\>\n\n" +
		"Scope: this path, root → cursor (2 of 2 nodes) · session ``s`1`<b>`` · cursor `n2` · branch ``main`<i>``\n\n" +
		"## \\<img src=x onerror=alert\\(1\\)\\>\n\n<sub>\\<t\\> · ``n`1`` · label: \\*\\<u\\>\\*</sub>\n\n&lt;script>alert(2)&lt;/script>\n\n" +
		"## model_change\n\n<sub> · `n2`</sub>\n\n_\\<b\\>x\\</b\\>_\n"
	if got != want {
		t.Errorf("exportMarkdown\n got %q\nwant %q", got, want)
	}
}

func TestMarkdownTreeExportEscapesEveryMetadataField(t *testing.T) {
	s := &ExportSession{
		ID: "s`1", Title: "<b>t</b>", Active: "main",
		Nodes: []ExportNode{
			{ID: "r`1", Branch: "b<i>`", Kind: KindMessage, Role: "user", Timestamp: "t0", Text: "[x](javascript:alert(1))"},
			{ID: "c<2>", ParentID: "r`1", Branch: "main", Kind: KindMessage, Role: "assistant", Timestamp: "t1", Label: "<l>", Text: "ok"},
			{ID: "orphan", ParentID: "gone", Branch: "main", Kind: KindSummary, Role: "summary", Timestamp: "t2", Text: "s"},
		},
		Cursor: 1, Path: []int32{0, 1},
	}
	got := string(exportMarkdownTree(s))
	want := "# \\<b\\>t\\</b\\>\n\n" +
		"Scope: the whole tree (3 nodes, 2 roots, depth first; ● marks the path to the cursor) · session ``s`1`` · cursor `c<2>` · branch `main`\n\n" +
		"## user\n\n<sub>t0 · ``r`1`` · root · branch `` b<i>` `` · ●</sub>\n\n[x]\\(javascript:alert(1))\n\n" +
		"## assistant\n\n<sub>t1 · `c<2>` · label: \\<l\\> · reply to ``r`1`` · branch `main` · ● cursor</sub>\n\nok\n\n" +
		"## summary\n\n<sub>t2 · `orphan` · reply to `gone` · branch `main`</sub>\n\ns\n"
	if got != want {
		t.Errorf("exportMarkdownTree\n got %q\nwant %q", got, want)
	}
}

func TestMarkdownExportWritesCitationsAsFootnotes(t *testing.T) {
	marker := "\ue200cite\ue202turn0search3\ue201"
	source := `{"id":"a","message":{"metadata":{"content_references":[{"matched_text":"\ue200cite\ue202turn0search3\ue201","items":[{"title":"Paris [city]","url":"https://en.wikipedia.org/wiki/Paris"},{"title":"Odd","url":"https://x.example/a(b)"}]}]}}}`
	s := &ExportSession{
		ID: "s", Active: "main",
		Nodes: []ExportNode{{ID: "n1", Kind: KindMessage, Role: "assistant", Timestamp: "t",
			Text:   "Paris is the capital. " + marker + "\n" + marker + "```js\nx\n```\n\ue200entity\ue202[\"city\",\"Lyon\"]\ue201 too.",
			Source: []byte(source)}},
		Cursor: 0, Path: []int32{0},
	}
	got := string(exportMarkdown(s))
	want := "Paris is the capital. [1][2]\n```js\nx\n```\nLyon too.\n\nSources:\n\n" +
		"- \\[1\\] [Paris \\[city\\]](https://en.wikipedia.org/wiki/Paris) — en.wikipedia.org\n" +
		"- \\[2\\] Odd `https://x.example/a(b)` — x.example\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("exportMarkdown\n got %q\nwant suffix %q", got, want)
	}
}
