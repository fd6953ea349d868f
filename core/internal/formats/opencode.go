package formats

import (
	"bytes"
	"slices"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// OpenCode storage trees (sst/opencode, ~/.local/share/opencode/storage;
// schemas in packages/opencode/src/session/message-v2.ts and
// session/index.ts): one JSON file per record,
//
//	session/<projectID>/<sessionID>.json  {id, projectID, directory, parentID?, title, time:{created, updated}, revert?}
//	message/<sessionID>/<messageID>.json  user {id, sessionID, role:"user", time:{created}, …}
//	                                      assistant {…, role:"assistant", parentID, modelID, providerID, path:{cwd, root}, cost, tokens, error?, summary?}
//	part/<messageID>/<partID>.json        {id, sessionID, messageID, type, …}
//
// Ids sort by time ("msg_…", "prt_…" ascending), so a session's messages
// and a message's parts are read in id order. Mapping, after
// MessageV2.toModelMessages (what the model is sent): a message is one
// node whose content holds its model-visible parts as content blocks —
// text (not "ignored") as text, reasoning as thinking, file as a file
// block, tool as tool_use {id: callID, name: tool, input}; a message with
// completed or failed tool parts is followed by a user node of their
// tool_result blocks (pending or running ones give "[Tool execution was
// interrupted]", as toModelMessages does). Every other part (step-start,
// step-finish with cost and tokens, snapshot, patch, agent, retry,
// subtask, compaction, an ignored text) is a custom entry
// "opencode/<type>" (data: the part) after its message's node, and an
// assistant message that failed (toModelMessages leaves it out) is a custom
// entry "opencode/assistant-error". The session record is the root, a
// custom entry "opencode/session" (data: the record, which names a
// sub-agent session's parentID). A user message follows the previous
// message; an assistant message follows the previous message when that
// is its parentID user message or another reply to it (the steps of one
// turn, all sent to the model), else it hangs on its parentID user message
// as a branch. With a "revert", the cursor is the message before the
// reverted one. The title is the session's own unless it is OpenCode's
// placeholder ("New session - …", "Child session - …"), else the first
// user prompt; the project is the session's directory.

// File is one file of a folder import: its path, with "/" between names,
// relative to the folder chosen, and its bytes.
type File struct {
	Path string
	Data []byte
}

// OpenCodeKind tells what an OpenCode storage path holds: "session",
// "message", "part" or "project", and the id of the folder it is in
// (project, session or message id); "" when the path is none of them.
func OpenCodeKind(path string) (kind, owner string) {
	parts := strings.Split(path, "/")
	n := len(parts)
	if n >= 2 && parts[n-2] == "project" && strings.HasSuffix(parts[n-1], ".json") {
		return "project", ""
	}
	if n < 3 || !strings.HasSuffix(parts[n-1], ".json") {
		return "", ""
	}
	switch k := parts[n-3]; k {
	case "session", "message", "part":
		return k, parts[n-2]
	}
	return "", ""
}

// ConvertOpenCode converts the files of an OpenCode storage tree: one
// conversation per session file (messages of a session with no session
// file make one too, with a warning). Files that cannot be read are named
// in warnings; nothing is dropped silently.
func ConvertOpenCode(model *Model, files []File) ([]Conversation, []Warning) {
	var warns []Warning
	sessions := map[string]*ocSession{}
	msgs := map[string]*ocMessage{} // by message id
	bySession := map[string][]*ocMessage{}
	var parts []ocPart
	for _, f := range files {
		kind, _ := OpenCodeKind(f.Path)
		data := bytes.TrimSpace(f.Data)
		bad := func(what string, err error) {
			warns = append(warns, Warning{Message: jsonx.Sprintf("%s: not an OpenCode %s record (%s); skipped", f.Path, what, jsonx.ErrorText(err))})
		}
		switch kind {
		case "session":
			s := &ocSession{}
			if err := readOCRecord(data, s.read); err != nil || s.ID == "" {
				bad("session", errOr(err, "no id"))
				continue
			}
			s.raw = compactSource(data)
			sessions[s.ID] = s
		case "message":
			m := &ocMessage{}
			if err := readOCRecord(data, m.read); err != nil || m.ID == "" || m.SessionID == "" {
				bad("message", errOr(err, "no id or sessionID"))
				continue
			}
			m.raw = compactSource(data)
			msgs[m.ID] = m
			bySession[m.SessionID] = append(bySession[m.SessionID], m)
		case "part":
			var p ocPart
			if err := readOCRecord(data, p.read); err != nil || p.ID == "" || p.MessageID == "" {
				bad("part", errOr(err, "no id or messageID"))
				continue
			}
			p.raw = compactSource(data)
			parts = append(parts, p)
		case "project":
		default:
			warns = append(warns, Warning{Message: jsonx.Sprintf("%s: not a file of an OpenCode storage tree; skipped", f.Path)})
		}
	}
	for _, p := range parts {
		m := msgs[p.MessageID]
		if m == nil {
			warns = append(warns, Warning{Message: jsonx.Sprintf("part %q names message %q, which has no message file; skipped", p.ID, p.MessageID)})
			continue
		}
		m.parts = append(m.parts, p)
	}
	var convs []Conversation
	for _, sid := range sortedKeys(bySession) {
		if sessions[sid] == nil {
			warns = append(warns, Warning{SessionID: sid, Message: jsonx.Sprintf("session %q has messages but no session file; imported without its title", sid)})
			sessions[sid] = &ocSession{ID: sid}
		}
	}
	for _, sid := range sortedKeys(sessions) {
		c, w := ocConversation(model, sessions[sid], bySession[sid])
		convs = append(convs, c)
		warns = append(warns, w...)
	}
	return convs, warns
}

func errOr(err error, text string) error {
	if err != nil {
		return err
	}
	return jsonx.TextError("%s", text)
}

// ocConversation converts one session and its messages.
func ocConversation(model *Model, s *ocSession, msgs []*ocMessage) (Conversation, []Warning) {
	c := Conversation{ID: s.ID, Project: s.Directory, Created: unixSeconds(s.Time.Created)}
	if !strings.HasPrefix(s.Title, "New session - ") && !strings.HasPrefix(s.Title, "Child session - ") {
		c.Title = s.Title
	}
	var warns []Warning
	root := ""
	if s.raw != nil {
		root = s.ID + "-session"
		c.Records = append(c.Records, Record{ID: root, Kind: KindCustom, Time: c.Created, Entry: &Entry{CustomType: "opencode/session", Data: s.raw}})
	}
	slices.SortFunc(msgs, func(a, b *ocMessage) int { return strings.Compare(a.ID, b.ID) })
	prev, prevMsg := root, ""   // the last node, and the message it belongs to
	tail := map[string]string{} // message id → its last node
	replyTo := map[string]string{}
	cursor := ""
	var ids map[string]bool // every message's id, made when a reply's parent is not found before it
	later := func(id string) bool {
		if ids == nil {
			ids = make(map[string]bool, len(msgs))
			for _, o := range msgs {
				ids[o.ID] = true
			}
		}
		return ids[id]
	}
	for _, m := range msgs {
		slices.SortFunc(m.parts, func(a, b ocPart) int { return strings.Compare(a.ID, b.ID) })
		parent := prev
		if m.Role == "assistant" && m.ParentID != "" && m.ParentID != prevMsg && replyTo[prevMsg] != m.ParentID {
			if t, ok := tail[m.ParentID]; ok {
				parent = t // a reply to an earlier message: a branch
			} else if m.ParentID == m.ID {
				warns = append(warns, Warning{SessionID: s.ID, Message: jsonx.Sprintf("session %q: message %q replies to itself; it follows the message before it", s.ID, m.ID)})
			} else if later(m.ParentID) {
				warns = append(warns, Warning{SessionID: s.ID, Message: jsonx.Sprintf("session %q: message %q replies to %q, which comes after it; it follows the message before it", s.ID, m.ID, m.ParentID)})
			} else {
				warns = append(warns, Warning{SessionID: s.ID, Message: jsonx.Sprintf("session %q: message %q replies to %q, which is not in the session; it follows the message before it", s.ID, m.ID, m.ParentID)})
			}
		}
		if s.Revert != nil && s.Revert.MessageID == m.ID {
			cursor = parent
		}
		recs := ocMessageRecords(model, m, parent, &warns)
		if m.Role == "user" && c.Title == "" {
			for _, r := range recs {
				if r.Kind == "" {
					c.Title = model.Preview(r.Message, 60)
					break
				}
			}
		}
		c.Records = append(c.Records, recs...)
		prev, prevMsg = recs[len(recs)-1].ID, m.ID
		tail[m.ID] = prev
		if m.Role == "assistant" {
			replyTo[m.ID] = m.ParentID
		}
	}
	if cursor == "" && len(c.Records) > 0 {
		cursor = prev
	}
	c.Current = cursor
	for i := range warns {
		if warns[i].SessionID == "" {
			warns[i].Message = jsonx.Sprintf("session %q: %s", s.ID, warns[i].Message)
		}
		warns[i].SessionID = s.ID
	}
	if len(c.Records) == 0 {
		c.Skip = jsonx.Sprintf("session %q has no messages; skipped", s.ID)
	}
	return c, warns
}

// ocMessageRecords returns the nodes of one message: its message node (or
// an error entry), the tool results' user node, then its bookkeeping
// parts as custom entries, chained from parent.
func ocMessageRecords(model *Model, m *ocMessage, parent string, warns *[]Warning) []Record {
	t := unixSeconds(m.Time.Created)
	var content, results []byte
	var extra []ocPart
	for _, p := range m.parts {
		var block []byte
		switch {
		case p.Type == "text" && p.Text != nil && !p.Ignored:
			block = jsonx.AppendString([]byte(`{"type":"text","text":`), *p.Text)
		case p.Type == "reasoning" && p.Text != nil:
			block = jsonx.AppendString([]byte(`{"type":"thinking","thinking":`), *p.Text)
		case p.Type == "file" && p.Mime != "text/plain" && p.Mime != "application/x-directory":
			block = jsonx.AppendString([]byte(`{"type":"file","mime":`), p.Mime)
			block = jsonx.AppendString(append(block, `,"filename":`...), p.Filename)
			block = jsonx.AppendString(append(block, `,"url":`...), p.URL)
		case p.Type == "tool" && p.State != nil:
			block = jsonx.AppendString([]byte(`{"type":"tool_use","id":`), p.CallID)
			block = jsonx.AppendString(append(block, `,"name":`...), p.Tool)
			input := bytes.TrimSpace(p.State.Input)
			if len(input) == 0 {
				input = []byte("{}")
			}
			block = append(append(block, `,"input":`...), compactSource(input)...)
			results = ocToolResult(results, p)
		default:
			extra = append(extra, p)
			continue
		}
		if len(content) > 0 {
			content = append(content, ',')
		}
		content = append(content, append(block, '}')...)
	}
	id := m.ID
	var recs []Record
	failed := m.Role == "assistant" && len(m.Error) > 0 && !bytes.Equal(m.Error, []byte("null"))
	msg := append(jsonx.AppendString([]byte(`{"role":`), m.Role), `,"content":[`...)
	msg = append(append(msg, content...), "]}"...)
	rec := Record{ID: id, ParentID: parent, Time: t, Source: m.raw}
	checked, _, err := model.Message(msg, "its message")
	if err == nil && !failed && (m.Role == "user" || m.Role == "assistant") {
		rec.Message, rec.Written = checked, true
	} else {
		kind := "opencode/assistant-error"
		if !failed {
			kind = "opencode/message"
			why := "its role is not user or assistant"
			if err != nil {
				why = err.Error()
			}
			*warns = append(*warns, Warning{Message: jsonx.Sprintf("message %q is not usable (%s); it is kept as a custom entry that does not reach the model", m.ID, why)})
		}
		rec.Kind, rec.Entry = KindCustom, &Entry{CustomType: kind, Data: m.raw}
		results = nil
	}
	recs = append(recs, rec)
	if len(results) > 0 {
		msg := append(append([]byte(`{"role":"user","content":[`), results...), "]}"...)
		if checked, _, err := model.Message(msg, "its tool results"); err == nil {
			recs = append(recs, Record{ID: id + "-results", ParentID: id, Time: t, Message: checked, Written: true})
		}
	}
	for _, p := range extra {
		prev := recs[len(recs)-1].ID
		recs = append(recs, Record{ID: p.ID, ParentID: prev, Time: t, Kind: KindCustom, Entry: &Entry{CustomType: "opencode/" + p.Type, Data: p.raw}})
	}
	return recs
}

// ocToolResult appends the tool_result block of tool part p to b.
func ocToolResult(b []byte, p ocPart) []byte {
	text, isErr := "", false
	switch p.State.Status {
	case "completed":
		if p.State.Output != nil {
			text = *p.State.Output
		}
	case "error":
		text, isErr = p.State.Error, true
	default:
		text, isErr = "[Tool execution was interrupted]", true
	}
	if len(b) > 0 {
		b = append(b, ',')
	}
	b = jsonx.AppendString(append(b, `{"type":"tool_result","tool_use_id":`...), p.CallID)
	b = jsonx.AppendString(append(b, `,"content":`...), text)
	if isErr {
		b = append(b, `,"is_error":true`...)
	}
	return append(b, '}')
}
