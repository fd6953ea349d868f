package formats

import (
	"bytes"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl),
// as openai/codex writes them (codex-rs/core/src/rollout/recorder.rs) and
// replays them (codex-rs/core/src/codex/rollout_reconstruction.rs): one
// RolloutLine per line, {"timestamp","type","payload"}, type one of
//
//	session_meta   {id, forked_from_id?, timestamp, cwd, originator, cli_version,
//	               model_provider?, base_instructions?: {text}, git?, …}
//	response_item  a ResponseItem (codex-rs/protocol/src/models.rs): message
//	               {role, content: [input_text|output_text|input_image]},
//	               reasoning, function_call, function_call_output,
//	               custom_tool_call(_output), local_shell_call, web_search_call,
//	               ghost_snapshot, …
//	event_msg      an event for the UI (user_message and agent_message repeat
//	               the messages; thread_rolled_back {num_turns} drops turns)
//	turn_context   {cwd, model, effort?, approval_policy, …} per turn
//	compacted      {message, replacement_history?}
//
// The model's history is the response items that is_api_message
// (context_manager/history.rs) keeps, each turned into a message: a message
// item is the message as it stands (its content is already parts); any
// other item becomes a message of one content part, the item itself, with
// role "assistant" (reasoning, calls) or "tool" (call outputs). A ghost
// snapshot (an undo point) and a system message become custom entries
// "codex/response_item/<type>", which do not reach the model. The first
// session_meta is a custom root entry "codex/session_meta" (its payload
// without base_instructions, whose text becomes the system message under
// it: the Responses API instructions); a later one (a fork copies its
// parent's) is a custom entry in the chain. The session's project is the
// first session_meta's cwd, else the first turn_context's. A turn_context that changes
// the model or effort becomes a model_change or thinking_level_change
// entry. thread_rolled_back drops the newest num_turns user turns as Codex
// does (drop_last_n_user_turns): what follows hangs off the node before
// them, so they stay as a branch the cursor left, and a custom entry
// "codex/thread_rolled_back" marks the place. compacted with a
// replacement_history replaces the history: a custom entry
// "codex/compacted" under the session's instructions starts a new chain
// holding the replacement items, so the context is exactly them; without
// one (older Codex rebuilt the history from its own initial context) it
// becomes a compaction entry that keeps nothing before it, with a
// warning. Every other event and turn_context line is counted in one
// warning per type. Node ids are "L<line>" ("L<line>.<k>" for the k-th
// replacement item), so a re-import of a grown file adds only its new
// lines.

// codexUserContext are the openings of the user messages Codex writes
// itself (contextual fragments, codex-rs/core/src/context/): an
// environment context, AGENTS.md instructions, a skill, a shell command
// the user ran, an aborted turn. They are not the user's prompts.
var codexUserContext = []string{"<environment_context>", "<user_instructions>", "# AGENTS.md instructions for ",
	"<skill>", "<skills_instructions>", "<user_shell_command>", "<turn_aborted>", "<subagent_notification>", "<hook_prompt"}

// detectCodex reports whether the first lines are Codex rollout lines.
func detectCodex(sn *Sniff) bool {
	lines := sn.lines
	if sn.Shape == '{' {
		lines = []map[string]jsonx.RawMessage{sn.Keys}
	}
	if len(lines) > 0 && lines[0]["id"] != nil && lines[0]["timestamp"] != nil && lines[0]["instructions"] != nil && lines[0]["type"] == nil {
		return true // a rollout of mid-2025: {id, timestamp, instructions}, then bare items
	}
	for _, l := range lines {
		if l["payload"] == nil || l["timestamp"] == nil {
			continue
		}
		switch typ, _ := jsonx.ParseString(l["type"]); typ {
		case "session_meta", "response_item", "event_msg", "turn_context", "compacted":
			return true
		}
	}
	return false
}

// codexStep is a node of the current chain: its record and what it is to
// a rollback (a user turn, a contextual message Codex trims with one, or
// anything else).
type codexStep struct {
	rec   int
	class byte // 'u' a user turn, 'c' contextual, 'o' other
}

// codexReader reads a rollout line by line into one conversation.
type codexReader struct {
	model     *Model
	recs      []Record
	base      string      // the node every chain hangs off: the instructions, else the meta entry ("" before one)
	chain     []codexStep // the nodes after base on the path to the tip
	sessionID string
	parent    string // the first session_meta's forked_from_id: the session it was forked from
	project   string // the working folder: the first session_meta's cwd, else the first turn_context's
	metas     int
	provider  string
	lastModel string
	lastLevel string
	firstText string
	created   float64
	warnings         // the skipped lines by kind, told in Finish
	hash      []byte // the first line, naming a file without a session id
}

func newCodexReader(model *Model) LineReader {
	return &codexReader{model: model}
}

// tip returns the id of the node the next one hangs off.
func (r *codexReader) tip() string {
	if len(r.chain) == 0 {
		return r.base
	}
	return r.recs[r.chain[len(r.chain)-1].rec].ID
}

// add appends rec under the tip and makes it the tip.
func (r *codexReader) add(rec Record, class byte) {
	rec.ParentID = r.tip()
	r.recs = appendRecord(r.recs, rec)
	r.chain = append(r.chain, codexStep{rec: len(r.recs) - 1, class: class})
}

// entry returns a custom entry record "codex/<what>" holding data.
func codexEntry(id string, what string, data []byte) Record {
	if len(data) == 0 {
		data = nil
	}
	return Record{ID: id, Kind: KindCustom, Entry: &Entry{CustomType: "codex/" + what, Data: data}}
}

func (r *codexReader) Line(raw []byte, f map[string]jsonx.RawMessage, n int) {
	if r.hash == nil {
		r.hash = raw
	}
	typ, _ := jsonx.ParseString(f["type"])
	payload := f["payload"]
	switch {
	case f == nil:
	case n == 1 && typ == "" && f["id"] != nil && f["instructions"] != nil:
		typ, payload = "session_meta", raw // mid-2025: the first line is the meta
	case f["record_type"] != nil && payload == nil:
		return // a state line: routine, nothing of the conversation (codexRoutine)
	case payload == nil && typ != "":
		typ, payload = "response_item", raw // mid-2025: bare response items
	}
	if f == nil || typ == "" || len(payload) == 0 || payload[0] != '{' {
		r.skip("(not a rollout line)", n)
		return
	}
	id := "L" + strconv.Itoa(n)
	t, stamp := lineTimes(f["timestamp"])
	if t > 0 && (r.created == 0 || t < r.created) {
		r.created = t
	}
	pf, _ := RawFields(payload)
	at := func(rec Record) Record {
		rec.Time, rec.Stamp, rec.Source = t, stamp, raw[:len(raw):len(raw)]
		return rec
	}
	switch typ {
	case "session_meta":
		r.sessionMeta(id, payload, pf, at)
	case "response_item":
		rec, class := r.responseItem(id, payload, pf, n)
		r.add(at(rec), class)
	case "event_msg":
		r.event(id, pf, n, at)
	case "turn_context":
		r.turnContext(id, pf, n, at)
	case "compacted":
		r.compacted(id, payload, pf, n, at)
	default:
		r.warn("line %d: a %q line is of a type sessiontree does not know; it is kept as a custom entry %q", n, typ, "codex/"+typ)
		r.add(at(codexEntry(id, typ, compactSource(payload))), 'o')
	}
}

// sessionMeta reads a session_meta line: the first names the session and
// roots the tree; a later one is kept in the chain.
func (r *codexReader) sessionMeta(id string, payload []byte, pf map[string]jsonx.RawMessage, at func(Record) Record) {
	r.metas++
	if r.metas > 1 || len(r.recs) > 0 {
		r.add(at(codexEntry(id, "session_meta", compactSource(payload))), 'o')
		return
	}
	sid, ok := jsonx.ParseString(pf["id"])
	if !ok {
		sid, _ = jsonx.ParseString(pf["session_id"])
	}
	r.sessionID = sid
	r.parent, _ = jsonx.ParseString(pf["forked_from_id"])
	r.project, _ = jsonx.ParseString(pf["cwd"])
	r.provider, _ = jsonx.ParseString(pf["model_provider"])
	data := objectWithout(payload, "base_instructions")
	rec := at(codexEntry(id, "session_meta", data))
	r.recs = appendRecord(r.recs, rec)
	r.base = id
	bi, _ := RawFields(bytes.TrimSpace(pf["base_instructions"]))
	if text, ok := jsonx.ParseString(bi["text"]); ok && text != "" {
		msg := append(jsonx.AppendString([]byte(`{"role":"system","content":`), text), '}')
		sys := at(Record{ID: id + ".instructions", ParentID: id, Message: msg, Written: true, Role: "system"})
		r.recs = appendRecord(r.recs, sys)
		r.base = sys.ID
	}
}

// responseItem returns the record of a response item and its class.
func (r *codexReader) responseItem(id string, payload []byte, pf map[string]jsonx.RawMessage, n int) (Record, byte) {
	typ, _ := jsonx.ParseString(pf["type"])
	role, _ := jsonx.ParseString(pf["role"])
	var msg []byte
	switch typ {
	case "message":
		if role == "system" { // not an API message
			return codexEntry(id, "response_item/message", compactSource(payload)), 'o'
		}
		msg = payload
	case "reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call",
		"tool_search_call", "image_generation_call", "compaction", "compaction_summary", "context_compaction", "agent_message":
		msg = codexWrap("assistant", payload)
	case "function_call_output", "custom_tool_call_output", "tool_search_output":
		msg = codexWrap("tool", payload)
	case "ghost_snapshot", "compaction_trigger":
		return codexEntry(id, "response_item/"+typ, compactSource(payload)), 'o'
	default:
		r.warn("line %d: a response item of type %q is one sessiontree does not know; it is kept as a custom entry that does not reach the model", n, typ)
		return codexEntry(id, "response_item/"+typ, compactSource(payload)), 'o'
	}
	m, mrole, err := r.model.Message(msg, "its message")
	if err != nil {
		r.warn("line %d: the %s item has an unusable message (%s); it is kept as a custom entry that does not reach the model", n, typ, err.Error())
		return codexEntry(id, "response_item/"+typ, compactSource(payload)), 'o'
	}
	rec := Record{ID: id, Message: m, Written: true, Role: mrole}
	class := byte('o')
	if typ == "message" {
		class = codexClass(role, pf["content"])
		if class == 'u' && r.firstText == "" {
			r.firstText = r.model.Preview(m, 60)
		}
	}
	return rec, class
}

// objectWithout returns the JSON object raw without the members named
// (compact; "{}" when none is left).
func objectWithout(raw []byte, except ...string) []byte {
	b := appendObjectFields(nil, raw, except...)
	if len(b) == 0 {
		return []byte("{}")
	}
	b[0] = '{'
	return append(b, '}')
}

// codexWrap returns the message {"role":role,"content":[item]}.
func codexWrap(role string, item []byte) []byte {
	b := make([]byte, 0, len(item)+40)
	b = append(jsonx.AppendString(append(b, `{"role":`...), role), `,"content":[`...)
	return append(append(b, item...), "]}"...)
}

// codexClass is what a message is to a rollback (is_user_turn_boundary and
// trim_pre_turn_context_updates in context_manager/history.rs): a user
// message is a turn unless one of its text parts is a contextual fragment;
// a developer message opening with a tag is contextual.
func codexClass(role string, content []byte) byte {
	if role != "user" && role != "developer" {
		return 'o'
	}
	class := byte('o')
	if role == "user" {
		class = 'u'
	}
	sc := jsonx.Scanner{Data: content}
	_ = sc.Elements(func(_ int, part []byte, _ bool) error {
		pf, _ := RawFields(part)
		text, _ := jsonx.ParseString(pf["text"])
		text = strings.TrimLeft(text, " \t\r\n")
		switch {
		case role == "developer" && strings.HasPrefix(text, "<"):
			class = 'c'
		case role == "user" && codexContextual(text):
			class = 'c'
		}
		return nil
	})
	return class
}

// codexContextual reports whether a user text part is one Codex wrote
// itself (codexUserContext), ignoring case as Codex does.
func codexContextual(text string) bool {
	for _, p := range codexUserContext {
		if len(text) >= len(p) && strings.EqualFold(text[:len(p)], p) {
			return true
		}
	}
	return false
}

// codexRoutine reports whether typ is one of the event_msg types a rollout
// writes on every turn that the model never sees or that repeat its
// response items (the user's and the agent's messages, the reasoning):
// left out without a warning, as are the state lines of mid-2025 rollouts
// and a turn_context that changes neither model nor effort. A warning for
// each, in every file, made a folder of rollouts a report of hundreds of
// lines saying nothing was lost. Other types (new ones) are still counted
// in a warning. A switch, not a map: see junkFolders.
func codexRoutine(typ string) bool {
	switch typ {
	case "token_count", "task_started", "task_complete", "user_message",
		"agent_message", "agent_reasoning", "agent_reasoning_raw_content",
		"turn_aborted", "entered_review_mode", "exited_review_mode",
		"undo_completed", "context_compacted":
		return true
	}
	return false
}

// event reads an event_msg line: a rollback changes the chain, any other
// event is counted (user and agent messages repeat response items).
func (r *codexReader) event(id string, pf map[string]jsonx.RawMessage, n int, at func(Record) Record) {
	typ, _ := jsonx.ParseString(pf["type"])
	if typ != "thread_rolled_back" {
		if !codexRoutine(typ) {
			r.skip("event_msg "+typ, n)
		}
		return
	}
	var turns int
	if !jsonx.ReadInt(pf["num_turns"], &turns) || turns < 0 {
		r.warn("line %d: thread_rolled_back has no usable num_turns; nothing is dropped", n)
		turns = 0
	}
	r.rollback(turns)
	data := append(jsonx.AppendKey([]byte{'{'}, "num_turns"), strconv.Itoa(turns)...)
	r.add(at(codexEntry(id, "thread_rolled_back", append(data, '}'))), 'o')
}

// rollback drops the newest turns user turns from the chain, as
// drop_last_n_user_turns does: the cut is at the turns-th user turn from
// the end (the first when there are fewer), moved up past the contextual
// messages just above it but never above the first user turn.
func (r *codexReader) rollback(turns int) {
	var users []int
	for k, s := range r.chain {
		if s.class == 'u' {
			users = append(users, k)
		}
	}
	if turns == 0 || len(users) == 0 {
		return
	}
	cut := users[0]
	if turns < len(users) {
		cut = users[len(users)-turns]
	}
	for cut > users[0] && r.chain[cut-1].class == 'c' {
		cut--
	}
	r.chain = r.chain[:cut]
}

// turnContext reads a turn_context line: a change of model or effort
// becomes an entry, anything else is counted.
func (r *codexReader) turnContext(id string, pf map[string]jsonx.RawMessage, n int, at func(Record) Record) {
	model, _ := jsonx.ParseString(pf["model"])
	level, _ := jsonx.ParseString(pf["effort"])
	if r.project == "" {
		r.project, _ = jsonx.ParseString(pf["cwd"])
	}
	kept := false
	if model != "" && model != r.lastModel {
		r.lastModel, kept = model, true
		body := append(jsonx.AppendString([]byte(`{"kind":"model_change","provider":`), r.provider), `,"model":`...)
		r.addEntry(at(Record{ID: id}), KindModelChange, append(jsonx.AppendString(body, model), '}'), n)
	}
	if level != "" && level != r.lastLevel {
		rid := id
		if kept {
			rid = id + ".effort"
		}
		r.lastLevel, kept = level, true
		body := append(jsonx.AppendString([]byte(`{"kind":"thinking_level_change","level":`), level), '}')
		r.addEntry(at(Record{ID: rid}), KindThinkingLevelChange, body, n)
	}
	// An unchanged turn_context is routine: no warning (codexRoutine).
}

// addEntry adds rec as an entry of kind with body (validated by the
// model).
func (r *codexReader) addEntry(rec Record, kind string, body []byte, n int) {
	e, err := r.model.Entry(body, "entry")
	if err != nil {
		r.warn("line %d: the turn context does not read as a %s (%s); it is kept as a custom entry", n, kind, err.Error())
		rec.Kind, rec.Entry = KindCustom, &Entry{CustomType: "codex/turn_context", Data: rec.Source}
	} else {
		rec.Kind, rec.Entry = kind, e
	}
	r.add(rec, 'o')
}

// compacted reads a compacted line: a replacement history starts a new
// chain under the instructions; a summary alone becomes a compaction
// that keeps nothing before it.
func (r *codexReader) compacted(id string, payload []byte, pf map[string]jsonx.RawMessage, n int, at func(Record) Record) {
	message, _ := jsonx.ParseString(pf["message"])
	hist := bytes.TrimSpace(pf["replacement_history"])
	if len(hist) == 0 || hist[0] != '[' {
		body := jsonx.AppendString([]byte(`{"kind":"compaction","summary":`), message)
		body = append(jsonx.AppendString(append(body, `,"firstKeptNodeId":`...), id), '}')
		r.warn("line %d: a compaction without replacement_history: Codex rebuilt the history from its initial context, the earlier user messages and this summary, which the file does not hold; the context holds the summary and what follows", n)
		rec := at(Record{ID: id})
		e, err := r.model.Entry(body, "entry")
		if err != nil {
			r.add(at(codexEntry(id, "compacted", compactSource(payload))), 'o')
			return
		}
		rec.Kind, rec.Entry = KindCompaction, e
		r.add(rec, 'o')
		return
	}
	data := objectWithout(payload, "replacement_history")
	r.chain = r.chain[:0]
	r.add(at(codexEntry(id, "compacted", data)), 'o')
	when := at(Record{})
	sc := jsonx.Scanner{Data: hist}
	_ = sc.Elements(func(k int, item []byte, _ bool) error {
		pf, err := RawFields(item)
		if err != nil {
			r.warn("line %d: replacement item %d is not an object; skipped", n, k+1)
			return nil
		}
		rec, class := r.responseItem(id+"."+strconv.Itoa(k+1), item, pf, n)
		rec.Time, rec.Stamp, rec.Source = when.Time, when.Stamp, compactSource(item)
		r.add(rec, class)
		return nil
	})
}

func (r *codexReader) Finish() ([]Conversation, []Warning) {
	c := Conversation{ID: r.sessionID, Records: r.recs, Created: r.created, Title: r.firstText, ParentSession: r.parent, Project: r.project}
	if c.ID == "" || !r.model.SessionID(c.ID) {
		h := fnv.New128a()
		h.Write(r.hash)
		c.ID = "codex-" + HexString(h.Sum(nil)[:8])
	}
	if len(r.chain) > 0 || r.base != "" {
		c.Current = r.tip()
	}
	warns := r.finish(func(kind string) string {
		switch kind {
		case "(not a rollout line)":
			return ": skipped"
		}
		return ": the model does not see them; skipped"
	})
	return finishSession(c, warns, "messages", r.metas > 0)
}
