package formats

import (
	"bytes"
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// LobeChat exports (lobehub/lobe-chat, "export" in settings): one object
// {"exportType", "state", "version"}. From version 2 on (src/migrations/
// FromV1ToV2/index.ts) state holds flat arrays "sessions" (agents:
// {id, config:{systemRole, model, …}, meta:{title, …}, …}), "topics"
// ({id, title, sessionId, createdAt, …}) and "messages" ({id, role,
// content, sessionId, topicId?, parentId?, createdAt, tools?,
// tool_call_id?, plugin?, …}); version 1 nests them: state.sessions is an
// object keyed by session id whose values hold "chats" and "topics"
// objects keyed by id, with createAt/updateAt. Version 1 is lifted into the
// flat shape as MigrationV1ToV2 does it (messages and topics take their
// session's id; createAt → createdAt), so both versions import the same.
//
// A conversation is a (session, topic) pair: the messages of a session
// without a topic are one conversation (id: the session's), each topic's
// another (id: the topic's). parentId links a reply to its message; a
// message with several children is a fork (branches); a parentId that
// names no message of the conversation is warned about and the message
// attached to the root. A session's config.systemRole, when set, is a
// system message at the root. Messages keep their role and content; an
// assistant's tools become OpenAI tool_calls, a "function" message (version
// 1 plugins) a "tool" message; every message's record stays its source.
// The title is the topic's, else the agent's, else the first user prompt;
// the project the agent's title ("Inbox" for the default session).

// detectLobeChat reports whether the data is a LobeChat export object.
func detectLobeChat(sn *Sniff) bool {
	st := sn.Keys["state"]
	return sn.Shape == '{' && sn.has("exportType", "state", "version") && len(st) > 0 && st[0] == '{'
}

// lobeState reads state (either version) into sessions by id, topics and
// messages.
func lobeState(state jsonx.RawMessage) (map[string]lobeSession, []lobeTopic, []lobeMessage, error) {
	f, err := RawFields(bytes.TrimSpace(state))
	if err != nil {
		return nil, nil, nil, jsonx.TextError("lobechat import: \"state\" is not an object")
	}
	sessions := map[string]lobeSession{}
	var topics []lobeTopic
	var rawMsgs []jsonx.RawMessage
	ss := bytes.TrimSpace(f["sessions"])
	if len(ss) > 0 && ss[0] == '{' { // version 1: nested, keyed by id
		var nested map[string]jsonx.RawMessage
		if !jsonx.ReadRawMap(ss, &nested) {
			return nil, nil, nil, jsonx.TextError("lobechat import: \"state.sessions\" is not readable: %s", JSONFault(ss))
		}
		for _, key := range sortedKeys(nested) {
			var s lobeSession
			s.read(nested[key])
			if s.ID == "" {
				s.ID = key
			}
			sessions[s.ID] = s
			sf, _ := RawFields(bytes.TrimSpace(nested[key]))
			var chats, tops map[string]jsonx.RawMessage
			_ = jsonx.ReadRawMap(sf["chats"], &chats)
			_ = jsonx.ReadRawMap(sf["topics"], &tops)
			for _, k := range sortedKeys(chats) {
				rawMsgs = append(rawMsgs, lobeWithSession(chats[k], s.ID))
			}
			for _, k := range sortedKeys(tops) {
				var t lobeTopic
				t.read(tops[k])
				t.SessionID = s.ID
				topics = append(topics, t)
			}
		}
	} else {
		jsonx.ReadArray(ss, func(_ int, v []byte) {
			var s lobeSession
			s.read(v)
			sessions[s.ID] = s
		})
		jsonx.ReadArray(f["topics"], func(_ int, v []byte) {
			var t lobeTopic
			t.read(v)
			topics = append(topics, t)
		})
		_ = jsonx.ReadRaws(f["messages"], &rawMsgs)
	}
	msgs := make([]lobeMessage, 0, len(rawMsgs))
	for _, raw := range rawMsgs {
		var m lobeMessage
		m.read(raw)
		m.raw = compactSource(bytes.TrimSpace(raw))
		m.time = unixSeconds(m.CreatedAt)
		if m.time == 0 {
			m.time = unixSeconds(m.CreateAt)
		}
		msgs = append(msgs, m)
	}
	return sessions, topics, msgs, nil
}

// lobeWithSession returns a version 1 chat with its session's id, as
// MigrationV1ToV2 gives it.
func lobeWithSession(raw jsonx.RawMessage, session string) jsonx.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '{' {
		return raw
	}
	out := jsonx.AppendString([]byte(`{"sessionId":`), session)
	if inner := bytes.TrimSpace(raw[1:]); len(inner) > 0 && inner[0] != '}' {
		out = append(out, ',')
	}
	return append(out, raw[1:]...)
}

// convertLobeChat converts a LobeChat export: one conversation per
// (session, topic) pair that has messages.
func convertLobeChat(model *Model, top jsonx.RawMessage) ([]Conversation, []Warning, error) {
	f, err := RawFields(top)
	if err != nil {
		return nil, nil, err
	}
	sessions, topics, msgs, err := lobeState(f["state"])
	if err != nil {
		return nil, nil, err
	}
	topicByID := map[string]lobeTopic{}
	for _, t := range topics {
		topicByID[t.ID] = t
	}
	groups := map[string][]lobeMessage{}
	var order []string
	var warns []Warning
	for i, m := range msgs {
		if m.SessionID == "" {
			m.SessionID = "inbox"
		}
		if m.ID == "" {
			// Tolerance rule 5: an id derived from its place and content,
			// the same for the same export or one that grew.
			m.ID = hashID("lobe-msg-", append([]byte(jsonx.Sprintf("%d\n", i)), m.raw...))
			warns = append(warns, Warning{SessionID: lobeConversationID(m), Message: jsonx.Sprintf("lobechat message %d has no id; it is given %q, derived from its place and content", i, m.ID)})
		}
		key := m.SessionID + "\x00" + m.TopicID
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], m)
	}
	var convs []Conversation
	for _, key := range order {
		group := groups[key]
		c, w := lobeConversation(model, sessions[group[0].SessionID], topicByID[group[0].TopicID], group)
		convs = append(convs, c)
		warns = append(warns, w...)
	}
	if len(convs) == 0 {
		return nil, warns, jsonx.TextError("lobechat import: the export holds no messages")
	}
	return convs, warns, nil
}

// lobeConversationID is the id of the conversation message m belongs to:
// "lobechat-" and its topic's id, else its session's.
func lobeConversationID(m lobeMessage) string {
	if m.TopicID != "" {
		return "lobechat-" + m.TopicID
	}
	return "lobechat-" + m.SessionID
}

// lobeConversation converts one (session, topic) pair's messages.
func lobeConversation(model *Model, s lobeSession, t lobeTopic, msgs []lobeMessage) (Conversation, []Warning) {
	m0 := msgs[0]
	c := Conversation{ID: lobeConversationID(m0), Title: t.Title, Project: s.Title}
	if c.Project == "" && m0.SessionID == "inbox" {
		c.Project = "Inbox"
	}
	if c.Title == "" {
		c.Title = s.Title
	}
	w := warnings{session: c.ID, prefix: ConversationName("session", c.Title, c.ID) + ": "}
	warn := w.warn
	slices.SortStableFunc(msgs, func(a, b lobeMessage) int {
		switch {
		case a.time < b.time:
			return -1
		case a.time > b.time:
			return 1
		}
		return 0
	})
	root := ""
	if s.SystemRole != "" {
		root = c.ID + "-system"
		msg := jsonx.AppendString([]byte(`{"role":"system","content":`), s.SystemRole)
		c.Records = append(c.Records, Record{ID: root, Message: append(msg, '}'), Written: true, Time: msgs[0].time})
	}
	ids := map[string]bool{}
	for _, m := range msgs {
		ids[m.ID] = true
	}
	for _, m := range msgs {
		parent := m.ParentID
		if parent != "" && !ids[parent] {
			warn("message %q replies to %q, which is not in this conversation; it is attached to the root", m.ID, parent)
			parent = ""
		}
		if parent == "" {
			parent = root
		}
		rec := Record{ID: m.ID, ParentID: parent, Time: m.time, Source: m.raw}
		msg, err := lobeMessageJSON(model, m)
		if err != nil {
			warn("message %q is not usable (%s); it is kept as a custom entry that does not reach the model", m.ID, err.Error())
			rec.Kind, rec.Entry = KindCustom, &Entry{CustomType: "lobechat/message", Data: m.raw}
		} else {
			rec.Message, rec.Written = msg, true
			if c.Title == "" && m.Role == "user" {
				c.Title = model.Preview(msg, 60)
			}
		}
		if c.Created == 0 || (m.time > 0 && m.time < c.Created) {
			c.Created = m.time
		}
		c.Records = append(c.Records, rec)
	}
	// The cursor: the newest leaf (the export names no current message).
	parents := map[string]bool{}
	for _, r := range c.Records {
		parents[r.ParentID] = true
	}
	for _, r := range c.Records {
		if !parents[r.ID] {
			c.Current = r.ID // records are in time order: the last leaf is the newest
		}
	}
	return c, w.warns
}

// lobeMessageJSON writes message m in sessiontree's shape and checks it.
func lobeMessageJSON(model *Model, m lobeMessage) (jsonx.RawMessage, error) {
	role := m.Role
	if role == "function" {
		role = "tool" // MigrationV4ToV5 renames it
	}
	msg := append(jsonx.AppendString([]byte(`{"role":`), role), `,"content":`...)
	content := bytes.TrimSpace(m.Content)
	if len(content) == 0 {
		content = []byte(`""`)
	}
	msg = append(msg, compactSource(content)...)
	if role == "assistant" && len(m.Tools) > 0 {
		msg = append(msg, `,"tool_calls":[`...)
		for i, tc := range m.Tools {
			if i > 0 {
				msg = append(msg, ',')
			}
			msg = jsonx.AppendString(append(msg, `{"id":`...), tc.ID)
			msg = jsonx.AppendString(append(msg, `,"type":"function","function":{"name":`...), tc.APIName)
			msg = append(jsonx.AppendString(append(msg, `,"arguments":`...), tc.Arguments), "}}"...)
		}
		msg = append(msg, ']')
	}
	if m.ToolCallID != "" {
		msg = jsonx.AppendString(append(msg, `,"tool_call_id":`...), m.ToolCallID)
	}
	if role == "tool" && m.Name != "" {
		msg = jsonx.AppendString(append(msg, `,"name":`...), m.Name)
	}
	out, _, err := model.Message(append(msg, '}'), "its message")
	return out, err
}
