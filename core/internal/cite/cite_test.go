package cite

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func marker(name string, fields ...string) string {
	return "\ue200" + name + "\ue202" + strings.Join(fields, "\ue202") + "\ue201"
}

func place(n ...int) string {
	s := make([]string, len(n))
	for i, k := range n {
		s[i] = strconv.Itoa(k)
	}
	return Mark + "c" + strings.Join(s, ".") + Mark
}

// The same metadata as e2e/citations.test.mjs (static/citations.js).
var testMetadata = `{
 "content_references": [
  {"matched_text": "` + jsonEscape(marker("cite", "turn0search3")) + `", "type": "grouped_webpages",
   "items": [{"title": "Paris — Wikipedia", "url": "https://en.wikipedia.org/wiki/Paris", "attribution": "Wikipedia", "refs": [{"turn_index": 0, "ref_type": "search", "ref_index": 3}]}]},
  {"matched_text": "` + jsonEscape(marker("cite", "turn0search3", "turn0news1")) + `", "type": "grouped_webpages",
   "items": [{"title": "Paris — Wikipedia", "url": "https://en.wikipedia.org/wiki/Paris"}, {"title": "City news", "url": "https://www.lemonde.fr/paris/"}]},
  {"matched_text": " ", "type": "sources_footnote", "items": []}
 ],
 "search_result_groups": [
  {"type": "search_result_group", "domain": "example.org", "entries": [{"type": "search_result", "url": "https://example.org/a", "title": "Example A", "ref_id": {"turn_index": 1, "ref_type": "search", "ref_index": 0}}]}
 ]
}`

func jsonEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 0xE000 && r <= 0xF8FF {
			b.WriteString(`\u` + strconv.FormatInt(int64(r), 16))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestResolve(t *testing.T) {
	paris := Source{N: 1, Title: "Paris — Wikipedia", URL: "https://en.wikipedia.org/wiki/Paris", Host: "en.wikipedia.org"}
	news := Source{N: 2, Title: "City news", URL: "https://www.lemonde.fr/paris/", Host: "lemonde.fr"}
	old := `{"citations": [{"start_ix": 30, "metadata": {"title": "Second", "url": "https://b.example/"}}, {"start_ix": 10, "metadata": {"title": "First", "url": "https://a.example/"}}]}`
	tests := []struct {
		name, text, metadata, want string
		sources                    []Source
	}{
		{"cite markers become placeholders numbered by first citation, one number per URL",
			"Paris is the capital. " + marker("cite", "turn0search3") + " It has news. " + marker("cite", "turn0search3", "turn0news1"), testMetadata,
			"Paris is the capital. " + place(1) + " It has news. " + place(1, 2), []Source{paris, news}},
		{"a marker with no content reference is resolved through search_result_groups",
			"See this. " + marker("cite", "turn1search0"), testMetadata,
			"See this. " + place(1), []Source{{N: 1, Title: "Example A", URL: "https://example.org/a", Host: "example.org"}}},
		{"unknown sources, entities, image groups and block brackets leave no private-use character",
			"\ue203Iron came from " + marker("entity", `["people", "Nathaniel L. Erb-Satullo", 0]`) + ".\ue204 " + marker("cite", "turn9search9") + "\n" + marker("image_group", `{"query":["iron smelting"]}`) + "\n" + marker("i", "turn0image1") + "```xml\n<a/>\n```", testMetadata,
			"Iron came from Nathaniel L. Erb-Satullo. \n\n```xml\n<a/>\n```", nil},
		{"a marker just before a code fence leaves the fence at the start of its line",
			"Use this:\n" + marker("cite", "turn5search5") + "```js\nx\n```", testMetadata, "Use this:\n```js\nx\n```", nil},
		{"a cited marker at the start of a line moves to the end of the line before",
			"Use this:\n  " + marker("cite", "turn0search3") + "```js\nx\n```", testMetadata, "Use this:" + place(1) + "\n  ```js\nx\n```", []Source{{N: 1, Title: "Paris — Wikipedia", URL: "https://en.wikipedia.org/wiki/Paris", Host: "en.wikipedia.org"}}},
		{"a cited marker at the start of the text is dropped",
			marker("cite", "turn0search3") + "- item", testMetadata, "- item", []Source{{N: 1, Title: "Paris — Wikipedia", URL: "https://en.wikipedia.org/wiki/Paris", Host: "en.wikipedia.org"}}},
		{"older citations are resolved in order from metadata.citations",
			"Founded 2014【0†source】 grew【1†source】.", old, "Founded 2014" + place(1) + " grew" + place(2) + ".",
			[]Source{{N: 1, Title: "First", URL: "https://a.example/", Host: "a.example"}, {N: 2, Title: "Second", URL: "https://b.example/", Host: "b.example"}}},
		{"older citations without metadata stay", "A 【0†source】 stays.", `{}`, "A 【0†source】 stays.", nil},
		{"text without markers is returned as it is", "plain **text**", testMetadata, "plain **text**", nil},
		{"metadata that is not an object resolves nothing", "a " + marker("cite", "turn0search3"), `[1,2]`, "a ", nil},
		{"a source that is not http is not cited", "a " + marker("cite", "x"), `{"content_references":[{"matched_text":"` + jsonEscape(marker("cite", "x")) + `","items":[{"url":"javascript:alert(1)"}]}]}`, "a ", nil},
		{"an unclosed marker loses only its private-use characters", "a \ue200cite\ue202turn0 b", testMetadata, "a citeturn0 b", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, sources := Resolve(tt.text, []byte(tt.metadata))
			if got != tt.want {
				t.Errorf("Resolve(%q) = %q, want %q", tt.text, got, tt.want)
			}
			if len(sources) != len(tt.sources) {
				t.Fatalf("Resolve(%q) sources = %+v, want %+v", tt.text, sources, tt.sources)
			}
			for i := range sources {
				if sources[i] != tt.sources[i] {
					t.Errorf("source %d = %+v, want %+v", i, sources[i], tt.sources[i])
				}
			}
		})
	}
}

func TestStripAndWrite(t *testing.T) {
	t.Run("Strip removes cite markers and keeps entity names", func(t *testing.T) {
		in := "By " + marker("entity", `["people","Ada",0]`) + ". " + marker("cite", "turn0search3")
		if got := Strip(in); got != "By Ada. " {
			t.Errorf("Strip = %q", got)
		}
	})
	t.Run("Strip returns text without markers as it is", func(t *testing.T) {
		if got := Strip("【no】 plain"); got != "【no】 plain" {
			t.Errorf("Strip = %q", got)
		}
	})
	t.Run("Write replaces placeholders and leaves a broken one", func(t *testing.T) {
		in := "a" + place(1, 2) + " b" + Mark + "cx" + Mark
		got := Write(in, func(n []int) string { return strconv.Itoa(len(n)) })
		if want := "a2 b" + Mark + "cx" + Mark; got != want {
			t.Errorf("Write = %q, want %q", got, want)
		}
	})
	t.Run("HostOf drops www and fails to empty", func(t *testing.T) {
		if HostOf("https://www.example.com/x") != "example.com" || HostOf("::") != "" {
			t.Errorf("HostOf")
		}
	})
}

func FuzzResolve(f *testing.F) {
	f.Add("a "+marker("cite", "turn0search3")+" b【0†source】", testMetadata)
	f.Add("\ue200entity\ue202[\"x\",\"y\"]\ue201\ue200\ue201\ue202", `{"citations":[{"metadata":{"url":"https://a/"}}]}`)
	f.Fuzz(func(t *testing.T, text, metadata string) {
		got, sources := Resolve(text, []byte(metadata))
		for _, r := range got {
			if r >= 0xE000 && r <= 0xF8FF {
				t.Fatalf("Resolve(%q) = %q keeps a private-use character", text, got)
			}
		}
		if utf8.ValidString(text) && !utf8.ValidString(got) {
			t.Fatalf("Resolve(%q) = %q is not UTF-8", text, got)
		}
		for i, s := range sources {
			if s.N != i+1 || !strings.HasPrefix(strings.ToLower(s.URL), "http") {
				t.Fatalf("source %d = %+v", i, s)
			}
		}
		if strings.Contains(Strip(text), "\ue200") {
			t.Fatalf("Strip(%q) keeps a marker", text)
		}
	})
}
