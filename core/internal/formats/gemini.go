package formats

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Gemini CLI sessions (~/.gemini/tmp/<project hash>/chats/session-*.json,
// and from 2026 session-*.jsonl), as google-gemini/gemini-cli writes them
// (packages/core/src/services/chatRecordingService.ts and
// chatRecordingTypes.ts) and resumes them (convertSessionToClientHistory in
// packages/core/src/utils/sessionUtils.ts). A .json file is one
// ConversationRecord {sessionId, projectHash, startTime, lastUpdated,
// messages, summary?, directories?, kind?}; a .jsonl file is that record's
// metadata on its first line, then one record per line: a message (it has
// an "id"; one whose id was seen replaces it where it stands), {"$set":
// {…}} (patches the metadata; with "messages" it is a checkpoint that
// replaces the list), {"$rewindTo": id} (drops that message and every one
// after it; an id not in the list drops them all).
//
// Messages are {id, timestamp, type, content, displayContent?}, type user,
// gemini (with toolCalls [{id, name, args, result, status, …}], thoughts
// [{subject, description}], tokens, model), info, error or warning. What
// the model sees on resume: user messages (not a "/" or "?" command, not
// empty), gemini messages (thoughts, content, then a function call per
// tool call) and, after one with results, a user turn "<id>_response" of
// the function responses; info, error and warning never. Mapping: a user
// message becomes a user message and a gemini message an assistant one,
// their parts as the renderer reads them ({text} → text, thought parts →
// thinking, functionCall → tool_use, functionResponse → tool_result, other
// parts as they are); the responses become a user message
// "<id>_response" of tool_result parts. A command, an empty reply and the
// info, error and warning messages become custom entries
// "gemini/<type>" that do not reach the model. The metadata is a custom
// root entry "gemini/session" (without the messages); a $set of more than
// lastUpdated is a custom entry "gemini/$set" where it comes; a rewind
// leaves the dropped messages as a branch the cursor left, marked by a
// custom entry "gemini/$rewindTo". The title is the summary, else the
// first user prompt.

// detectGemini reports whether the data is a Gemini CLI session: an
// object, or a first line, with sessionId and projectHash.
func detectGemini(sn *Sniff) bool {
	first := sn.Keys
	if sn.Shape == 'l' && len(sn.lines) > 0 {
		first = sn.lines[0]
	}
	return sn.Shape != '[' && first["sessionId"] != nil && first["projectHash"] != nil
}

// geminiReader reads a Gemini CLI session record by record.
type geminiReader struct {
	model    *Model
	recs     []Record
	taken    map[string]int // id → its record (the newest of that id)
	chain    []int          // the records after the header on the path to the tip
	marks    map[int]bool   // records of $set and $rewindTo lines
	header   bool
	session  string
	summary  string
	first    string
	created  float64
	updated  float64
	warnings // and the $set records holding only lastUpdated, skipped
}

func newGeminiReader(model *Model) LineReader {
	return &geminiReader{model: model, taken: map[string]int{}, marks: map[int]bool{}}
}

// convertGeminiWhole reads a .json session: one ConversationRecord.
func convertGeminiWhole(model *Model, top jsonx.RawMessage) ([]Conversation, []Warning, error) {
	r := newGeminiReader(model).(*geminiReader)
	f, err := RawFields(top)
	if err != nil {
		return nil, nil, err
	}
	r.metadata(top, f, 1)
	sc := jsonx.Scanner{Data: bytes.TrimSpace(f["messages"])}
	switch {
	case len(sc.Data) == 0 || string(sc.Data) == "null":
		r.warn("the session has no messages array; only its metadata is imported")
	case sc.Data[0] != '[':
		r.warn("the session's messages are not an array; none is imported, only its metadata")
	default:
		_ = sc.Elements(func(k int, raw []byte, _ bool) error {
			mf, err := RawFields(raw)
			if err != nil {
				r.warn("message %d is not an object; skipped", k+1)
				return nil
			}
			r.message(compactSource(raw), mf, jsonx.Sprintf("message %d", k+1))
			return nil
		})
	}
	convs, warns := r.Finish()
	return convs, warns, nil
}

func (r *geminiReader) Line(raw []byte, f map[string]jsonx.RawMessage, n int) {
	what := jsonx.Sprintf("line %d", n)
	switch {
	case f == nil:
		r.warn("%s is not a record object; skipped", what)
	case f["$rewindTo"] != nil:
		r.rewind(raw, f, n)
	case f["$set"] != nil:
		r.set(raw, f["$set"], n)
	case f["id"] != nil:
		if !r.header {
			r.warn("%s comes before the session's metadata", what)
		}
		r.message(raw[:len(raw):len(raw)], f, what)
	case f["sessionId"] != nil:
		if r.header {
			r.set(raw, raw, n) // a second metadata line patches the first
			return
		}
		r.metadata(raw, f, n)
	default:
		r.warn("%s is not a message, $set, $rewindTo or metadata record; skipped", what)
	}
}

// metadata reads the session's metadata (a .json file's record, a
// .jsonl file's first line) into the header entry.
func (r *geminiReader) metadata(raw []byte, f map[string]jsonx.RawMessage, n int) {
	r.header = true
	r.session, _ = jsonx.ParseString(f["sessionId"])
	r.summary, _ = jsonx.ParseString(f["summary"])
	r.created, r.updated = unixSeconds(f["startTime"]), unixSeconds(f["lastUpdated"])
	data := objectWithout(raw, "messages")
	_, stamp := lineTimes(f["startTime"])
	rec := Record{ID: r.unique("session"), Kind: KindCustom, Entry: &Entry{CustomType: "gemini/session", Data: data},
		Time: r.created, Stamp: stamp, Source: compactSource(raw)}
	r.recs = appendRecord(r.recs, rec)
	r.taken[rec.ID] = len(r.recs) - 1
	_ = n
}

// unique returns id, or id with "~k" for the first k from 2 that no
// record has taken.
func (r *geminiReader) unique(id string) string {
	if _, ok := r.taken[id]; !ok {
		return id
	}
	for k := 2; ; k++ {
		c := id + "~" + strconv.Itoa(k)
		if _, ok := r.taken[c]; !ok {
			return c
		}
	}
}

// tip returns the id of the node the next one hangs off.
func (r *geminiReader) tip() string {
	switch {
	case len(r.chain) > 0:
		return r.recs[r.chain[len(r.chain)-1]].ID
	case r.header:
		return r.recs[0].ID
	}
	return ""
}

// add appends rec under the tip and makes it the tip.
func (r *geminiReader) add(rec Record) {
	rec.ParentID = r.tip()
	rec.ID = r.unique(rec.ID)
	r.recs = appendRecord(r.recs, rec)
	r.taken[rec.ID] = len(r.recs) - 1
	r.chain = append(r.chain, len(r.recs)-1)
}

// mark adds rec, a custom entry of the reader's own (a $set or a
// rewind), which a checkpoint passes over.
func (r *geminiReader) mark(rec Record) {
	r.add(rec)
	r.marks[len(r.recs)-1] = true
}

// chainAt returns the place in the chain of the message id (-1 when it
// is not on it).
func (r *geminiReader) chainAt(id string) int {
	k, ok := r.taken[id]
	if !ok {
		return -1
	}
	return slices.Index(r.chain, k)
}

// message reads one message record: a new one is appended (with its
// function responses); one already on the chain is replaced where it
// stands, as the writer's cache replaces it. One without an id gets one
// derived from what (its place) and its content, with a warning.
func (r *geminiReader) message(raw []byte, f map[string]jsonx.RawMessage, what string) {
	id, _ := jsonx.ParseString(f["id"])
	if id == "" {
		// The tolerance rule's stable id: derived from its place and
		// content, so a file that grew imports it as the same node.
		id = hashID("gemini-msg-", append([]byte(what+"\n"), raw...))
		r.warn("%s has no id (or one that is not a string); it is given %q, derived from its place and content", what, id)
	}
	recs := r.messageRecords(raw, f, id, what)
	at := r.chainAt(id)
	if at < 0 {
		for _, rec := range recs {
			r.add(rec)
		}
		return
	}
	// Replaced in place: the message, then its responses (the node after
	// it when it has some already).
	old := r.recs[r.chain[at]]
	recs[0].ID, recs[0].ParentID = old.ID, old.ParentID
	r.recs[r.chain[at]] = recs[0]
	next := at + 1
	hasResp := next < len(r.chain) && r.recs[r.chain[next]].ID == id+"_response"
	switch {
	case len(recs) == 2 && hasResp:
		recs[1].ID, recs[1].ParentID = r.recs[r.chain[next]].ID, old.ID
		r.recs[r.chain[next]] = recs[1]
	case len(recs) == 2:
		rest := slices.Clone(r.chain[next:])
		r.chain = r.chain[:next]
		r.add(recs[1])
		if len(rest) > 0 {
			r.recs[rest[0]].ParentID = r.tip()
		}
		r.chain = append(r.chain, rest...)
	case hasResp:
		r.warn("%s replaces message %q without its function responses; they are kept", what, id)
	}
}

// messageRecords returns the records of one message: the message, and
// for a gemini message with tool results the user turn of its responses.
func (r *geminiReader) messageRecords(raw []byte, f map[string]jsonx.RawMessage, id, what string) []Record {
	typ, _ := jsonx.ParseString(f["type"])
	t, stamp := lineTimes(f["timestamp"])
	rec := Record{ID: id, Time: t, Stamp: stamp, Source: raw}
	rec.noteTime("timestamp", f["timestamp"])
	entry := func() []Record {
		data := []byte(`{}`)
		if c := f["content"]; c != nil {
			data = append(append(jsonx.AppendKey([]byte{'{'}, "content"), compactSource(c)...), '}')
		}
		rec.Kind, rec.Entry = KindCustom, &Entry{CustomType: "gemini/" + typ, Data: data}
		return []Record{rec}
	}
	var msg []byte
	var resp []byte
	switch typ {
	case "user":
		text := geminiText(f["content"])
		if ignored := strings.TrimSpace(text); ignored == "" || strings.HasPrefix(ignored, "/") || strings.HasPrefix(ignored, "?") ||
			strings.HasPrefix(ignored, "<session_context>") || strings.HasPrefix(ignored, "<hook_context>") {
			return entry() // a command or context the model is not sent
		}
		msg = append(geminiParts([]byte(`{"role":"user","content":`), f["content"]), '}')
		if r.first == "" {
			r.first = text
		}
	case "gemini":
		var parts int
		msg, resp, parts = geminiReply(f)
		if parts == 0 {
			return entry()
		}
	case "info", "error", "warning":
		return entry()
	default:
		if _, ok := jsonx.ParseString(f["type"]); !ok {
			r.warn("%s: message %q has %s; it is kept as a custom entry", what, id, lacking(f["type"], "type"))
			return entry()
		}
		r.warn("%s: message %q is of a type sessiontree does not know (%q); it is kept as a custom entry", what, id, typ)
		return entry()
	}
	m, role, err := r.model.Message(msg, "its message")
	if err != nil {
		r.warn("%s: message %q has an unusable message (%s); it is kept as a custom entry", what, id, err.Error())
		return entry()
	}
	rec.Message, rec.Written, rec.Role = m, true, role
	out := []Record{rec}
	if resp != nil {
		if m, role, err := r.model.Message(resp, "its function responses"); err == nil {
			out = append(out, Record{ID: id + "_response", Time: t, Stamp: stamp, Message: m, Written: true, Role: role})
		}
	}
	return out
}

// geminiText returns the text of a PartListUnion: a string, a part or an
// array of them (partListUnionToString, text parts only).
func geminiText(content []byte) string {
	content = bytes.TrimSpace(content)
	if s, ok := jsonx.ParseString(content); ok {
		return s
	}
	var b strings.Builder
	each := func(part []byte) {
		if s, ok := jsonx.ParseString(part); ok {
			b.WriteString(s)
			return
		}
		pf, _ := RawFields(part)
		if s, ok := jsonx.ParseString(pf["text"]); ok && string(pf["thought"]) != "true" {
			b.WriteString(s)
		}
	}
	if len(content) > 0 && content[0] == '[' {
		sc := jsonx.Scanner{Data: content}
		_ = sc.Elements(func(_ int, part []byte, _ bool) error { each(part); return nil })
	} else if len(content) > 0 {
		each(content)
	}
	return b.String()
}

// geminiReply returns the assistant message of a gemini message (as
// convertSessionToClientHistory rebuilds it: a modern message's content
// holds its thoughts and calls, an older one's are rebuilt from thoughts
// and toolCalls), the user turn of its function responses (nil when
// none) and how many parts the reply has.
func geminiReply(f map[string]jsonx.RawMessage) (msg, resp []byte, n int) {
	content := bytes.TrimSpace(f["content"])
	modern := bytes.Contains(content, []byte(`"functionCall"`)) || bytes.Contains(content, []byte(`"thought":true`))
	var parts, results [][]byte
	if !modern {
		each(f["thoughts"], func(th []byte) {
			tf, _ := RawFields(th)
			subject, _ := jsonx.ParseString(tf["subject"])
			text, _ := jsonx.ParseString(tf["description"])
			if subject != "" {
				text = "**" + subject + "** " + text
			}
			parts = append(parts, append(jsonx.AppendString([]byte(`{"type":"thinking","thinking":`), text), '}'))
		})
	}
	parts = appendGeminiParts(parts, content)
	each(f["toolCalls"], func(tc []byte) {
		tf, _ := RawFields(tc)
		if !modern {
			b := jsonx.AppendString([]byte(`{"type":"tool_use","id":`), stringOr(tf["id"]))
			b = append(jsonx.AppendString(append(b, `,"name":`...), stringOr(tf["name"])), `,"input":`...)
			parts = append(parts, append(append(b, rawOr(tf["args"], "{}")...), '}'))
		}
		switch res := bytes.TrimSpace(tf["result"]); {
		case len(res) == 0 || string(res) == "null":
		case res[0] == '"':
			b := jsonx.AppendString([]byte(`{"type":"tool_result","tool_use_id":`), stringOr(tf["id"]))
			b = append(jsonx.AppendString(append(b, `,"name":`...), stringOr(tf["name"])), `,"content":`...)
			results = append(results, append(append(b, compactSource(res)...), '}'))
		default:
			results = appendGeminiParts(results, res)
		}
	})
	msg = append(joinParts([]byte(`{"role":"assistant","content":[`), parts), ']')
	if model := f["model"]; len(model) > 0 && model[0] == '"' {
		msg = append(append(msg, `,"model":`...), model...)
	}
	msg = append(msg, '}')
	if len(results) > 0 {
		resp = append(joinParts([]byte(`{"role":"user","content":[`), results), "]}"...)
	}
	return msg, resp, len(parts)
}

// geminiParts appends a PartListUnion as message content: a string as
// it is, else an array of parts (appendGeminiParts).
func geminiParts(b []byte, content []byte) []byte {
	content = bytes.TrimSpace(content)
	if len(content) > 0 && content[0] == '"' {
		return append(b, content...)
	}
	return append(joinParts(append(b, '['), appendGeminiParts(nil, content)), ']')
}

// appendGeminiParts appends each part of a PartListUnion (a string, a
// part or an array), as the renderer reads parts: a string or {text} a
// text part, a thought a thinking part, functionCall a tool_use,
// functionResponse a tool_result, any other part as it is.
func appendGeminiParts(parts [][]byte, content []byte) [][]byte {
	one := func(part []byte) {
		if s, ok := jsonx.ParseString(part); ok {
			if s != "" {
				parts = append(parts, append(jsonx.AppendString([]byte(`{"type":"text","text":`), s), '}'))
			}
			return
		}
		pf, err := RawFields(part)
		switch {
		case err != nil:
		case pf["text"] != nil && string(pf["thought"]) == "true":
			parts = append(parts, append(append([]byte(`{"type":"thinking","thinking":`), compactSource(pf["text"])...), '}'))
			return
		case pf["text"] != nil:
			parts = append(parts, append(append([]byte(`{"type":"text","text":`), compactSource(pf["text"])...), '}'))
			return
		case pf["functionCall"] != nil:
			fc, _ := RawFields(bytes.TrimSpace(pf["functionCall"]))
			b := jsonx.AppendString([]byte(`{"type":"tool_use","id":`), stringOr(fc["id"]))
			b = append(jsonx.AppendString(append(b, `,"name":`...), stringOr(fc["name"])), `,"input":`...)
			parts = append(parts, append(append(b, rawOr(fc["args"], "{}")...), '}'))
			return
		case pf["functionResponse"] != nil:
			fr, _ := RawFields(bytes.TrimSpace(pf["functionResponse"]))
			out := rawOr(fr["response"], "null")
			if rf, err := RawFields(bytes.TrimSpace(fr["response"])); err == nil && len(rf) == 1 && rf["output"] != nil {
				out = compactSource(rf["output"])
			}
			b := jsonx.AppendString([]byte(`{"type":"tool_result","tool_use_id":`), stringOr(fr["id"]))
			b = append(jsonx.AppendString(append(b, `,"name":`...), stringOr(fr["name"])), `,"content":`...)
			parts = append(parts, append(append(b, out...), '}'))
			return
		}
		parts = append(parts, compactSource(part))
	}
	content = bytes.TrimSpace(content)
	switch {
	case len(content) == 0 || string(content) == "null":
	case content[0] == '[':
		each(content, one)
	default:
		one(content)
	}
	return parts
}

// each calls fn with each element of the JSON array raw (nothing when raw
// is not one).
func each(raw []byte, fn func(elem []byte)) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return
	}
	sc := jsonx.Scanner{Data: raw}
	_ = sc.Elements(func(_ int, v []byte, _ bool) error {
		fn(compactSource(v))
		return nil
	})
}

// joinParts appends parts to b, comma-separated.
func joinParts(b []byte, parts [][]byte) []byte {
	for k, p := range parts {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, p...)
	}
	return b
}

// stringOr returns the string raw holds ("" for anything else).
func stringOr(raw []byte) string {
	s, _ := jsonx.ParseString(bytes.TrimSpace(raw))
	return s
}

// rawOr returns raw compacted, or def when it is absent.
func rawOr(raw []byte, def string) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return []byte(def)
	}
	return compactSource(bytes.TrimSpace(raw))
}

// rewind reads a $rewindTo record: the chain is cut before the message
// (all of it when the message is not on it), and a custom entry marks
// where the session goes on.
func (r *geminiReader) rewind(raw []byte, f map[string]jsonx.RawMessage, n int) {
	id, ok := jsonx.ParseString(f["$rewindTo"])
	at := r.chainAt(id)
	switch {
	case !ok:
		r.warn("line %d: $rewindTo is not a message id; nothing is dropped", n)
	case at < 0:
		r.warn("line %d: $rewindTo names %q, which is not in the session; every message is dropped, as Gemini CLI does", n, id)
		r.chain = r.chain[:0]
	default:
		r.chain = r.chain[:at]
	}
	r.mark(Record{ID: "L" + strconv.Itoa(n), Kind: KindCustom, Source: compactSource(raw),
		Entry: &Entry{CustomType: "gemini/$rewindTo", Data: compactSource(raw)}})
}

// set reads a $set record (or a second metadata line, raw = the patch):
// a summary titles the session; messages are a checkpoint that replaces
// the list; any field but lastUpdated is kept as a custom entry.
func (r *geminiReader) set(line, patch []byte, n int) {
	pf, err := RawFields(bytes.TrimSpace(patch))
	if err != nil {
		r.warn("line %d: $set is not an object; skipped", n)
		return
	}
	if s, ok := jsonx.ParseString(pf["summary"]); ok {
		r.summary = s
	}
	if t := unixSeconds(pf["lastUpdated"]); t > 0 {
		r.updated = t
	}
	if msgs := bytes.TrimSpace(pf["messages"]); len(msgs) > 0 && msgs[0] == '[' {
		r.checkpoint(msgs, n)
	}
	keys := slices.Collect(maps.Keys(pf))
	keys = slices.DeleteFunc(keys, func(k string) bool {
		return k == "lastUpdated" || k == "messages" || k == "sessionId" || k == "projectHash"
	})
	if len(keys) == 0 {
		r.skip("$set", n)
		return
	}
	data := objectWithout(bytes.TrimSpace(patch), "messages")
	r.mark(Record{ID: "L" + strconv.Itoa(n), Kind: KindCustom, Source: compactSource(line),
		Entry: &Entry{CustomType: "gemini/$set", Data: data}})
}

// checkpoint reads a $set of messages: the list the session goes on
// from. The messages the chain already holds, in order, are replaced
// where they stand; from the first that differs, the rest is a branch
// off the last message in common (what the chain held after it stays, a
// branch the cursor left).
func (r *geminiReader) checkpoint(msgs []byte, n int) {
	k := 0 // the place in the chain of the next message in common
	diverged := false
	each(msgs, func(raw []byte) {
		mf, err := RawFields(raw)
		if err != nil {
			return
		}
		id, _ := jsonx.ParseString(mf["id"])
		for !diverged && k < len(r.chain) && r.marks[r.chain[k]] {
			k++ // the marks between messages ($set, rewinds)
		}
		if !diverged && k < len(r.chain) && r.recs[r.chain[k]].ID == id {
			r.message(raw, mf, jsonx.Sprintf("line %d", n))
			k++
			if k < len(r.chain) && r.recs[r.chain[k]].ID == id+"_response" {
				k++
			}
			return
		}
		if !diverged {
			diverged = true
			r.chain = r.chain[:k]
		}
		r.message(raw, mf, jsonx.Sprintf("line %d", n))
	})
	if !diverged && k < len(r.chain) {
		r.chain = r.chain[:k]
	}
}

func (r *geminiReader) Finish() ([]Conversation, []Warning) {
	c := Conversation{ID: r.session, Records: r.recs, Created: r.created, Updated: r.updated, Title: r.summary}
	if c.Title == "" {
		c.Title = r.model.Preview(append(jsonx.AppendString([]byte(`{"role":"user","content":`), r.first), '}'), 60)
	}
	if !r.header {
		c.Skip = "the data has no Gemini CLI session metadata (sessionId, projectHash); skipped"
		return []Conversation{c}, r.warns
	}
	if c.ID == "" || !r.model.SessionID(c.ID) {
		c.ID = hashID("gemini-", r.recs[0].Source)
	}
	c.Current = r.tip()
	warns := r.finish(func(string) string { return " only move lastUpdated; skipped" })
	return finishSession(c, warns, "messages", true)
}
