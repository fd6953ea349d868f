package formats

import (
	"bytes"
	"hash"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Pi coding agent sessions (badlogic/pi-mono,
// packages/coding-agent/src/core/session-manager.ts): JSON lines, first a
// header {"type":"session","version"?,"id","timestamp","cwd",
// "parentSession"?}, then entries {"type","id","parentId","timestamp",…}:
// message {message}, thinking_level_change {thinkingLevel}, model_change
// {provider, modelId}, compaction {summary, firstKeptEntryId, tokensBefore,
// details?, fromHook?}, branch_summary {fromId, summary, details?},
// custom {customType, data?}, custom_message {customType, content,
// display, details?}, label {targetId, label}, session_info {name?}. The
// leaf (Pi's cursor) is the last entry of the file.
//
// Versions migrate as Pi does: version 1 (no version field) has no ids —
// each entry gets an id and the previous entry as parent, and a
// compaction's firstKeptEntryIndex (an index into the file's entries,
// header first) becomes firstKeptEntryId; version 2 renames the message
// role "hookMessage" to "custom".
//
// Mapping: messages stay messages; branch_summary becomes a summary node;
// the setting, compaction, custom, custom_message and session_info entries
// become the entry kinds of the same names (modelId → model, thinkingLevel
// → level, firstKeptEntryId → firstKeptNodeId); label entries become label
// annotations (they are not nodes: their children attach to their
// parent); an entry that cannot be mapped (an unknown type, a message
// without content) stays in the tree as a custom entry "pi/<type>" whose
// data is the original line, with a warning. The header is kept as a
// custom root entry "pi/session" (data: the header without its version),
// the parent of the file's roots, unless it was written by sessiontree
// itself (empty cwd, nothing else to keep). sessiontree's own exports add
// fields Pi ignores: "branch" on every entry, and in the header
// "sessiontree": {title, activeBranch, annotations}.

// detectPi reports whether the data starts with a Pi session header.
func detectPi(sn *Sniff) bool {
	first := sn.Keys
	if sn.Shape == 'l' && len(sn.lines) > 0 {
		first = sn.lines[0]
	}
	typ, _ := jsonx.ParseString(first["type"])
	_, id := first["id"]
	return typ == "session" && id
}

type piHeader struct {
	Type          string           `json:"type"`
	Version       *int             `json:"version"`
	ID            string           `json:"id"`
	Timestamp     jsonx.RawMessage `json:"timestamp"`
	Cwd           string           `json:"cwd"`
	ParentSession jsonx.RawMessage `json:"parentSession"`
	Sessiontree   *piHeaderExt     `json:"sessiontree"`
}

// piHeaderExt is what sessiontree's own export adds to the header.
type piHeaderExt struct {
	Title        *string            `json:"title"`
	ActiveBranch string             `json:"activeBranch"`
	Annotations  []jsonx.RawMessage `json:"annotations"`
}

// piReader reads a Pi session line by line into one conversation.
type piReader struct {
	model     *Model
	header    *piHeader
	headerRaw map[string]jsonx.RawMessage
	headerSrc jsonx.RawMessage
	version   int
	index     []string        // id of each parsed line, header first ("" for the header)
	taken     map[string]bool // ids drawn so far (version 1)
	recs      []Record        // the header's entry (see Finish), then every entry's
	labels    []Label
	dropped   map[string]string // label entry id → its parent
	last      string            // id of the last entry: Pi's leaf
	branches  int               // entries carrying a "branch" field
	entries   int
	name      string // the newest session_info name
	firstText string // the earliest user message's text, for a title
	firstTime float64
	created   float64
	warnings
	hash    hash.Hash
	lines   int
	pending []piCompaction // v1 compactions waiting for their index
}

type piCompaction struct {
	rec   int
	index int
}

func newPiReader(model *Model) LineReader {
	return &piReader{model: model, taken: map[string]bool{}, dropped: map[string]string{}, hash: fnv.New128a()}
}

// RawLine is formats.RawLiner's: an entry line after the header is read
// in one pass (entry), with nothing split out first; false leaves a line
// that is not valid JSON to the caller, which names the fault.
func (r *piReader) RawLine(raw []byte, n int) bool {
	if r.header == nil {
		return false
	}
	l, ok := readPiLine(raw)
	if !ok {
		return false
	}
	r.lines++
	r.entry(raw, &l, n)
	return true
}

// BrokenLine is formats.BrokenLiner's: a line skipped as not JSON is
// counted, and hashed when it is the first (a damaged header names the
// file, not the line after it).
func (r *piReader) BrokenLine(raw []byte, _ int) {
	if r.lines++; r.lines == 1 {
		r.hash.Write(raw)
	}
}

// Line reads the header, or an entry line RawLine did not take (one that
// is not an object).
func (r *piReader) Line(raw []byte, _ map[string]jsonx.RawMessage, n int) {
	if r.lines++; r.lines == 1 {
		r.hash.Write(raw) // with the line count, names a file without a session id
	}
	if r.header == nil {
		r.readHeader(raw, n)
		return
	}
	l, _ := readPiLine(raw)
	r.entry(raw, &l, n)
}

// readHeader reads the line raw (n) as the session header, or warns that
// it is not one.
func (r *piReader) readHeader(raw []byte, n int) {
	h, ok := readPiHeader(raw)
	if !ok && h.Type == "session" {
		r.warn("line %d is the session header, but a field of it has another type than Pi writes (id, cwd: strings; version: a whole number); skipped", n)
		return
	}
	if !ok || h.Type != "session" {
		r.warn("line %d comes before the session header; skipped", n)
		return
	}
	r.header = &h
	r.version = 1
	if h.Version != nil {
		r.version = *h.Version
	}
	r.headerRaw, _ = RawFields(raw)
	r.headerSrc, _ = jsonx.CompactRaw(raw)
	r.created = unixSeconds(h.Timestamp)
	r.index = append(r.index, "")
	r.recs = appendRecord(r.recs, Record{}) // the header's entry, filled in by Finish
}

// entry reads the entry line raw (n), whose members are l.
func (r *piReader) entry(raw []byte, l *piLine, n int) {
	if l.bad {
		r.warn("line %d is not a Pi entry object; skipped", n)
		return
	}
	if l.Type == "session" {
		r.warn("line %d is a second session header; skipped", n)
		return
	}
	src := jsonx.RawMessage(raw[:len(raw):len(raw)])
	if l.spaced {
		src, _ = jsonx.CompactRaw(raw)
	}
	id, parent, ok := r.links(l, n, src)
	if !ok {
		r.index = append(r.index, "")
		return
	}
	r.index = append(r.index, id)
	if r.version < 2 {
		r.taken[id] = true
	}
	r.last = id
	t, stamp := lineTimes(l.Timestamp)
	rec := Record{ID: id, ParentID: parent, Time: t, Stamp: stamp, Source: src}
	rec.noteTime("timestamp", l.Timestamp)
	if l.Branch != nil {
		rec.Branch = *l.Branch
		r.branches++
	}
	r.entries++
	if l.Type == "message" && r.messageAsIs(&rec, l) {
		r.recs = appendRecord(r.recs, rec)
		return
	}
	r.typed(&rec, l, n)
}

// messageAsIs takes the message of a message entry into rec when
// lineMessage read it as core takes it, and reports whether it did.
func (r *piReader) messageAsIs(rec *Record, l *piLine) bool {
	if !l.asIs || l.spaced || r.version < 3 || l.role == "bashExecution" || l.role == "custom" {
		return false
	}
	rec.Message, rec.Written, rec.Role = l.Message, true, l.role
	if l.role == "user" && (r.firstText == "" || rec.Time < r.firstTime) {
		r.firstText, r.firstTime = r.model.Preview(rec.Message, 60), rec.Time
	}
	return true
}

// typed reads the entry l (line n) by its type into rec and keeps it
// (a label becomes an annotation instead); an entry it cannot map is kept
// as a custom entry holding the line, with a warning.
func (r *piReader) typed(rec *Record, l *piLine, n int) {
	src, id, parent := rec.Source, rec.ID, rec.ParentID
	what := jsonx.Sprintf("line %d", n)
	fail := func(reason string) {
		r.warn("%s: %s entry %q %s; it is kept as a custom entry %q holding the line", what, l.Type, id, reason, "pi/"+l.Type)
		// The line, less the "branch" field sessiontree's export adds.
		data := appendObjectFields(nil, src, "branch")
		if len(data) == 0 {
			data = []byte{'{', '}'}
		} else {
			data[0] = '{'
			data = append(data, '}')
		}
		rec.Kind, rec.Entry, rec.Message = KindCustom, &Entry{CustomType: "pi/" + l.Type, Data: data}, nil
	}
	switch l.Type {
	case "message":
		if reason := r.message(rec, l.Message); reason != "" {
			fail(reason)
		}
	case "branch_summary":
		s, ok := jsonx.ParseString(l.Summary)
		if !ok && string(l.Summary) != "null" { // null reads as "", as into a Go string
			fail("has no summary string")
			break
		}
		rec.Kind, rec.Summary = KindSummary, s
	case "label":
		if l.TargetID == nil {
			fail("has no targetId")
			break
		}
		label := ""
		if l.Label != nil {
			label = *l.Label
		}
		r.labels = append(r.labels, Label{Target: *l.TargetID, Label: label, Stamp: rec.Stamp, What: what + " (label " + jsonx.Sprintf("%q", id) + ")"})
		r.dropped[id] = parent
		r.entries--
		if l.Branch != nil {
			r.branches--
		}
		return
	default:
		kind, body := piEntryBody(l)
		if kind == "" {
			fail("is of a type sessiontree does not know")
			break
		}
		if l.Type == "compaction" {
			body = r.compactionBody(l, id, body)
		}
		e, err := r.model.Entry(body, "entry")
		if err != nil {
			fail("does not read as a " + kind + " (" + err.Error() + ")")
			break
		}
		rec.Kind, rec.Entry = kind, e
		if kind == KindSessionInfo {
			r.name = e.Name
		}
	}
	r.recs = appendRecord(r.recs, *rec)
}

// compactionBody returns the entry body of the compaction entry l (id)
// with its first kept entry settled: one a version 1 file names by index
// waits for Finish; one that names none keeps nothing before it, as in
// Pi's buildSessionContext (the entries from the first kept one on; no
// entry matches), so the compaction names itself (see KindCompaction).
func (r *piReader) compactionBody(l *piLine, id string, body []byte) []byte {
	noKept := l.FirstKeptEntryID == nil || string(l.FirstKeptEntryID) == "null"
	switch {
	case l.FirstKeptEntryIndex != nil && (r.version < 2 || noKept):
		r.pending = append(r.pending, piCompaction{rec: len(r.recs), index: *l.FirstKeptEntryIndex})
		return append(body[:len(body)-1], `,"firstKeptNodeId":"?"}`...)
	case noKept:
		body = appendObjectFields(nil, body, "firstKeptNodeId") // ,"kind":… (never empty)
		body[0] = '{'
		return append(jsonx.AppendString(append(body, `,"firstKeptNodeId":`...), id), '}')
	}
	return body
}

// links returns the id and parent of the entry l on line n (src, its
// compact JSON): version 1 has no ids (Pi generates them and chains the
// entries); from version 2 an entry without an id is given one derived
// from its line number and content (tolerance rule 5: the same file, or
// one that grew, gives it again), with a warning. No entry can name it as
// its parent. ok is always true (kept for the reader's flow).
func (r *piReader) links(l *piLine, n int, src []byte) (id, parent string, ok bool) {
	if r.version < 2 {
		id = r.v1ID(n)
		if len(r.index) > 1 {
			parent = r.last
		}
		return id, parent, true
	}
	id = l.ID
	if id == "" {
		id = hashID("pi-", append([]byte(jsonx.Sprintf("line %d\n", n)), src...))
		r.warn("%s (%s) has no id; it is given %q, derived from its place and content", jsonx.Sprintf("line %d", n), l.Type, id)
	}
	switch {
	case l.ParentID == nil:
		r.warn("%s: entry %q has no parentId; it becomes a root", jsonx.Sprintf("line %d", n), id)
	case bytes.Equal(l.ParentID, []byte("null")):
	default:
		var ok bool
		if parent, ok = lineParent(l.ParentID, r.last); !ok {
			parent = ""
			r.warn("%s: entry %q has a parentId that is not a string; it becomes a root", jsonx.Sprintf("line %d", n), id)
		}
	}
	return id, parent, true
}

// message reads the message of a message entry into rec as Pi's
// convertToLlm sends it: a bashExecution message (a "!" command the user
// ran) becomes user text, or a custom entry "pi/bashExecution" that does
// not reach the model when it is excludeFromContext ("!!"); a custom
// message (role "custom", once "hookMessage") becomes a custom_message
// entry (customType "pi/custom" when it names none), which reaches the
// model as user content. It returns why the
// message cannot be used ("" when it can).
func (r *piReader) message(rec *Record, msg jsonx.RawMessage) string {
	if r.version < 3 && msg != nil {
		if c, err := jsonx.CompactRaw(msg); err == nil {
			msg = bytes.Replace(c, []byte(`"role":"hookMessage"`), []byte(`"role":"custom"`), 1)
		}
	}
	f, _ := RawFields(bytes.TrimSpace(msg))
	switch role, _ := jsonx.ParseString(f["role"]); role {
	case "bashExecution":
		if string(f["excludeFromContext"]) == "true" {
			data, _ := jsonx.CompactRaw(msg)
			rec.Kind, rec.Entry = KindCustom, &Entry{CustomType: "pi/bashExecution", Data: data}
			return ""
		}
		m := jsonx.AppendString([]byte(`{"role":"user","content":[{"type":"text","text":`), piBashText(f))
		msg = append(m, "}]}"...)
	case "custom":
		body := []byte(`{"kind":"custom_message"`)
		if f["customType"] == nil {
			body = append(body, `,"customType":"pi/custom"`...) // a message of Pi before custom types
		}
		for _, k := range []string{"customType", "content", "display", "details"} {
			if v, err := jsonx.CompactRaw(f[k]); f[k] != nil && err == nil {
				body = append(jsonx.AppendKey(append(body, ','), k), v...)
			}
		}
		e, err := r.model.Entry(append(body, '}'), "its message")
		if err != nil {
			return "has an unusable custom message (" + err.Error() + ")"
		}
		rec.Kind, rec.Entry = KindCustomMessage, e
		return ""
	}
	m, role, err := r.model.Message(msg, "its message")
	if err != nil {
		return "has an unusable message (" + err.Error() + ")"
	}
	rec.Message, rec.Written = m, true // Model.Message gives it compacted
	if role == "user" && (r.firstText == "" || rec.Time < r.firstTime) {
		r.firstText, r.firstTime = r.model.Preview(m, 60), rec.Time
	}
	return ""
}

// piBashText is the user text Pi's bashExecutionToText gives a
// bashExecution message (fields: its members).
func piBashText(f map[string]jsonx.RawMessage) string {
	str := func(k string) string { s, _ := jsonx.ParseString(f[k]); return s }
	text := "Ran `" + str("command") + "`\n"
	if out := str("output"); out != "" {
		text += "```\n" + out + "\n```"
	} else {
		text += "(no output)"
	}
	code := string(f["exitCode"])
	switch {
	case string(f["cancelled"]) == "true":
		text += "\n\n(command cancelled)"
	case code != "" && code != "null" && code != "0":
		text += "\n\nCommand exited with code " + code
	}
	if path := str("fullOutputPath"); string(f["truncated"]) == "true" && path != "" {
		text += "\n\n[Output truncated. Full output: " + path + "]"
	}
	return text
}

// v1ID draws the id of the entry on line n of a version-1 file: 8 hex
// digits derived from the line number, drawn again on a collision.
func (r *piReader) v1ID(n int) string {
	for k := 0; ; k++ {
		h := fnv.New128a()
		h.Write([]byte("pi-v1/" + strconv.Itoa(n) + "/" + strconv.Itoa(k)))
		id := HexString(h.Sum(nil)[:4])
		if !r.taken[id] {
			return id
		}
	}
}

func (r *piReader) Finish() ([]Conversation, []Warning) {
	c := Conversation{Created: r.created}
	if r.header == nil {
		c.Skip = jsonx.Sprintf("the data has no Pi session header; skipped")
		return []Conversation{c}, r.warns
	}
	c.ID, c.Project = r.header.ID, r.header.Cwd
	if !r.model.SessionID(c.ID) {
		c.ID = "pi-" + HexString(r.hash.Sum(nil)[:8])
	}
	// Version 1 compactions name the first kept entry by its index.
	for _, p := range r.pending {
		e := r.recs[p.rec].Entry
		if e == nil || r.recs[p.rec].Kind != KindCompaction {
			continue
		}
		if p.index > 0 && p.index < len(r.index) && r.index[p.index] != "" {
			e.FirstKeptNodeID = r.index[p.index]
		} else {
			e.FirstKeptNodeID = r.recs[p.rec].ID // Pi keeps nothing before it
			r.warn("compaction %q names entry index %d, which is not an entry; it keeps nothing before it, as in Pi", r.recs[p.rec].ID, p.index)
		}
	}
	if len(r.recs) > 1 {
		c.Records = r.recs[1:] // r.recs[0] is the header's place
	}
	Relink(c.Records, r.dropped)
	c.Labels = r.labels
	c.Current = r.last
	for steps := 0; steps <= len(r.dropped); steps++ {
		up, ok := r.dropped[c.Current]
		if !ok {
			break
		}
		c.Current = up
	}
	if c.Current == "" && len(c.Records) > 0 {
		c.Current = c.Records[len(c.Records)-1].ID
	}
	c.KeepBranches = r.entries > 0 && r.branches == r.entries
	ext := r.header.Sessiontree
	switch {
	case ext != nil && ext.Title != nil:
		c.Title = *ext.Title
	case r.name != "":
		c.Title = r.name
	default:
		c.Title = r.firstText
	}
	if ext != nil {
		c.Active = ext.ActiveBranch
	}
	if ext != nil && ext.Annotations != nil {
		// sessiontree's own export: every annotation, in order, is in the
		// header; its label entries repeat the labels for Pi.
		c.Annotations, c.Labels = ext.Annotations, nil
	}
	c.ParentSession = piParentSession(r.header)
	// The header: a root entry unless sessiontree wrote it and it holds
	// nothing more than the session's id and time.
	delete(r.headerRaw, "version")
	delete(r.headerRaw, "sessiontree")
	keep := r.header.Cwd != "" || ext == nil
	for k := range r.headerRaw {
		switch k {
		case "type", "id", "timestamp", "cwd":
		default:
			keep = true
		}
	}
	if keep && len(c.Records) > 0 {
		hid := r.headerID()
		data := []byte{'{'}
		for i, k := range sortedKeysInOrder(r.headerSrc, r.headerRaw) {
			if i > 0 {
				data = append(data, ',')
			}
			data = jsonx.AppendKey(data, k)
			v, _ := jsonx.CompactRaw(r.headerRaw[k])
			data = append(data, v...)
		}
		data = append(data, '}')
		head := Record{ID: hid, Time: r.created, Stamp: isoStamp(r.header.Timestamp), Source: r.headerSrc,
			Kind: KindCustom, Entry: &Entry{CustomType: "pi/session", Data: data}, Branch: DefaultBranch}
		if head.Time == 0 {
			head.Time = -1 // before every entry
		}
		for i := range c.Records {
			if c.Records[i].ParentID == "" {
				c.Records[i].ParentID = hid
			}
		}
		r.recs[0] = head
		c.Records = r.recs
		if c.Current == "" {
			c.Current = hid
		}
	}
	return finishSession(c, r.warns, "entries", true) // the header was read
}

// headerID returns the id of the header's entry: "session", else
// "session-N" for the first N from 2 that no entry has. r.index holds
// every entry's id (the one-pass reader does not fill r.taken, which only
// version 1 needs while reading).
func (r *piReader) headerID() string {
	if !slices.Contains(r.index, "session") {
		return "session"
	}
	ids := make(map[string]bool, len(r.index))
	for _, id := range r.index {
		ids[id] = true
	}
	hid := "session"
	for k := 2; ids[hid]; k++ {
		hid = jsonx.Sprintf("session-%d", k)
	}
	return hid
}

// sortedKeysInOrder returns the keys of fields in the order they appear in
// the object raw (so a kept header reads as written).
func sortedKeysInOrder(raw jsonx.RawMessage, fields map[string]jsonx.RawMessage) []string {
	var keys []string
	s := jsonx.Scanner{Data: raw}
	_ = s.Members(func(k string, _ []byte, _ bool) error {
		if _, ok := fields[k]; ok {
			keys = append(keys, k)
		}
		return nil
	})
	if len(keys) != len(fields) {
		return slices.Sorted(maps.Keys(fields))
	}
	return keys
}
