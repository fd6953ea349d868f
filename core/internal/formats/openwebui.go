package formats

import (
	"sort"
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Open WebUI exports: "Export All Chats" writes an array of chat rows
//
//	{"id","title","chat":{"title","history":{"currentId","messages":{ID:{…}}},"messages":[…]},"created_at","updated_at",…}
//
// and a single chat downloads as the same row (or a one-row array). The
// tree is chat.history.messages: message id → {id, parentId, childrenIds,
// role, content, timestamp, model, output, …}; chat.history.currentId is
// the message the chat shows. Older rows hold only chat.messages, a list
// with the same message objects. A clone's chat also holds originalChatId,
// the chat it was cloned from (openWebUIParentSession). Field names as in Open WebUI's
// src/lib/components/chat/Chat.svelte and LibreChat's importer test data.

// openWebUIProbeFields are the fields of a row's chat detection looks for.
var openWebUIProbeFields = []string{"history", "messages"}

// detectOpenWebUI reports whether the first record is an Open WebUI chat
// row, or a bare chat object with a history.
func detectOpenWebUI(sn *Sniff) bool {
	if sn.Shape == 'l' {
		return false
	}
	if raw, ok := sn.Keys["chat"]; ok && len(raw) > 0 && raw[0] == '{' {
		found := false
		return jsonx.ReadObject(raw, openWebUIProbeFields, func(int, []byte) { found = true }) && found
	}
	raw, ok := sn.Keys["history"]
	return ok && len(raw) > 0 && raw[0] == '{'
}

// openWebUIMessage is the part of a message record the importer reads.
type openWebUIMessage struct {
	id          []byte // raw "id", nil when absent
	parentID    []byte // raw "parentId", nil when absent
	childrenIDs []string
	role        string
	roleRaw     []byte // raw "role", nil when absent
	content     []byte
	timestamp   []byte
	output      []byte // raw "output" (the newer record's items), nil when absent
}

// readOpenWebUIMessage reads a message record with the one-pass scanner.
func readOpenWebUIMessage(raw []byte) (*openWebUIMessage, bool) {
	f, err := RawFields(raw)
	if err != nil {
		return nil, false
	}
	m := &openWebUIMessage{id: f["id"], parentID: f["parentId"], content: f["content"], timestamp: f["timestamp"], output: f["output"]}
	m.roleRaw = f["role"]
	m.role, _ = jsonx.ParseString(m.roleRaw)
	if kids := f["childrenIds"]; len(kids) > 0 && kids[0] == '[' {
		sc := jsonx.Scanner{Data: kids}
		_ = sc.Elements(func(_ int, v []byte, _ bool) error {
			if id, ok := jsonx.ParseString(v); ok {
				m.childrenIDs = append(m.childrenIDs, id)
			}
			return nil
		})
	}
	return m, true
}

// fieldString returns fields[key] as a string, and whether it is one.
func fieldString(fields map[string]jsonx.RawMessage, key string) (string, bool) {
	return jsonx.ParseString(fields[key])
}

// convertOpenWebUIChat converts one chat row (element k of the export). It
// reads each level with the one-pass scanner (no encoding/json
// re-validation of nested values). A chat without an id gets one derived
// from its creation time and root messages (renameDerived).
func convertOpenWebUIChat(model *Model, raw jsonx.RawMessage, k int) (Conversation, []Warning) {
	c, chat, derived := openWebUIHead(model, raw, k)
	if c.Skip != "" {
		return c, nil
	}
	name := ConversationName("chat", c.Title, c.ID)
	entries, current, hasCurrent := openWebUIEntries(chat)
	var warns []Warning
	if len(entries) == 0 {
		if misfit := openWebUIMisfit(chat); misfit != "" {
			// Not an empty chat: one whose messages could not be read.
			c.Skip = jsonx.Sprintf("%s could not be read (%s); skipped", name, misfit)
			return c, nil
		}
		warns = append(warns, Warning{SessionID: c.ID, Message: jsonx.Sprintf("%s has no messages; it is an empty session", name)})
	} else {
		warns = openWebUIRecords(&c, entries, name, current, hasCurrent)
	}
	if derived && c.Skip == "" {
		renameDerived(&c, warns, "openwebui-")
	}
	return c, warns
}

// openWebUIHead reads a chat row's id, title and times; chat is the
// row's chat object (the row itself for a bare chat), derived says the id
// is a placeholder. c.Skip says why the row cannot be used.
func openWebUIHead(model *Model, raw jsonx.RawMessage, k int) (c Conversation, chat map[string]jsonx.RawMessage, derived bool) {
	row, err := RawFields(raw)
	if err != nil {
		c.Skip = jsonx.Sprintf("chat %d is not a readable object; skipped", k+1)
		return c, nil, false
	}
	chat = row // a bare chat object
	if cr, ok := row["chat"]; ok {
		if chat, err = RawFields(cr); err != nil {
			c.Skip = jsonx.Sprintf("chat %d has no readable \"chat\" object; skipped", k+1)
			return c, nil, false
		}
	}
	if id, ok := fieldString(row, "id"); ok && id != "" {
		c.ID = id
	} else if id, ok := fieldString(chat, "id"); ok && id != "" {
		c.ID = id
	} else {
		c.ID, derived = hashID("openwebui-", raw), true // a placeholder until renameDerived
	}
	if !model.SessionID(c.ID) {
		c.Skip = jsonx.Sprintf("chat %d has an unusable id %q; skipped", k+1, c.ID)
		c.ID = ""
		return c, nil, false
	}
	if title, ok := fieldString(row, "title"); ok {
		c.Title = title
	} else if title, ok := fieldString(chat, "title"); ok {
		c.Title = title
	}
	c.Created = unixSeconds(row["created_at"])
	if c.Created == 0 {
		c.Created = unixSeconds(chat["timestamp"])
	}
	c.Updated = unixSeconds(row["updated_at"])
	c.ParentSession = openWebUIParentSession(chat)
	return c, chat, derived
}

// openWebUIEntry is one message record of a chat: its key in the history
// map ("#i" for element i of the older list) and its raw object.
type openWebUIEntry struct {
	key string
	raw []byte
}

// openWebUIEntries returns a chat's message records: the history map
// (sorted by key), else the older list; and the history's currentId.
func openWebUIEntries(chat map[string]jsonx.RawMessage) (entries []openWebUIEntry, current string, hasCurrent bool) {
	if h, err := RawFields(chat["history"]); err == nil {
		current, hasCurrent = fieldString(h, "currentId")
		if ms := h["messages"]; len(ms) > 0 && ms[0] == '{' {
			sc := jsonx.Scanner{Data: ms}
			_ = sc.Members(func(key string, v []byte, _ bool) error {
				entries = append(entries, openWebUIEntry{key, v})
				return nil
			})
			sort.SliceStable(entries, func(a, b int) bool { return entries[a].key < entries[b].key })
		}
	}
	if list := chat["messages"]; len(entries) == 0 && len(list) > 0 && list[0] == '[' {
		sc := jsonx.Scanner{Data: list}
		_ = sc.Elements(func(i int, v []byte, _ bool) error {
			entries = append(entries, openWebUIEntry{jsonx.Sprintf("#%d", i), v})
			return nil
		})
	}
	return entries, current, hasCurrent
}

// openWebUIMisfit says what holds a chat's messages in a shape no Open
// WebUI version writes ("its \"history.messages\" is a number, not an
// object"), "" when there is none: absent and null mean no messages.
func openWebUIMisfit(chat map[string]jsonx.RawMessage) string {
	if raw := chat["history"]; len(raw) > 0 && raw[0] != '{' && raw[0] != 'n' {
		return jsonx.Sprintf("its \"history\" is %s, not an object", jsonKind(raw))
	}
	if h, err := RawFields(chat["history"]); err == nil {
		if raw := h["messages"]; len(raw) > 0 && raw[0] != '{' && raw[0] != 'n' {
			return jsonx.Sprintf("its \"history.messages\" is %s, not an object", jsonKind(raw))
		}
	}
	if raw := chat["messages"]; len(raw) > 0 && raw[0] != '[' && raw[0] != 'n' {
		return jsonx.Sprintf("its \"messages\" is %s, not an array", jsonKind(raw))
	}
	return ""
}

// openWebUIRecords turns a chat's message records into c's records and
// current message; name names the chat in the warnings it returns.
func openWebUIRecords(c *Conversation, entries []openWebUIEntry, name, current string, hasCurrent bool) []Warning {
	var warns []Warning
	warn := func(format string, args ...any) {
		warns = append(warns, Warning{SessionID: c.ID, Message: name + ": " + jsonx.Sprintf(format, args...)})
	}
	msgs := make(map[string]*openWebUIMessage, len(entries))
	dropped := map[string]string{}
	for _, e := range entries {
		m, ok := readOpenWebUIMessage(e.raw)
		if !ok {
			warn("message %s is not a readable object; skipped", e.key)
			continue
		}
		id := e.key
		if mid, ok := jsonx.ParseString(m.id); ok && mid != "" && mid != e.key {
			if strings.HasPrefix(e.key, "#") {
				id = mid
			} else {
				warn("message %q carries another id, %q; its key is used", e.key, mid)
			}
		}
		if id == "" || strings.HasPrefix(id, "#") {
			warn("message %q has no id; skipped", e.key)
			continue
		}
		parent := ""
		switch {
		case m.parentID == nil:
			warn("message %q has no parentId; it becomes a root", id)
		case string(m.parentID) == "null":
		default:
			p, ok := jsonx.ParseString(m.parentID)
			if !ok {
				warn("message %q has a parentId that is not a string; it becomes a root", id)
			}
			parent = p
		}
		if m.role == "" {
			warn("message %q has %s; skipped (its replies attach to its parent)", id, lacking(m.roleRaw, "role"))
			dropped[id] = parent
			continue
		}
		msgs[id] = m
		rec := Record{ID: id, ParentID: parent, Message: openWebUIMessageJSON(m), Time: unixSeconds(m.timestamp), Source: compactSource(e.raw)}
		rec.noteTime("timestamp", m.timestamp)
		c.Records = append(c.Records, rec)
	}
	// childrenIds must agree with parentId; where they do not, parentId wins.
	for _, rec := range c.Records {
		m := msgs[rec.ID]
		for _, child := range m.childrenIDs {
			cm, ok := msgs[child]
			if !ok {
				if _, gone := dropped[child]; !gone {
					warn("message %q lists child %q, which is not in the chat; ignored", rec.ID, child)
				}
				continue
			}
			cp, _ := jsonx.ParseString(cm.parentID)
			if cp != rec.ID {
				if cp == "" {
					warn("message %q lists child %q, whose parentId is null; parentId wins: the child stays a root", rec.ID, child)
				} else {
					warn("message %q lists child %q, whose parentId is %q; parentId wins", rec.ID, child, cp)
				}
			}
		}
	}
	Relink(c.Records, dropped)
	if len(c.Records) == 0 {
		c.Skip = jsonx.Sprintf("%s has no usable messages; skipped", name)
		return warns
	}
	if hasCurrent && current != "" {
		for steps := 0; steps <= len(dropped); steps++ {
			up, ok := dropped[current]
			if !ok || up == "" {
				break
			}
			current = up
		}
		c.Current = current
	}
	return warns
}

// openWebUIMessageJSON returns {"role","content"}: the content as Open
// WebUI stores it (a string), an array kept as it is, anything else "";
// a string's reasoning and tool-call <details> blocks become thinking,
// tool_use and tool_result parts (openWebUIBlocks). The whole record,
// with its output[] items, stays in the node's source.
func openWebUIMessageJSON(m *openWebUIMessage) jsonx.RawMessage {
	b := []byte(`{"role":`)
	b = jsonx.AppendString(b, m.role)
	b = append(b, `,"content":`...)
	content := m.content
	switch {
	case len(content) > 0 && content[0] == '"':
		if parts, ok := openWebUIBlocks(content, m.output); ok {
			return append(append(b, parts...), '}')
		}
		b = append(b, content...)
	case len(content) > 0 && content[0] == '[' && contentPartsOK(content):
		b = append(b, jsonx.CompactBytes(content)...)
	default:
		b = append(b, `""`...)
	}
	return append(b, '}')
}

// contentPartsOK reports whether raw is an array of objects (what a
// message's content array must be).
func contentPartsOK(raw jsonx.RawMessage) bool {
	objects := true
	return jsonx.ReadArray(raw, func(_ int, p []byte) {
		objects = objects && len(p) > 0 && p[0] == '{'
	}) && objects
}

// unquoteReasoning removes the "> " Open WebUI puts before each line of
// reasoning it shows, and the blank lines around it.
func unquoteReasoning(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		if l == ">" {
			lines[i] = ""
		} else {
			lines[i] = strings.TrimPrefix(l, "> ")
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// htmlUnescape decodes the entities Open WebUI's html.escape writes
// (&amp; &lt; &gt; &quot; &#x27;) and numeric ones; others stay as they
// are (the standard library's html package brings a 2,000-entity table
// into the wasm for names no exporter writes).
func htmlUnescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := strings.IndexByte(s, ';')
		if j < 0 || j > 10 {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		name := s[1:j]
		r := rune(-1)
		switch name {
		case "amp":
			r = '&'
		case "lt":
			r = '<'
		case "gt":
			r = '>'
		case "quot":
			r = '"'
		case "apos":
			r = '\''
		default:
			if len(name) > 1 && name[0] == '#' {
				base, digits := 10, name[1:]
				if digits[0] == 'x' || digits[0] == 'X' {
					base, digits = 16, digits[1:]
				}
				if v, err := strconv.ParseUint(digits, base, 32); err == nil && v > 0 && v <= 0x10FFFF && (v < 0xD800 || v > 0xDFFF) {
					r = rune(v)
				}
			}
		}
		if r < 0 {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		b.WriteRune(r)
		s = s[j+1:]
	}
	return b.String()
}
