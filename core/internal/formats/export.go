package formats

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// ExportSession is one session as an exporter reads it: the intermediate
// tree core builds from a session, so that exporters are pure functions
// from it to bytes.
type ExportSession struct {
	ID, Title, CreatedAt string
	Active               string // the active branch
	// Nodes are every node in the order the session added them (parents
	// before children); Cursor is the cursor's index in Nodes, -1 for an
	// empty session, and Path the indexes from the root to the cursor.
	Nodes  []ExportNode
	Cursor int32
	Path   []int32
	// context is what the model sees at the cursor: the context messages
	// (filled for an exporter that asks for it).
	Context []jsonx.RawMessage
	// Annotations are every annotation record in snapshot form, in order;
	// Labels the label annotations among them.
	Annotations []jsonx.RawMessage
	Labels      []ExportLabel
}

// ExportNode is one node of an ExportSession.
type ExportNode struct {
	ID, ParentID, Branch, Kind, Timestamp string
	Role                                  string           // the message's role, else the kind
	Message                               jsonx.RawMessage // kind message
	Summary                               string           // kind summary
	Entry                                 *Entry           // entry kinds
	Label                                 string           // its label, "" for none
	Source                                jsonx.RawMessage // the export's own record (a ChatGPT one holds citation metadata), nil for none
	// text is the node's readable text (MessageText of a message, the
	// summary, a line describing an entry); only the nodes on Path have it,
	// and only for an exporter that asks for it.
	Text string
}

// ExportLabel is a label annotation: NodeID carries Label since Timestamp.
type ExportLabel struct {
	NodeID, Label, Timestamp string
}

// nodeID returns the id of node i, "" for -1.
func (s *ExportSession) nodeID(i int32) string {
	if i < 0 {
		return ""
	}
	return s.Nodes[i].ID
}

// The scopes of an export: what part of the session a file holds.
const (
	// ScopePath is the path from the root to the cursor.
	ScopePath = "path"
	// ScopeTree is every node of the session.
	ScopeTree = "tree"
)

// Exporter writes one session in one format: Ext is the file name's
// ending, MIME the type a browser download carries.
type Exporter struct {
	Ext, MIME string
	// Write is nil for the snapshot format, which core writes itself.
	Write func(s *ExportSession) []byte
	// Scope is what Write writes (ScopePath or ScopeTree). WriteTree, when
	// the format has it, writes the whole tree while Write writes the path
	// (then ExportNode.Text is filled on every node, not only the path's).
	Scope     string
	WriteTree func(s *ExportSession) []byte
	// Text and Context say whether Write reads ExportNode.Text and
	// ExportSession.Context, which core fills only then.
	Text, Context bool
}

// Exporters lists the export formats by name.
var Exporters = map[string]Exporter{
	"snapshot": {Ext: ".sessiontree.json", MIME: "application/json", Scope: ScopeTree},
	"markdown": {Ext: ".md", MIME: "text/markdown", Write: exportMarkdown, Scope: ScopePath, WriteTree: exportMarkdownTree, Text: true},
	"openai":   {Ext: ".openai.json", MIME: "application/json", Write: exportOpenAI, Scope: ScopePath, Context: true},
	"pi":       {Ext: ".pi.jsonl", MIME: "application/x-ndjson", Write: exportPi, Scope: ScopeTree},
}

// Scopes returns the scopes the exporter can write: its Scope, and
// ScopeTree too when it has WriteTree.
func (e Exporter) Scopes() []string {
	if e.WriteTree != nil {
		return []string{ScopePath, ScopeTree}
	}
	return []string{e.Scope}
}

// ExportFormats returns the names of the export formats, sorted.
func ExportFormats() []string {
	return slices.Sorted(maps.Keys(Exporters))
}

// ExportFilename derives a file name from a session id: characters outside
// A–Z a–z 0–9 . _ - become "_", at most 100 bytes, no leading dot
// ("session" when nothing is left).
func ExportFilename(id string) string {
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
func exportOpenAI(s *ExportSession) []byte {
	b := []byte("[")
	for i, m := range s.Context {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n  "...)
		b = append(b, m...)
	}
	return append(b, "\n]\n"...)
}

// piSessionNode reports whether node 0 is the kept header of an imported
// Pi session (a root custom entry "pi/session" holding an object).
func (s *ExportSession) piSessionNode() bool {
	if len(s.Nodes) == 0 {
		return false
	}
	n := s.Nodes[0]
	return n.ParentID == "" && n.Kind == KindCustom && n.Entry.CustomType == "pi/session" && len(n.Entry.Data) > 0 && n.Entry.Data[0] == '{'
}

// exportPi writes a Pi session file, version 3 (see pi.go): the
// header, every node as an entry (messages as they are stored), the cursor
// last so Pi's leaf is the cursor, then the labels as Pi label entries
// chained after it. Fields Pi ignores keep what Pi has no place for:
// "branch" on every entry, and in the header "sessiontree" with the title,
// the active branch and every annotation. Importing the file gives the
// same tree back. Node kinds Pi lacks (active_tools_change) are written
// with their own type, which Pi's context skips.
func exportPi(s *ExportSession) []byte {
	var b []byte
	headerNode := s.piSessionNode()
	// Header.
	b = append(b, `{"type":"session","version":3,"id":`...)
	b = jsonx.AppendString(b, s.ID)
	if headerNode {
		b = appendObjectFields(b, s.Nodes[0].Entry.Data, "type", "version", "id", "sessiontree")
	} else {
		created := s.CreatedAt
		if created == "" && len(s.Nodes) > 0 {
			created = s.Nodes[0].Timestamp // an undated session: Pi's header needs a time
		}
		b = append(b, `,"timestamp":`...)
		b = jsonx.AppendString(b, created)
		b = append(b, `,"cwd":""`...)
	}
	b = append(b, `,"sessiontree":{"title":`...)
	b = jsonx.AppendString(b, s.Title)
	b = append(b, `,"activeBranch":`...)
	b = jsonx.AppendString(b, s.Active)
	b = append(b, `,"annotations":[`...)
	for k, a := range s.Annotations {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, a...)
	}
	b = append(b, "]}}\n"...)
	// Entries, the cursor last.
	for i := range s.Nodes {
		if int32(i) == s.Cursor || (i == 0 && headerNode) {
			continue
		}
		b = s.appendPiEntry(b, int32(i), headerNode)
	}
	if s.Cursor >= 0 && !(s.Cursor == 0 && headerNode) {
		b = s.appendPiEntry(b, s.Cursor, headerNode)
	}
	// Labels, chained after the cursor (Pi appends them at its leaf).
	prev := s.nodeID(s.Cursor)
	seq := 0
	var taken map[string]bool
	for _, a := range s.Labels {
		if taken == nil {
			taken = make(map[string]bool, len(s.Nodes))
			for k := range s.Nodes {
				taken[s.Nodes[k].ID] = true
			}
		}
		var id string
		for {
			seq++
			id = jsonx.Sprintf("label-%d", seq)
			if !taken[id] {
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
func (s *ExportSession) appendPiEntry(b []byte, i int32, headerNode bool) []byte {
	n := &s.Nodes[i]
	parent := n.ParentID
	if headerNode && parent == s.Nodes[0].ID {
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
	raw := func(key string, v jsonx.RawMessage) {
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
func appendObjectFields(b []byte, raw jsonx.RawMessage, except ...string) []byte {
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
