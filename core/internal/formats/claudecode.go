package formats

import (
	"bytes"
	"hash"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Claude Code session transcripts (~/.claude/projects/<dir>/<session>.jsonl):
// one JSON object per line. Message lines are
//
//	{"type":"user"|"assistant","uuid","parentUuid","isSidechain","sessionId","timestamp","message":{"role","content",…},…}
//
// where message.content holds text, thinking, tool_use and tool_result
// blocks. Sub-agent ("Task") transcripts are sidechains (isSidechain: true).
// A "system" line with subtype "compact_boundary" starts a compacted
// continuation: its parentUuid is null and logicalParentUuid names the
// message it continues. "summary" lines ({"type":"summary","summary",
// "leafUuid"}) title a leaf. Other lines (file-history-snapshot, …) carry
// no message. Lines with a uuid that are not user or assistant messages
// become custom entries ("claude-code/system/compact_boundary"), so every
// record stays in the tree and none reaches the model. Field names as in the transcripts read by
// daaain/claude-code-log, whose test data are our fixtures.

// detectClaudeCode reports whether the first lines look like a Claude Code
// transcript.
func detectClaudeCode(sn *Sniff) bool {
	lines := sn.lines
	if sn.Shape == '{' {
		lines = []map[string]jsonx.RawMessage{sn.Keys}
	}
	for _, l := range lines {
		_, parent := l["parentUuid"]
		_, leaf := l["leafUuid"]
		_, uuid := l["uuid"]
		_, session := l["sessionId"]
		if parent || leaf || uuid && session {
			return true
		}
	}
	return false
}

type claudeCodeLine struct {
	Type              string           `json:"type"`
	Subtype           string           `json:"subtype"`
	UUID              string           `json:"uuid"`
	ParentUUID        jsonx.RawMessage `json:"parentUuid"`
	LogicalParentUUID *string          `json:"logicalParentUuid"`
	IsSidechain       bool             `json:"isSidechain"`
	SessionID         string           `json:"sessionId"`
	Timestamp         jsonx.RawMessage `json:"timestamp"`
	Message           jsonx.RawMessage `json:"message"`
	Content           jsonx.RawMessage `json:"content"`
	Summary           string           `json:"summary"`
	LeafUUID          string           `json:"leafUuid"`
}

type claudeCodeSummary struct {
	text, leaf string
	line       int
}

// claudeCodeReader reads a transcript line by line into one conversation.
type claudeCodeReader struct {
	model     *Model
	sessionID string
	recs      []Record
	summaries []claudeCodeSummary
	other     map[string][]int // type of a line without uuid → its line numbers
	warns     []Warning
	firstText string // the earliest user message's text, for a title
	firstTime float64
	created   float64
	hash      hash.Hash
	lines     int
	bounds    map[string]bool // uuids of compact_boundary lines
}

func newClaudeCodeReader(model *Model) LineReader {
	return &claudeCodeReader{model: model, other: map[string][]int{}, hash: fnv.New128a(), bounds: map[string]bool{}}
}

//go:noinline // called once per operation; inlined copies cost wasm size
func (r *claudeCodeReader) warn(format string, args ...any) {
	r.warns = append(r.warns, Warning{Message: jsonx.Sprintf(format, args...)})
}

func (r *claudeCodeReader) Line(raw []byte, f map[string]jsonx.RawMessage, n int) {
	if r.lines++; r.lines == 1 {
		r.hash.Write(raw) // with the line count, names a file without a session id
	}
	if f == nil {
		r.other["(not a transcript object)"] = append(r.other["(not a transcript object)"], n)
		return
	}
	if r.lineFast(raw) {
		return
	}
	str := func(key string) string {
		v, _ := jsonx.ParseString(f[key])
		return v
	}
	l := claudeCodeLine{Type: str("type"), Subtype: str("subtype"), UUID: str("uuid"), ParentUUID: f["parentUuid"],
		IsSidechain: string(f["isSidechain"]) == "true", SessionID: str("sessionId"), Timestamp: f["timestamp"],
		Message: f["message"], Content: f["content"], Summary: str("summary"), LeafUUID: str("leafUuid")}
	if v, ok := jsonx.ParseString(f["logicalParentUuid"]); ok {
		l.LogicalParentUUID = &v
	}
	if r.sessionID == "" && l.SessionID != "" {
		r.sessionID = l.SessionID
	}
	if l.Type == "summary" {
		r.summaries = append(r.summaries, claudeCodeSummary{l.Summary, l.LeafUUID, n})
		return
	}
	if l.UUID == "" {
		kind := l.Type
		if kind == "" {
			kind = "(no type)"
		}
		r.other[kind] = append(r.other[kind], n)
		return
	}
	what := jsonx.Sprintf("line %d: record %q", n, l.UUID)
	parent, inferred := "", false
	switch {
	case l.ParentUUID == nil:
		r.warn("%s has no parentUuid; it becomes a root", what)
	case bytes.Equal(l.ParentUUID, []byte("null")):
		if l.LogicalParentUUID != nil && *l.LogicalParentUUID != "" {
			// A compacted continuation, linked back; the file states
			// no parent, so this link is cut first on a cycle.
			parent, inferred = *l.LogicalParentUUID, true
		}
	default:
		var ok bool
		if parent, ok = jsonx.ParseString(l.ParentUUID); !ok {
			r.warn("%s has a parentUuid that is not a string; it becomes a root", what)
		}
	}
	t := unixSeconds(l.Timestamp)
	if t > 0 && (r.created == 0 || t < r.created) {
		r.created = t
	}
	src := compactSource(raw)
	rec := Record{ID: l.UUID, ParentID: parent, Inferred: inferred, Time: t, Stamp: isoStamp(l.Timestamp), Source: src, Aside: l.IsSidechain}
	if l.IsSidechain {
		rec.Branch = "sidechain"
	}
	if l.Subtype == "compact_boundary" {
		r.bounds[l.UUID] = true
	}
	if l.Type == "user" && string(f["isCompactSummary"]) == "true" && r.bounds[parent] && !l.IsSidechain {
		if e, ok := r.compaction(l.Message, parent); ok {
			// What Claude Code sends after a compaction: the summary, then
			// what follows; the history before the boundary stays in the
			// tree, out of the context.
			rec.Kind, rec.Entry = KindCompaction, e
			r.recs = appendRecord(r.recs, rec)
			return
		}
	}
	if l.Type == "user" || l.Type == "assistant" {
		msg, _, err := r.model.Message(l.Message, "its message")
		if err == nil {
			rec.Message, rec.Written = msg, true // Model.Message gives it compacted
			if l.Type == "user" && !l.IsSidechain && string(f["isMeta"]) != "true" && (r.firstText == "" || t < r.firstTime) && !bytes.Contains(msg, []byte(`"tool_result"`)) {
				r.firstText, r.firstTime = claudeCodeTitle(r.model, msg), t
			}
		} else {
			r.warn("%s has an unusable message (%s); it is kept as a custom entry that does not reach the model", what, err.Error())
			rec.Kind, rec.Entry = KindCustom, &Entry{CustomType: "claude-code/" + l.Type}
		}
	} else {
		// system lines (compact_boundary, local command output, …) are
		// records of the session, never sent to the model: custom entries.
		kind := "claude-code/" + l.Type
		if l.Subtype != "" {
			kind += "/" + l.Subtype
		}
		e := &Entry{CustomType: kind}
		if len(l.Content) > 0 {
			e.Data = compactSource(l.Content)
		}
		rec.Kind, rec.Entry = KindCustom, e
	}
	r.recs = appendRecord(r.recs, rec)
}

// compaction returns the compaction entry of a compact summary message
// (isCompactSummary, the child of a compact_boundary line): its text is
// the summary, and the kept history starts at the boundary, so context is
// the summary and what follows it.
func (r *claudeCodeReader) compaction(msg jsonx.RawMessage, boundary string) (*Entry, bool) {
	f, err := RawFields(bytes.TrimSpace(msg))
	if err != nil {
		return nil, false
	}
	var pieces []string
	content := f["content"]
	if s, ok := jsonx.ParseString(content); ok {
		pieces = append(pieces, s)
	} else if len(content) > 0 && content[0] == '[' {
		sc := jsonx.Scanner{Data: content}
		_ = sc.Elements(func(_ int, v []byte, _ bool) error {
			if pf, err := RawFields(v); err == nil {
				if typ, _ := jsonx.ParseString(pf["type"]); typ == "text" {
					t, _ := jsonx.ParseString(pf["text"])
					pieces = append(pieces, t)
				}
			}
			return nil
		})
	}
	if len(pieces) == 0 {
		return nil, false
	}
	body := jsonx.AppendString([]byte(`{"kind":"compaction","summary":`), strings.Join(pieces, "\n"))
	body = append(jsonx.AppendString(append(body, `,"firstKeptNodeId":`...), boundary), '}')
	e, err := r.model.Entry(body, "entry")
	return e, err == nil
}

// claudeCodeTitle returns the plain-text title a user message gives: a
// slash command's name and arguments when it is one
// (<command-name>/init</command-name><command-args>…</command-args>),
// else its text with Claude Code's markup tags (<command-…>,
// <local-command-…>) removed; 60 characters at most.
func claudeCodeTitle(model *Model, msg jsonx.RawMessage) string {
	text := model.Preview(msg, 4000)
	if !strings.Contains(text, "<") {
		return model.Preview(msg, 60)
	}
	inner := func(tag string) (string, bool) {
		open, end := "<"+tag+">", "</"+tag+">"
		i := strings.Index(text, open)
		j := strings.Index(text, end)
		if i < 0 || j < i {
			return "", false
		}
		return strings.TrimSpace(text[i+len(open) : j]), true
	}
	if name, ok := inner("command-name"); ok && name != "" {
		if args, _ := inner("command-args"); args != "" {
			name += " " + args
		}
		text = name
	} else {
		var b strings.Builder
		for len(text) > 0 {
			i := strings.IndexByte(text, '<')
			if i < 0 {
				b.WriteString(text)
				break
			}
			b.WriteString(text[:i])
			rest := strings.TrimPrefix(text[i+1:], "/")
			j := strings.IndexByte(text[i:], '>')
			known := strings.HasPrefix(rest, "command-") || strings.HasPrefix(rest, "local-command-")
			if j < 0 || !known {
				b.WriteByte('<')
				text = text[i+1:]
				continue
			}
			b.WriteByte(' ')
			text = text[i+j+1:]
		}
		text = strings.Join(strings.Fields(b.String()), " ")
	}
	return model.Preview(append(jsonx.AppendString([]byte(`{"role":"user","content":`), text), '}'), 60)
}

func (r *claudeCodeReader) Finish() ([]Conversation, []Warning) {
	c := Conversation{ID: r.sessionID, Records: r.recs, Created: r.created}
	if c.ID == "" || !r.model.SessionID(c.ID) {
		c.ID = "claude-code-" + HexString(r.hash.Sum(nil)[:8])
	}
	for _, kind := range slices.Sorted(maps.Keys(r.other)) {
		ns := r.other[kind]
		list := make([]string, 0, 6)
		for i, n := range ns {
			if i == 5 {
				list = append(list, "…")
				break
			}
			list = append(list, strconv.Itoa(n))
		}
		r.warn("%d %s line(s) carry no message; skipped (lines %s)", len(ns), kind, strings.Join(list, ", "))
	}
	// The title: the summary of the newest summarised leaf, else the
	// first user message.
	best := -1
	var bestTime float64
	at := make(map[string]float64, len(c.Records))
	for _, rec := range c.Records {
		at[rec.ID] = rec.Time
	}
	for i, s := range r.summaries {
		if t, ok := at[s.leaf]; ok && (best < 0 || t >= bestTime) {
			best, bestTime = i, t
		}
	}
	if best < 0 && len(r.summaries) > 0 {
		best = len(r.summaries) - 1
	}
	c.Title = r.firstText
	for i, s := range r.summaries {
		if i == best {
			c.Title = s.text
			continue
		}
		r.warn("summary line %d (%q, for leaf %q) is not the title; only one title is kept", s.line, s.text, s.leaf)
	}
	return finishSession(c, r.warns, "messages", false)
}
