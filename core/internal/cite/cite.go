// Package cite reads the citation markup of imported answers: which
// sources an answer cites and where, and its text with every marker taken
// out, so Markdown, previews and search see the text as the author wrote
// it. Pure functions; knows nothing of Session or Store.
//
// ChatGPT answers written with web search hold markers made of private-use
// characters: U+E200 opens one, U+E202 separates its fields, U+E201 closes
// it. The first field names it: "cite" (then references such as
// "turn0search3"), "entity" (then a JSON array whose second item is the
// name shown), "image_group", "navlist", "product", … (drawn by ChatGPT
// itself; nothing to show here). U+E203/U+E204 bracket a cited span. The
// message's metadata says what a marker points to: content_references
// (each with matched_text, the marker, and items of {title, url}) and
// search_result_groups (entries with ref_id {turn_index, ref_type,
// ref_index}). Older answers cite as "【3†source】" with metadata.citations
// ({start_ix, metadata: {title, url}}), in text order. The shapes were read
// from exports described in public issues of pionxzh/chatgpt-exporter
// (#259, #276) and daugaard47/ChatGPT_Conversations_To_Markdown (#8), and
// LibreChat's test fixture chatgpt-citations.json. static/citations.js does
// the same in the browser; the two are held to the same cases by tests.
package cite

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Mark opens and closes the placeholder Resolve leaves for one citation:
// Mark, "c", the source numbers joined by ".", Mark (U+2063 INVISIBLE
// SEPARATOR, which no Markdown renderer treats as syntax).
const Mark = "\u2063"

// Source is one cited web page: its title (the host when it has none), URL
// (http or https) and host without "www.".
type Source struct {
	N                int
	Title, URL, Host string
}

// Has reports whether text holds anything Resolve or Strip would change: a
// private-use character of the Basic Multilingual Plane (U+E000–U+F8FF) or
// an older citation's "【". Cheap: a byte scan for their lead bytes.
func Has(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == 0xEE || c == 0xEF || (c == 0xE3 && i+1 < len(text) && text[i+1] == 0x80) {
			r, _ := utf8.DecodeRuneInString(text[i:])
			if (r >= 0xE000 && r <= 0xF8FF) || r == '【' {
				return true
			}
		}
	}
	return false
}

// Strip returns text with every marker taken out and no sources: a cite
// marker becomes "", an entity marker its name, any other marker and any
// other private-use character "". Older "【n†…】" citations stay (without
// metadata they cannot be told from text). For previews and search.
func Strip(text string) string {
	if !Has(text) {
		return text
	}
	out, _ := Resolve(text, nil)
	return out
}

// Resolve returns text with its markers resolved by the message's metadata
// (a ChatGPT message's "metadata" object, nil for none): a cite marker
// whose sources are known becomes a placeholder (see Mark), the sources
// numbered from 1 in order of first citation, one number per URL; the rest
// as Strip. Older "【n†…】" citations are resolved in order from
// metadata.citations when it has any. Never fails: metadata that does not
// parse resolves nothing.
func Resolve(text string, metadata []byte) (string, []Source) {
	if !Has(text) {
		return text, nil
	}
	idx := readIndex(metadata)
	r := resolver{idx: idx, numberOf: map[string]int{}}
	var b strings.Builder
	b.Grow(len(text))
	old := 0
	for i := 0; i < len(text); {
		c, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case c == '\ue200':
			end := strings.IndexRune(text[i:], '\ue201')
			if end < 0 || strings.ContainsRune(text[i+size:i+end], '\ue200') {
				i += size // unclosed, or another marker opens first
				continue
			}
			whole := text[i : i+end+len("\ue201")]
			b.WriteString(r.marker(whole))
			i += len(whole)
		case c == '【' && len(idx.old) > 0:
			n := oldCiteLen(text[i:])
			if n == 0 {
				b.WriteRune(c)
				i += size
				continue
			}
			if old < len(idx.old) && idx.old[old].URL != "" {
				b.WriteString(r.place([]Source{idx.old[old]}))
			}
			old++
			i += n
		case c >= 0xE000 && c <= 0xF8FF:
			i += size
		case c == utf8.RuneError && size == 1:
			// A byte that is not UTF-8 (stored texts are; fuzzed ones need
			// not be) is written as U+FFFD: kept raw, it could join the bytes
			// after a removed marker into a private-use character again.
			b.WriteRune(utf8.RuneError)
			i += size
		default:
			b.WriteString(text[i : i+size])
			i += size
		}
	}
	return lineEnds(b.String()), r.sources
}

// lineEnds moves each placeholder that starts a line (after its spaces and
// tabs) to the end of the line before, so that a fence, list item or table
// row after it still starts its line; one at the start of the text is
// dropped (its source stays listed); the same placeholder twice in a row
// is kept once.
func lineEnds(text string) string {
	if !strings.Contains(text, Mark+"c") {
		return text
	}
	out := make([]byte, 0, len(text))
	lineStart := 0 // in out: where the current line starts
	for i := 0; i < len(text); {
		if strings.HasPrefix(text[i:], Mark+"c") && strings.Trim(string(out[lineStart:]), " \t") == "" {
			if end := strings.Index(text[i+len(Mark)+1:], Mark); end >= 0 {
				ph := text[i : i+len(Mark)+1+end+len(Mark)]
				if lineStart > 0 && !bytes.HasSuffix(out[:lineStart-1], []byte(ph)) {
					// In front of the newline that ends the line before.
					out = slices.Insert(out, lineStart-1, []byte(ph)...)
					lineStart += len(ph)
				}
				i += len(ph)
				continue
			}
		}
		out = append(out, text[i])
		if text[i] == '\n' {
			lineStart = len(out)
		}
		i++
	}
	return string(out)
}

// Write returns text with Resolve's placeholders replaced by write(numbers).
func Write(text string, write func(numbers []int) string) string {
	if !strings.Contains(text, Mark+"c") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, Mark+"c")
		if i < 0 {
			break
		}
		rest := text[i+len(Mark)+1:]
		j := strings.Index(rest, Mark)
		nums, ok := numbers(rest[:max(j, 0)])
		if j < 0 || !ok {
			b.WriteString(text[:i+len(Mark)])
			text = text[i+len(Mark):]
			continue
		}
		b.WriteString(text[:i])
		b.WriteString(write(nums))
		text = rest[j+len(Mark):]
	}
	b.WriteString(text)
	return b.String()
}

// numbers reads "1.2.3".
func numbers(s string) ([]int, bool) {
	if s == "" {
		return nil, false
	}
	var out []int
	for _, f := range strings.Split(s, ".") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// oldCiteLen returns the length in bytes of an older citation at the start
// of s ("【3†source】", "【3:1†Title†host】"), or 0.
func oldCiteLen(s string) int {
	i := len("【")
	digits := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == ':') {
		i++
		digits++
	}
	if digits == 0 || !strings.HasPrefix(s[i:], "†") {
		return 0
	}
	end := strings.Index(s[i:], "】")
	if end < 0 || end > 900 || strings.ContainsRune(s[i:i+end], '\n') {
		return 0
	}
	return i + end + len("】")
}

// resolver numbers the sources of one message as they are cited.
type resolver struct {
	idx      index
	sources  []Source
	numberOf map[string]int
}

// marker resolves one whole marker, U+E200 to U+E201.
func (r *resolver) marker(whole string) string {
	inner := strings.TrimSuffix(strings.TrimPrefix(whole, "\ue200"), "\ue201")
	fields := strings.Split(inner, "\ue202")
	switch fields[0] {
	case "cite", "filecite":
		if list, ok := r.idx.byMarker[whole]; ok {
			return r.place(list)
		}
		var list []Source
		for _, f := range fields[1:] {
			if s, ok := r.idx.byRef[strings.TrimSpace(f)]; ok {
				list = append(list, s)
			}
		}
		return r.place(list)
	case "entity":
		if len(fields) > 1 {
			return entityName(fields[1])
		}
	}
	return ""
}

// place numbers list's sources and returns their placeholder ("" for none).
func (r *resolver) place(list []Source) string {
	var nums []string
	for _, s := range list {
		n, ok := r.numberOf[s.URL]
		if !ok {
			n = len(r.sources) + 1
			r.numberOf[s.URL] = n
			s.N = n
			if s.Title == "" {
				s.Title = s.Host
			}
			r.sources = append(r.sources, s)
		}
		if k := strconv.Itoa(n); !slices.Contains(nums, k) {
			nums = append(nums, k)
		}
	}
	if len(nums) == 0 {
		return ""
	}
	return Mark + "c" + strings.Join(nums, ".") + Mark
}

// entityName returns the name an entity marker shows: the second item of
// its JSON array, else "".
func entityName(field string) string {
	var v []jsonx.RawMessage
	if jsonx.CheckSyntax([]byte(field)) != nil || !jsonx.ReadRaws([]byte(field), &v) || len(v) < 2 {
		return ""
	}
	var name string
	_ = jsonx.ReadString(v[1], &name) // "" when it is not a string
	return name
}
