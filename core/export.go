package core

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Export is the value of export: a file to save. Text is the file's
// contents; Filename is derived from the session id (characters outside
// A–Z a–z 0–9 . _ - become "_", at most 100 bytes); MimeType is what a
// browser download should carry.
type Export struct {
	Format   string `json:"format"`
	Filename string `json:"filename"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
}

// exporter writes one session in one format.
type exporter struct {
	ext, mime string
	write     func(s *Session) []byte
}

// exporters lists the export formats by name.
var exporters map[string]exporter

func init() {
	exporters = map[string]exporter{
		"snapshot": {".sessiontree.json", "application/json", func(s *Session) []byte { return append(s.appendSnapshot(nil), '\n') }},
		"markdown": {".md", "text/markdown", exportMarkdown},
		"openai":   {".openai.json", "application/json", exportOpenAI},
		"pi":       {".pi.jsonl", "application/x-ndjson", exportPi},
	}
}

// ExportFormats returns the names of the export formats, sorted.
func ExportFormats() []string {
	return sortedKeys(exporters)
}

func opExport(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	format, err := r.str("format")
	if err != nil {
		return nil, err
	}
	ex, ok := exporters[format]
	if !ok {
		return nil, invalidf("field \"format\": unknown export format %q (known: %s)", format, strings.Join(ExportFormats(), ", "))
	}
	return Export{Format: format, Filename: exportFilename(s.id) + ex.ext, MimeType: ex.mime, Text: string(ex.write(s))}, nil
}

func exportFilename(id string) string {
	var b strings.Builder
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 100 {
			break
		}
	}
	name := strings.TrimLeft(b.String(), ".")
	if name == "" {
		name = "session"
	}
	return name
}

// exportOpenAI writes the context messages of the session (what the model
// sees at the cursor) as a JSON array, one message per line.
func exportOpenAI(s *Session) []byte {
	ctx := s.context()
	b := []byte("[")
	for i, m := range ctx.Messages {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n  "...)
		b = append(b, m...)
	}
	return append(b, "\n]\n"...)
}

// exportMarkdown writes the root→cursor path readably: a heading with the
// title, then per node a heading with its role (or kind) and time, and its
// text. Text parts are written as they are (they usually are Markdown);
// content parts without text and tool calls appear as their readable text
// from MessageText.
func exportMarkdown(s *Session) []byte {
	var b bytes.Buffer
	title := s.title
	if title == "" {
		title = s.id
	}
	jsonx.Fprintf(&b, "# %s\n\n", oneLine(title))
	jsonx.Fprintf(&b, "Session `%s` · cursor `%s` · branch `%s`\n", s.id, s.nodeID(s.cursor), s.active)
	for _, i := range s.path(s.cursor) {
		n := s.nodes[i]
		head := n.Role()
		text := ""
		switch {
		case n.Kind == KindMessage:
			text = MessageText(n.Message)
		case n.Kind == KindSummary:
			head, text = "summary", n.Summary
		case n.Entry != nil:
			text = entryText(n.Kind, n.Entry)
		}
		jsonx.Fprintf(&b, "\n## %s\n\n", head)
		jsonx.Fprintf(&b, "<sub>%s · `%s`", n.Timestamp, n.ID)
		if label := s.labels[i]; label != "" {
			jsonx.Fprintf(&b, " · label: %s", oneLine(label))
		}
		b.WriteString("</sub>\n\n")
		if n.Entry != nil && n.Kind != KindCustomMessage && n.Kind != KindCompaction {
			jsonx.Fprintf(&b, "_%s_\n", oneLine(text))
			continue
		}
		b.WriteString(strings.TrimRight(text, "\n"))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// piSessionNode reports whether node 0 is the kept header of an imported
// Pi session (a root custom entry "pi/session" holding an object).
func (s *Session) piSessionNode() bool {
	if len(s.nodes) == 0 {
		return false
	}
	n := s.nodes[0]
	return n.ParentID == "" && n.Kind == KindCustom && n.Entry.CustomType == "pi/session" && len(n.Entry.Data) > 0 && n.Entry.Data[0] == '{'
}

// exportPi writes a Pi session file, version 3 (see import_pi.go): the
// header, every node as an entry (messages as they are stored), the cursor
// last so Pi's leaf is the cursor, then the labels as Pi label entries
// chained after it. Fields Pi ignores keep what Pi has no place for:
// "branch" on every entry, and in the header "sessiontree" with the title,
// the active branch and every annotation. Importing the file gives the
// same tree back. Node kinds Pi lacks (active_tools_change) are written
// with their own type, which Pi's context skips.
func exportPi(s *Session) []byte {
	var b []byte
	headerNode := s.piSessionNode()
	// Header.
	b = append(b, `{"type":"session","version":3,"id":`...)
	b = jsonx.AppendString(b, s.id)
	if headerNode {
		b = appendObjectFields(b, s.nodes[0].Entry.Data, "type", "version", "id", "sessiontree")
	} else {
		b = append(b, `,"timestamp":`...)
		b = jsonx.AppendString(b, s.createdAt)
		b = append(b, `,"cwd":""`...)
	}
	b = append(b, `,"sessiontree":{"title":`...)
	b = jsonx.AppendString(b, s.title)
	b = append(b, `,"activeBranch":`...)
	b = jsonx.AppendString(b, s.active)
	b = append(b, `,"annotations":[`...)
	for k, a := range s.annotations {
		if k > 0 {
			b = append(b, ',')
		}
		b = a.AppendJSON(b)
	}
	b = append(b, "]}}\n"...)
	// Entries, the cursor last.
	for i := range s.nodes {
		if int32(i) == s.cursor || (i == 0 && headerNode) {
			continue
		}
		b = s.appendPiEntry(b, int32(i), headerNode)
	}
	if s.cursor >= 0 && !(s.cursor == 0 && headerNode) {
		b = s.appendPiEntry(b, s.cursor, headerNode)
	}
	// Labels, chained after the cursor (Pi appends them at its leaf).
	prev := s.nodeID(s.cursor)
	seq := 0
	for _, a := range s.annotations {
		if a.Kind != AnnotationLabel {
			continue
		}
		var id string
		for {
			seq++
			id = jsonx.Sprintf("label-%d", seq)
			if _, taken := s.index[id]; !taken {
				break
			}
		}
		b = append(b, `{"type":"label","id":`...)
		b = jsonx.AppendString(b, id)
		b = append(b, `,"parentId":`...)
		b = jsonx.AppendNullableString(b, prev)
		b = append(b, `,"timestamp":`...)
		b = jsonx.AppendString(b, a.Timestamp)
		b = append(b, `,"targetId":`...)
		b = jsonx.AppendString(b, a.NodeID)
		if a.Label != "" {
			b = append(b, `,"label":`...)
			b = jsonx.AppendString(b, a.Label)
		}
		b = append(b, "}\n"...)
		prev = id
	}
	return b
}

// appendPiEntry writes node i as one Pi entry line.
func (s *Session) appendPiEntry(b []byte, i int32, headerNode bool) []byte {
	n := s.nodes[i]
	parent := n.ParentID
	if headerNode && parent == s.nodes[0].ID {
		parent = "" // the header's children are the file's roots
	}
	if n.Kind == KindCustom && strings.HasPrefix(n.Entry.CustomType, "pi/") && len(n.Entry.Data) > 0 && n.Entry.Data[0] == '{' {
		// A Pi entry sessiontree could not map: its original line.
		start := len(b)
		b = appendObjectFields(b, n.Entry.Data, "branch")
		if len(b) == start {
			b = append(b, '{')
		} else {
			b[start] = '{'
			b = append(b, ',')
		}
		b = append(b, `"branch":`...)
		b = jsonx.AppendString(b, n.Branch)
		return append(b, "}\n"...)
	}
	head := func(typ string) {
		b = append(b, `{"type":`...)
		b = jsonx.AppendString(b, typ)
		b = append(b, `,"id":`...)
		b = jsonx.AppendString(b, n.ID)
		b = append(b, `,"parentId":`...)
		b = jsonx.AppendNullableString(b, parent)
		b = append(b, `,"timestamp":`...)
		b = jsonx.AppendString(b, n.Timestamp)
	}
	raw := func(key string, v RawMessage) {
		if v != nil {
			b = append(b, ',')
			b = jsonx.AppendKey(b, key)
			b = append(b, v...)
		}
	}
	str := func(key, v string) {
		b = append(b, ',')
		b = jsonx.AppendKey(b, key)
		b = jsonx.AppendString(b, v)
	}
	e := n.Entry
	switch n.Kind {
	case KindMessage:
		head("message")
		raw("message", n.Message)
	case KindSummary:
		head("branch_summary")
		str("fromId", parent)
		str("summary", n.Summary)
	case KindModelChange:
		head("model_change")
		str("provider", e.Provider)
		str("modelId", e.Model)
	case KindThinkingLevelChange:
		head("thinking_level_change")
		str("thinkingLevel", e.Level)
	case KindActiveToolsChange:
		head("active_tools_change")
		tools, _ := jsonx.Marshal(e.Tools)
		raw("tools", tools)
	case KindCompaction:
		head("compaction")
		str("summary", e.Summary)
		str("firstKeptEntryId", e.FirstKeptNodeID)
		raw("tokensBefore", e.TokensBefore)
	case KindCustom:
		head("custom")
		str("customType", e.CustomType)
		raw("data", e.Data)
	case KindCustomMessage:
		head("custom_message")
		str("customType", e.CustomType)
		raw("content", e.Content)
		if e.Display != nil {
			b = append(b, `,"display":`...)
			b = jsonx.AppendBool(b, *e.Display)
		}
		raw("details", e.Details)
	case KindSessionInfo:
		head("session_info")
		str("name", e.Name)
	default:
		head(n.Kind)
	}
	str("branch", n.Branch)
	return append(b, "}\n"...)
}

// appendObjectFields appends ",key:value" for every field of the JSON
// object raw, in its order, except the named keys. raw is trusted JSON
// (compacted by the store).
func appendObjectFields(b []byte, raw RawMessage, except ...string) []byte {
	s := jsonx.Scanner{Data: raw}
	_ = s.Members(func(key string, val []byte, _ bool) error {
		skip := false
		for _, x := range except {
			skip = skip || key == x
		}
		if skip || !utf8.ValidString(key) {
			return nil
		}
		b = append(b, ',')
		b = jsonx.AppendKey(b, key)
		b = append(b, val...)
		return nil
	})
	return b
}
