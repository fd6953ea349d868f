package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Open WebUI exports: "Export All Chats" writes an array of chat rows
//
//	{"id","title","chat":{"title","history":{"currentId","messages":{ID:{…}}},"messages":[…]},"created_at","updated_at",…}
//
// and a single chat downloads as the same row (or a one-row array). The
// tree is chat.history.messages: message id → {id, parentId, childrenIds,
// role, content, timestamp, model, output, …}; chat.history.currentId is
// the message the chat shows. Older rows hold only chat.messages, a list
// with the same message objects. Field names as in Open WebUI's
// src/lib/components/chat/Chat.svelte and LibreChat's importer test data.

// detectOpenWebUI reports whether the first record is an Open WebUI chat
// row, or a bare chat object with a history.
func detectOpenWebUI(sn *sniff) bool {
	if sn.shape == 'l' {
		return false
	}
	if raw, ok := sn.keys["chat"]; ok && len(raw) > 0 && raw[0] == '{' {
		var probe struct {
			History  json.RawMessage `json:"history"`
			Messages json.RawMessage `json:"messages"`
		}
		return json.Unmarshal(raw, &probe) == nil && (probe.History != nil || probe.Messages != nil)
	}
	raw, ok := sn.keys["history"]
	return ok && len(raw) > 0 && raw[0] == '{'
}

type openWebUIRow struct {
	ID        *string         `json:"id"`
	Title     *string         `json:"title"`
	Chat      json.RawMessage `json:"chat"`
	History   json.RawMessage `json:"history"`
	Messages  json.RawMessage `json:"messages"`
	CreatedAt json.RawMessage `json:"created_at"`
	UpdatedAt json.RawMessage `json:"updated_at"`
	Timestamp json.RawMessage `json:"timestamp"`
}

type openWebUIChat struct {
	ID      *string `json:"id"`
	Title   *string `json:"title"`
	History *struct {
		CurrentID *string                    `json:"currentId"`
		Messages  map[string]json.RawMessage `json:"messages"`
	} `json:"history"`
	Messages  []json.RawMessage `json:"messages"`
	Timestamp json.RawMessage   `json:"timestamp"`
}

type openWebUIMessage struct {
	ID          *string         `json:"id"`
	ParentID    json.RawMessage `json:"parentId"`
	ChildrenIDs []string        `json:"childrenIds"`
	Role        string          `json:"role"`
	Content     json.RawMessage `json:"content"`
	Timestamp   json.RawMessage `json:"timestamp"`
}

// convertOpenWebUIChat converts one chat row (element k of the export).
func convertOpenWebUIChat(raw json.RawMessage, k int) (importConv, []ImportWarning) {
	var c importConv
	if len(raw) == 0 || raw[0] != '{' {
		c.Skip = invalidf("chat %d is not an object; skipped", k)
		return c, nil
	}
	var row openWebUIRow
	if err := json.Unmarshal(raw, &row); err != nil {
		c.Skip = invalidf("chat %d could not be read: %s; skipped", k, jsonErrorText(err))
		return c, nil
	}
	chatRaw := row.Chat
	if chatRaw == nil {
		chatRaw = raw // a bare chat object
	}
	var chat openWebUIChat
	if len(chatRaw) == 0 || chatRaw[0] != '{' || json.Unmarshal(chatRaw, &chat) != nil {
		c.Skip = invalidf("chat %d has no readable \"chat\" object; skipped", k)
		return c, nil
	}
	switch {
	case row.ID != nil && *row.ID != "":
		c.ID = *row.ID
	case chat.ID != nil && *chat.ID != "":
		c.ID = *chat.ID
	default:
		c.ID = hashID("openwebui-", raw)
	}
	if !validSessionID(c.ID) {
		c.Skip = invalidf("chat %d has an unusable id %q; skipped", k, c.ID)
		c.ID = ""
		return c, nil
	}
	switch {
	case row.Title != nil:
		c.Title = *row.Title
	case chat.Title != nil:
		c.Title = *chat.Title
	}
	c.Created = unixSeconds(row.CreatedAt)
	if c.Created == 0 {
		c.Created = unixSeconds(chat.Timestamp)
	}
	c.Updated = unixSeconds(row.UpdatedAt)
	name := fmt.Sprintf("chat %q", c.ID)
	if c.Title != "" {
		name += fmt.Sprintf(" (%s)", c.Title)
	}
	var warns []ImportWarning
	warn := func(format string, args ...any) {
		warns = append(warns, ImportWarning{SessionID: c.ID, Message: name + ": " + fmt.Sprintf(format, args...)})
	}

	// The messages: the history map, else the older list.
	type entry struct {
		key string
		raw json.RawMessage
	}
	var entries []entry
	if chat.History != nil && len(chat.History.Messages) > 0 {
		for _, key := range sortedKeys(chat.History.Messages) {
			entries = append(entries, entry{key, chat.History.Messages[key]})
		}
	} else {
		for i, m := range chat.Messages {
			entries = append(entries, entry{fmt.Sprintf("#%d", i), m})
		}
	}
	if len(entries) == 0 {
		c.Skip = invalidf("%s has no messages; skipped", name)
		return c, warns
	}
	msgs := make(map[string]*openWebUIMessage, len(entries))
	dropped := map[string]string{}
	for _, e := range entries {
		var m openWebUIMessage
		if len(e.raw) == 0 || e.raw[0] != '{' || json.Unmarshal(e.raw, &m) != nil {
			warn("message %s is not a readable object; skipped", e.key)
			continue
		}
		id := e.key
		if m.ID != nil && *m.ID != "" && *m.ID != e.key {
			if strings.HasPrefix(e.key, "#") {
				id = *m.ID
			} else {
				warn("message %q carries the id %q; the key %q is used", e.key, *m.ID, e.key)
			}
		}
		if id == "" || strings.HasPrefix(id, "#") {
			warn("message %q has no id; skipped", e.key)
			continue
		}
		parent := ""
		switch {
		case m.ParentID == nil:
			warn("message %q has no parentId; it becomes a root", id)
		case bytes.Equal(m.ParentID, []byte("null")):
		default:
			if json.Unmarshal(m.ParentID, &parent) != nil {
				warn("message %q has a parentId that is not a string; it becomes a root", id)
			}
		}
		if m.Role == "" {
			warn("message %q has no role; skipped (its replies attach to its parent)", id)
			dropped[id] = parent
			continue
		}
		msgs[id] = &m
		src, _ := compactRaw(e.raw)
		c.Records = append(c.Records, importRecord{
			ID: id, ParentID: parent, Message: openWebUIMessageJSON(m), Time: unixSeconds(m.Timestamp), Source: src,
		})
	}
	// childrenIds must agree with parentId; where they do not, parentId wins.
	for _, rec := range c.Records {
		m := msgs[rec.ID]
		for _, child := range m.ChildrenIDs {
			cm, ok := msgs[child]
			if !ok {
				if _, gone := dropped[child]; !gone {
					warn("message %q lists child %q, which is not in the chat; ignored", rec.ID, child)
				}
				continue
			}
			var cp string
			if cm.ParentID != nil {
				_ = json.Unmarshal(cm.ParentID, &cp)
			}
			if cp != rec.ID {
				if cp == "" {
					warn("message %q lists child %q, whose parentId is null; parentId wins: %q stays a root", rec.ID, child, child)
				} else {
					warn("message %q lists child %q, whose parentId is %q; parentId wins", rec.ID, child, cp)
				}
			}
		}
	}
	relink(c.Records, dropped)
	if len(c.Records) == 0 {
		c.Skip = invalidf("%s has no usable messages; skipped", name)
		return c, warns
	}
	if chat.History != nil && chat.History.CurrentID != nil && *chat.History.CurrentID != "" {
		cur := *chat.History.CurrentID
		for steps := 0; steps <= len(dropped); steps++ {
			up, ok := dropped[cur]
			if !ok || up == "" {
				break
			}
			cur = up
		}
		c.Current = cur
	}
	return c, warns
}

// openWebUIMessageJSON returns {"role","content"}: the content as Open
// WebUI stores it (a string in which reasoning and tool calls are
// <details> blocks), an array kept as it is, anything else "". The whole
// record, with its output[] items, stays in the node's source.
func openWebUIMessageJSON(m openWebUIMessage) json.RawMessage {
	b := []byte(`{"role":`)
	b = appendString(b, m.Role)
	b = append(b, `,"content":`...)
	content := bytes.TrimSpace(m.Content)
	switch {
	case len(content) > 0 && content[0] == '"':
		c, err := compactRaw(content)
		if err != nil {
			c = []byte(`""`)
		}
		b = append(b, c...)
	case len(content) > 0 && content[0] == '[' && contentPartsOK(content):
		c, _ := compactRaw(content)
		b = append(b, c...)
	default:
		b = append(b, `""`...)
	}
	return append(b, '}')
}

// contentPartsOK reports whether raw is an array of objects (what a
// message's content array must be).
func contentPartsOK(raw json.RawMessage) bool {
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) != nil {
		return false
	}
	for _, p := range parts {
		if len(p) == 0 || p[0] != '{' {
			return false
		}
	}
	return true
}
