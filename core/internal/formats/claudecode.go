package formats

import (
	"bytes"
	"hash"
	"hash/fnv"
	"slices"
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
// record stays in the tree and none reaches the model. A /branch copy's
// lines carry forkedFrom {sessionId, messageUuid}: the first names the
// session it was branched from (claudeCodeParentSession). Field names as in the transcripts read by
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

// claudeCodeLine is a line's members, read as a map of members would
// give them (keys match exactly; the last of a repeated member wins):
// the strings decoded ("" when missing or not a string), the others raw.
type claudeCodeLine struct {
	Type, Subtype, UUID, SessionID, Summary, LeafUUID string
	Cwd                                               string           // read only while the reader has no project yet
	ParentUUID                                        jsonx.RawMessage // nil: missing
	LogicalParentUUID                                 *string          // when a string
	IsSidechain, IsMeta, IsCompactSummary             bool
	Timestamp, Message, Content                       jsonx.RawMessage
	ForkedFrom                                        jsonx.RawMessage // nil: missing
	// role is the message's when lineMessage read it as core takes it
	// (asIs); spaced says the line has white space between tokens.
	role         string
	asIs, spaced bool
	// uuidRaw is the raw uuid member (nil when missing), to say what it
	// is when it gives no UUID; sessionRaw and cwdRaw the raw sessionId
	// and cwd members.
	uuidRaw, sessionRaw, cwdRaw jsonx.RawMessage
}

// The members readClaudeCodeLine reads, by index.
var claudeCodeKeys = []string{"type", "subtype", "uuid", "sessionId", "summary", "leafUuid", "parentUuid",
	"logicalParentUuid", "isSidechain", "isMeta", "isCompactSummary", "timestamp", "message", "content", "forkedFrom", "cwd"}

// readClaudeCodeLine reads the line raw in one pass (the message checked
// where it stands, see lineMessage); ok is false when raw is not a valid
// JSON object (the caller's syntax check names the fault). wantSession
// and wantCwd say the session id and the working folder are still to be
// found (each is decoded only then).
func readClaudeCodeLine(raw []byte, wantSession, wantCwd bool) (l claudeCodeLine, ok bool) {
	var vals [16][]byte
	sc := jsonx.Scanner{Data: raw}
	err := sc.Object(func(key []byte) error {
		i := claudeCodeKey(key)
		if i == 12 {
			start := sc.Pos
			msg, role, err := lineMessage(&sc)
			if err == nil {
				vals[i], l.role, l.asIs = msg, role, true
				return nil
			}
			if err != errFast {
				return err
			}
			sc.Pos, l.asIs = start, false
		}
		v, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		if i >= 0 {
			vals[i] = v[:len(v):len(v)]
		}
		return nil
	})
	if err != nil || sc.End() != nil {
		return claudeCodeLine{}, false
	}
	str := func(i int) string { s, _ := lineString(vals[i]); return s }
	l.Type, l.Subtype, l.UUID, l.Summary, l.LeafUUID = str(0), str(1), str(2), str(4), str(5)
	l.uuidRaw, l.sessionRaw, l.cwdRaw = vals[2], vals[3], vals[15]
	if wantSession {
		l.SessionID = str(3)
	}
	if wantCwd {
		l.Cwd = str(15)
	}
	l.ParentUUID = vals[6]
	if vals[7] != nil && vals[7][0] == '"' {
		s, _ := lineString(vals[7])
		l.LogicalParentUUID = &s // (an allocation only here)
	}
	l.IsSidechain, l.IsMeta, l.IsCompactSummary = string(vals[8]) == "true", string(vals[9]) == "true", string(vals[10]) == "true"
	l.Timestamp, l.Message, l.Content, l.ForkedFrom = vals[11], vals[12], vals[13], vals[14]
	l.spaced = sc.Spaced
	return l, true
}

// claudeCodeKey returns the index in claudeCodeKeys of key, -1 for
// another member.
func claudeCodeKey(key []byte) int {
	switch string(key) {
	case "type":
		return 0
	case "subtype":
		return 1
	case "uuid":
		return 2
	case "sessionId":
		return 3
	case "summary":
		return 4
	case "leafUuid":
		return 5
	case "parentUuid":
		return 6
	case "logicalParentUuid":
		return 7
	case "isSidechain":
		return 8
	case "isMeta":
		return 9
	case "isCompactSummary":
		return 10
	case "timestamp":
		return 11
	case "message":
		return 12
	case "content":
		return 13
	case "forkedFrom":
		return 14
	case "cwd":
		return 15
	}
	return -1
}

type claudeCodeSummary struct {
	text, leaf string
	line       int
}

// claudeCodeReader reads a transcript line by line into one conversation.
type claudeCodeReader struct {
	model     *Model
	sessionID string
	parent    string // the first forkedFrom's sessionId: the session this one was branched from
	project   string // the first line's cwd: the folder Claude Code ran in
	recs      []Record
	summaries []claudeCodeSummary
	warnings  // lines without uuid skipped by type, told in Finish
	created   float64
	hash      hash.Hash
	lines     int
	badTimes  []int              // the lines whose timestamp is not a time, told in Finish
	bounds    map[string]bool    // uuids of compact_boundary lines
	titled    []claudeCodeTitles // what may title the session, by part (one while the lines name one sessionId)
	claudeCodeParts
}

func newClaudeCodeReader(model *Model) LineReader {
	return &claudeCodeReader{model: model, hash: fnv.New128a(), bounds: map[string]bool{}, titled: make([]claudeCodeTitles, 1), claudeCodeParts: claudeCodeParts{projects: make([]string, 1)}}
}

// RawLine is formats.RawLiner's: every line that is a valid object is
// read in one pass (line); false leaves any other to the caller, which
// names a syntax error or hands Line a value that is not an object.
func (r *claudeCodeReader) RawLine(raw []byte, n int) bool {
	l, ok := readClaudeCodeLine(raw, r.sessionID == "", r.project == "")
	if !ok {
		return false
	}
	r.line(raw, &l, n)
	return true
}

// Line reads a line RawLine did not take: a value that is not an object.
func (r *claudeCodeReader) Line(raw []byte, f map[string]jsonx.RawMessage, n int) {
	l, ok := readClaudeCodeLine(raw, r.sessionID == "", r.project == "")
	if f == nil || !ok {
		r.count(raw)
		r.skip("(not a transcript object)", n)
		return
	}
	r.line(raw, &l, n)
}

// BrokenLine is formats.BrokenLiner's: a line skipped as not JSON is
// counted (a damaged first line is the one hashed).
func (r *claudeCodeReader) BrokenLine(raw []byte, _ int) {
	r.count(raw)
}

// count counts the line raw (the first is hashed: it names a file
// without a session id).
func (r *claudeCodeReader) count(raw []byte) {
	if r.lines++; r.lines == 1 {
		r.hash.Write(raw)
	}
}

// line reads the line raw (n), whose members are l.
func (r *claudeCodeReader) line(raw []byte, l *claudeCodeLine, n int) {
	r.count(raw)
	r.session(l, n)
	r.cwd(l)
	if r.project == "" && l.Cwd != "" {
		r.project = l.Cwd
	}
	if r.parent == "" && l.ForkedFrom != nil {
		r.parent, r.parentPart = claudeCodeParentSession(l.ForkedFrom), r.cur
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
		if l.uuidRaw != nil && string(l.uuidRaw) != "null" {
			kind += "\x00" + lacking(l.uuidRaw, "uuid") // stated, but unusable: empty, or not a string
		}
		r.skip(kind, n)
		return
	}
	what := func() string { return jsonx.Sprintf("line %d: record %q", n, l.UUID) } // only for a warning
	parent, inferred := "", false
	switch {
	case l.ParentUUID == nil:
		r.warn("%s has no parentUuid; it becomes a root", what())
	case bytes.Equal(l.ParentUUID, []byte("null")):
		if l.LogicalParentUUID != nil && *l.LogicalParentUUID != "" {
			// A compacted continuation, linked back; the file states
			// no parent, so this link is cut first on a cycle.
			parent, inferred = *l.LogicalParentUUID, true
		}
	default:
		var ok bool
		if parent, ok = lineParent(l.ParentUUID, r.lastID()); !ok {
			r.warn("%s has a parentUuid that is not a string; it becomes a root", what())
		}
	}
	t, stamp := lineTimes(l.Timestamp)
	if t == 0 && stamp == "" && len(l.Timestamp) > 0 && string(l.Timestamp) != "null" {
		r.badTimes = append(r.badTimes, n)
	}
	if t > 0 && (r.created == 0 || t < r.created) {
		r.created = t
	}
	src := jsonx.RawMessage(raw[:len(raw):len(raw)])
	if l.spaced {
		src = compactSource(raw)
	}
	rec := Record{ID: l.UUID, ParentID: parent, Inferred: inferred, Time: t, Stamp: stamp, Source: src, Aside: l.IsSidechain}
	if l.IsSidechain {
		rec.Branch = "sidechain"
	}
	if l.Subtype == "compact_boundary" {
		r.bounds[l.UUID] = true
	}
	if l.Type == "user" && l.IsCompactSummary && r.bounds[parent] && !l.IsSidechain {
		if e, ok := r.compaction(l.Message, parent); ok {
			// What Claude Code sends after a compaction: the summary, then
			// what follows; the history before the boundary stays in the
			// tree, out of the context.
			rec.Kind, rec.Entry = KindCompaction, e
			r.add(rec)
			return
		}
	}
	if l.Type == "user" || l.Type == "assistant" {
		msg, role, err := l.Message, l.role, error(nil)
		if !l.asIs || l.spaced {
			msg, _, err = r.model.Message(l.Message, "its message") // compacted
			role = ""
		}
		if err == nil {
			rec.Message, rec.Written, rec.Role = msg, true, role
			r.titles(l, msg, t)
		} else {
			r.warn("%s has an unusable message (%s); it is kept as a custom entry that does not reach the model", what(), err.Error())
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
	r.add(rec)
}

// lastID returns the uuid of the last record read ("" before the first).
func (r *claudeCodeReader) lastID() string {
	if len(r.recs) == 0 {
		return ""
	}
	return r.recs[len(r.recs)-1].ID
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

// titleCandidate is the earliest text of one kind that may title a
// session, and its time.
type titleCandidate struct {
	text string
	time float64
}

// earlier says whether a text at time t comes before the one kept.
func (c *titleCandidate) earlier(t float64) bool { return c.text == "" || t < c.time }

// titles notes what message msg (of line l, at time t) offers a title:
// a user prompt (not a tool result, not isMeta) on the main line or on a
// sidechain, or the task a Task (Agent) tool call gives a sub-agent, by
// its description, as Claude Code shows the call.
func (r *claudeCodeReader) titles(l *claudeCodeLine, msg jsonx.RawMessage, t float64) {
	ts := &r.titled[r.cur]
	switch {
	case l.IsMeta:
	case l.Type == "user" && !bytes.Contains(msg, []byte(`"tool_result"`)):
		c := &ts.first
		if l.IsSidechain {
			c = &ts.side
		}
		if c.earlier(t) {
			c.text, c.time = claudeCodeTitle(r.model, msg), t
		}
	case l.Type == "assistant" && !l.IsSidechain && ts.task.earlier(t) && bytes.Contains(msg, []byte(`"subagent_type"`)):
		if d := claudeCodeTask(msg); d != "" {
			ts.task.text, ts.task.time = claudeCodeTitle(r.model, append(jsonx.AppendString([]byte(`{"role":"user","content":`), d), '}')), t
		}
	}
}

// claudeCodeTask returns the description of the first Task (or Agent)
// tool call of an assistant message, "" when it has none.
func claudeCodeTask(msg jsonx.RawMessage) string {
	f, err := RawFields(msg)
	if err != nil || len(f["content"]) == 0 || f["content"][0] != '[' {
		return ""
	}
	var desc string
	sc := jsonx.Scanner{Data: f["content"]}
	_ = sc.Elements(func(_ int, v []byte, _ bool) error {
		part, err := RawFields(v)
		if desc != "" || err != nil {
			return nil
		}
		typ, _ := jsonx.ParseString(part["type"])
		name, _ := jsonx.ParseString(part["name"])
		if input, err := RawFields(part["input"]); err == nil && typ == "tool_use" && (name == "Task" || name == "Agent") {
			desc, _ = jsonx.ParseString(input["description"])
		}
		return nil
	})
	return strings.TrimSpace(desc)
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

// Finish is LineReader's: the transcript's conversation, or one for each
// session its lines name that shares no message with another (groups).
func (r *claudeCodeReader) Finish() ([]Conversation, []Warning) {
	if len(r.badTimes) > 0 {
		r.warn("%d record(s) have a timestamp that is not a time (lines %s); they take their parent's time", len(r.badTimes), cappedList(r.badTimes, 5))
	}
	r.finish(func(kind string) string {
		kind, why, _ := strings.Cut(kind, "\x00")
		switch {
		case why != "":
			return " have " + why + "; skipped" // its uuid stated but unusable
		case kind == "user" || kind == "assistant":
			return " have no uuid; skipped" // a message, but nothing can name it as a parent
		}
		return " carry no message; skipped"
	})
	groups, groupOf := r.groups()
	if len(groups) == 1 {
		c := r.conversation(groups[0], r.recs, r.summaries, &r.warns)
		c.Created = r.created
		return finishSession(c, r.warns, "messages", false)
	}
	recs := make([][]Record, len(groups))
	leaf := make(map[string]int, len(r.recs)) // record id → its group
	for i := range r.recs {
		g := groupOf[r.of[i]]
		recs[g] = append(recs[g], r.recs[i])
		if _, ok := leaf[r.recs[i].ID]; !ok {
			leaf[r.recs[i].ID] = g
		}
	}
	sums := make([][]claudeCodeSummary, len(groups))
	for _, s := range r.summaries {
		g := leaf[s.leaf] // a leaf the file lacks: the first session's, as it titled the file's before
		sums[g] = append(sums[g], s)
	}
	var convs []Conversation
	var warns []Warning
	for g, parts := range groups {
		var w []Warning
		if g == 0 {
			w = r.warns // the file's warnings name its lines: they go with its first session
		} else {
			w = []Warning{{Message: jsonx.Sprintf("the file names another Claude Code session, %q (first on line %d), that shares no message with session %q: it is imported as a session of its own, not merged into %q",
				r.ids[parts[0]], r.idLines[parts[0]], r.ids[0], r.ids[0])}}
		}
		c := r.conversation(parts, recs[g], sums[g], &w)
		for _, rec := range recs[g] {
			if rec.Time > 0 && (c.Created == 0 || rec.Time < c.Created) {
				c.Created = rec.Time
			}
		}
		cs, cw := finishSession(c, w, "messages", false)
		convs, warns = append(convs, cs...), append(warns, cw...)
	}
	return convs, warns
}

// conversation is the conversation of the transcript's parts parts, whose
// records are recs and summary lines sums (its title: warns gets a warning
// for each summary not taken); its Created is left to the caller.
func (r *claudeCodeReader) conversation(parts []int, recs []Record, sums []claudeCodeSummary, warns *[]Warning) Conversation {
	// A transcript names no current message: the newest leaf off the
	// sidechains is where Claude Code goes on.
	c := Conversation{ID: r.ids[parts[0]], Records: recs, Project: r.projectOf(parts), NewestLeaf: true}
	if slices.Contains(parts, r.parentPart) {
		c.ParentSession = r.parent
	}
	c.Aside = len(c.Records) > 0
	for i := range c.Records {
		c.Aside = c.Aside && c.Records[i].Aside
	}
	if c.ID == "" || !r.model.SessionID(c.ID) {
		c.ID = "claude-code-" + HexString(r.hash.Sum(nil)[:8])
	}
	// The title: the summary of the newest summarised leaf, else the
	// first user prompt, else (no prompt of the main line in the file)
	// the first sub-agent task, else a sidechain's first prompt (a
	// sub-agent's transcript: its task as the Task call sent it).
	best := -1
	var bestTime float64
	at := make(map[string]float64, len(c.Records))
	for _, rec := range c.Records {
		at[rec.ID] = rec.Time
	}
	for i, s := range sums {
		if t, ok := at[s.leaf]; ok && (best < 0 || t >= bestTime) {
			best, bestTime = i, t
		}
	}
	if best < 0 && len(sums) > 0 {
		best = len(sums) - 1
	}
	var ts claudeCodeTitles
	for _, p := range parts {
		ts.join(r.titled[p])
	}
	c.Title = ts.first.text
	if c.Title == "" {
		c.Title = ts.task.text
	}
	if c.Title == "" {
		c.Title = ts.side.text
	}
	for i, s := range sums {
		if i == best {
			c.Title = s.text
			continue
		}
		*warns = append(*warns, Warning{Message: jsonx.Sprintf("summary line %d (%q, for leaf %q) is not the title; only one title is kept", s.line, s.text, s.leaf)})
	}
	return c
}
