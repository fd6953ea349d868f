package formats

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/sessiontree/sessiontree/core/internal/cite"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// exportMarkdown writes the root→cursor path readably: a heading with the
// title, a line saying the file holds this path (and how many of the
// session's nodes that is), then per node a heading with its role (or
// kind) and time, and its text. Text parts are written as Markdown (they
// usually are), made safe by markdownContent; content parts without text
// and tool calls appear as their readable text from MessageText. Every
// metadata field (title, ids, branch, role, time, label, entry lines) is
// escaped for its place by markdownInline or markdownCode, so that no
// field can start an HTML tag, a link or leave its code span.
func exportMarkdown(s *ExportSession) []byte {
	var b bytes.Buffer
	writeMarkdownTitle(&b, s)
	jsonx.Fprintf(&b, "Scope: this path, root → cursor (%d of %d nodes) · session %s · cursor %s · branch %s\n",
		len(s.Path), len(s.Nodes), markdownCode(s.ID), markdownCode(s.nodeID(s.Cursor)), markdownCode(s.Active))
	for _, i := range s.Path {
		writeMarkdownNode(&b, &s.Nodes[i], "")
	}
	return b.Bytes()
}

// writeMarkdownTitle writes the file's first heading: the title, else the
// session id.
func writeMarkdownTitle(b *bytes.Buffer, s *ExportSession) {
	title := s.Title
	if title == "" {
		title = s.ID
	}
	jsonx.Fprintf(b, "# %s\n\n", markdownInline(title))
}

// writeMarkdownNode writes one node: a heading with its role (or kind), a
// line with its time, id, label and then extra (Markdown already made
// safe, "" for none), and its text.
func writeMarkdownNode(b *bytes.Buffer, n *ExportNode, extra string) {
	head, text := n.Role, n.Text
	if n.Kind == KindSummary {
		head = "summary"
	}
	jsonx.Fprintf(b, "\n## %s\n\n", markdownInline(head))
	jsonx.Fprintf(b, "<sub>%s · %s", markdownInline(n.Timestamp), markdownCode(n.ID))
	if label := n.Label; label != "" {
		jsonx.Fprintf(b, " · label: %s", markdownInline(label))
	}
	b.WriteString(extra)
	b.WriteString("</sub>\n\n")
	if n.Entry != nil && n.Kind != KindCustomMessage && n.Kind != KindCompaction {
		jsonx.Fprintf(b, "_%s_\n", markdownInline(text))
		return
	}
	if strings.TrimSpace(text) == "" {
		b.WriteString("_(no text)_\n") // a heading over nothing read as a cut file (ChatGPT's hidden system message)
		return
	}
	if !cite.Has(text) {
		b.WriteString(strings.TrimRight(markdownContent(text), "\n"))
		b.WriteByte('\n')
		return
	}
	text, sources := cite.Resolve(text, cite.MetadataOf(n.Source))
	body := cite.Write(markdownContent(text), func(nums []int) string {
		var f strings.Builder
		for _, k := range nums {
			jsonx.Fprintf(&f, "[%d]", k)
		}
		return f.String()
	})
	b.WriteString(strings.TrimRight(body, "\n"))
	b.WriteByte('\n')
	writeMarkdownSources(b, sources)
}

// writeMarkdownSources writes the sources an answer cites, under it, as
// "Sources:" and one line per source: "[1] [title](url) — host" (a URL
// that is not plainly safe is written as code, not as a link).
func writeMarkdownSources(b *bytes.Buffer, sources []cite.Source) {
	if len(sources) == 0 {
		return
	}
	b.WriteString("\nSources:\n\n")
	for _, s := range sources {
		jsonx.Fprintf(b, "- \\[%d\\] ", s.N)
		if safeURL(s.URL) {
			jsonx.Fprintf(b, "[%s](%s)", markdownInline(s.Title), s.URL)
		} else {
			jsonx.Fprintf(b, "%s %s", markdownInline(s.Title), markdownCode(s.URL))
		}
		if s.Host != "" && s.Host != s.Title {
			jsonx.Fprintf(b, " — %s", markdownInline(s.Host))
		}
		b.WriteByte('\n')
	}
}

// safeURL reports whether an http(s) URL can stand as a link destination
// as it is: no white space, control characters, "<", ">", "(", ")", "\\"
// or "&" (which a renderer could read as an entity).
func safeURL(u string) bool {
	lower := strings.ToLower(u)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") {
		return false
	}
	for i := 0; i < len(u); i++ {
		if c := u[i]; c <= ' ' || c == 0x7f || strings.IndexByte("<>()\\&`", c) >= 0 {
			return false
		}
	}
	return true
}

// oneLine joins the words of s with single spaces: every run of Unicode
// white space (line and paragraph separators included) becomes one space.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// markdownInline returns s as one line of Markdown text that renders as s
// (its white space collapsed, control characters dropped): a backslash
// before each ASCII character that can open or close a Markdown construct
// or an HTML tag in running text (\ ` * _ [ ] < > & ! # | ~ ( ); "_"
// between two ASCII letters or digits stays, it cannot). A field
// written so cannot start a tag, a link, an entity, emphasis, a code span
// or a heading's closing sequence.
func markdownInline(s string) string {
	s = oneLine(s)
	var b strings.Builder
	b.Grow(len(s))
	prev := rune(' ')
	for i, r := range s {
		switch {
		case r == '_' && isWordRune(prev) && i+1 < len(s) && isWordRune(rune(s[i+1])):
			b.WriteRune(r) // intraword: "_" cannot open or close emphasis
		case strings.ContainsRune("\\`*_[]<>&!#|~()", r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsControl(r):
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// isWordRune reports whether r is an ASCII letter or digit.
func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// markdownCode returns s as a Markdown code span that renders as s: line
// breaks and control characters become spaces (a code span is one line
// here), the fence is one backtick longer than the longest run of
// backticks in s, and s is padded with a space on each side when it
// starts or ends with a backtick or a space (renderers strip one). The
// empty string is "“", which renders as itself.
func markdownCode(s string) string {
	if s == "" {
		return "``"
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if c, d := s[0], s[len(s)-1]; c == '`' || c == ' ' || d == '`' || d == ' ' {
		s = " " + s + " "
	}
	return fence + s + fence
}

// markdownContent makes message text safe to render as Markdown while
// keeping its Markdown: outside fenced code blocks every "<" becomes
// "&lt;" (no raw HTML, no autolink; inside an inline code span it then
// shows as "&lt;"), every "]:" becomes "]\:" (no link reference
// definitions), and an inline link or image whose destination is not
// plainly safe (see safeDestination) gets "]\(" so it stays text. Fenced
// code blocks are kept as they are (a renderer escapes their contents);
// one left open is closed at the end, so it cannot swallow the rest of
// the export. Line endings become "\n".
//
// Fenced code is kept raw only where every CommonMark renderer sees the
// same fence, so that no renderer can take raw text for code's neighbour:
// a fence opens on a line that starts at column 0 with three or more
// backticks (and no backtick after them) or tildes, and closes on a line
// of up to three spaces, as many or more of its character, and spaces
// (the closing lines markdown-it and marked agree on). Any other line that
// starts, after white space, with a fence's characters and could open or
// close a fence in some renderer (an indented fence, "```~~~", a tab) gets
// a backslash before them, so that no renderer opens or closes a fence
// there.
func markdownContent(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	var b strings.Builder
	b.Grow(len(text) + len(text)/16)
	var fence string // the open fence's opening run, "" outside one
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		trimmed := strings.TrimLeft(line, " \t")
		indent := len(line) - len(trimmed)
		switch {
		case fence != "" && closesFence(line, fence):
			b.WriteString(line)
			fence = ""
		case fence != "" && strings.HasPrefix(trimmed, fence) && strings.TrimRight(strings.TrimLeft(trimmed, "`~"), " \t") == "":
			// Looks like a closing line to some renderer, not to all.
			b.WriteByte('\\')
			b.WriteString(line)
		case fence != "":
			b.WriteString(line)
		case fenceOpening(line) != "":
			fence = fenceOpening(line)
			b.WriteString(line)
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			b.WriteString(line[:indent])
			b.WriteByte('\\')
			writeMarkdownLine(&b, text, pos+indent, end)
		default:
			writeMarkdownLine(&b, text, pos, end)
		}
		if end < len(text) {
			b.WriteByte('\n')
		}
		pos = end + 1
	}
	if fence != "" {
		if !strings.HasSuffix(text, "\n") {
			b.WriteByte('\n')
		}
		b.WriteString(fence)
		b.WriteByte('\n')
	}
	return b.String()
}

// closesFence reports whether line closes the fence opened by the run
// fence in every renderer: up to three spaces, at least len(fence) of its
// character and nothing else, then spaces.
func closesFence(line, fence string) bool {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	n := 0
	for i < len(line) && line[i] == fence[0] {
		i++
		n++
	}
	return n >= len(fence) && strings.TrimRight(line[i:], " ") == ""
}

// fenceOpening returns the opening run of a code fence that line opens
// ("```", "~~~~", ...), or "".
func fenceOpening(line string) string {
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return ""
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 || (line[0] == '`' && strings.IndexByte(line[n:], '`') >= 0) {
		return ""
	}
	return line[:n]
}

// writeMarkdownLine writes text[start:end], a line outside fenced code,
// with the replacements of markdownContent. Link destinations are read
// from text (they may start on the next line).
func writeMarkdownLine(b *strings.Builder, text string, start, end int) {
	for i := start; i < end; i++ {
		c := text[i]
		switch {
		case c == '<':
			b.WriteString("&lt;")
		case c == ']' && i+1 < len(text) && text[i+1] == ':':
			b.WriteString(`]\`)
		case c == ']' && i+1 < len(text) && text[i+1] == '(' && !safeDestination(text[i+2:]):
			b.WriteString(`]\`)
		default:
			b.WriteByte(c)
		}
	}
}

// safeDestination reports whether the link destination that rest starts
// with (after "](") is plainly safe: its part before the first "/", "?" or
// "#" holds no ":" except after a scheme of http, https or mailto, and no
// character that a renderer or browser would decode or drop ("&", "\",
// "%", "<", white space other than the spaces and one line break before
// it, control characters). Everything else (javascript:, data:,
// vbscript:, an entity or escape that could spell one) is unsafe.
func safeDestination(rest string) bool {
	i := 0
	for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
		i++
	}
	if i < len(rest) && rest[i] == '\n' {
		i++
		for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t') {
			i++
		}
	}
	if i < len(rest) && rest[i] == '<' {
		return false
	}
	start := i
	for ; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c == '/' || c == '?' || c == '#' || c == ')' || c == ' ' || c == '\n':
			return true
		case c == ':':
			scheme := strings.ToLower(rest[start:i])
			return scheme == "http" || scheme == "https" || scheme == "mailto"
		case c == '&' || c == '\\' || c == '%' || c == '\t' || c < 0x20 || c == 0x7f || c >= 0x80:
			return false
		}
	}
	return true
}
