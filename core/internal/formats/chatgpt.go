package formats

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// ChatGPT's conversations.json: an array of conversations (or one
// conversation object), each with a "mapping" from node id to
// {id, message|null, parent, children} and a "current_node". Field names
// as in the exports ChatGPT produces (see the fixtures from LibreChat's and
// echomine's test suites).

type chatgptConversation struct {
	Title          *string                     `json:"title"`
	CreateTime     *float64                    `json:"create_time"`
	UpdateTime     *float64                    `json:"update_time"`
	Mapping        map[string]jsonx.RawMessage `json:"mapping"`
	CurrentNode    *string                     `json:"current_node"`
	ConversationID *string                     `json:"conversation_id"`
	ID             *string                     `json:"id"`
}

type chatgptNode struct {
	ID       string           `json:"id"`
	Message  jsonx.RawMessage `json:"message"`
	Parent   *string          `json:"parent"`
	Children []string         `json:"children"`
}

type chatgptMessage struct {
	Author *struct {
		Role string `json:"role"`
		Name string `json:"name"`
	} `json:"author"`
	CreateTime *float64         `json:"create_time"`
	Content    jsonx.RawMessage `json:"content"`
}

type chatgptContent struct {
	ContentType      string             `json:"content_type"`
	Parts            []jsonx.RawMessage `json:"parts"`
	Text             *string            `json:"text"`
	Result           *string            `json:"result"`
	Content          *string            `json:"content"`
	UserProfile      *string            `json:"user_profile"`
	UserInstructions *string            `json:"user_instructions"`
	Thoughts         []struct {
		Summary string `json:"summary"`
		Content string `json:"content"`
	} `json:"thoughts"`
}

// convertChatGPTConversation converts conversation k of an export, raw;
// valid says raw is valid JSON without insignificant white space (see
// readChatGPTFast). It returns the conversation, its warnings and, when it
// cannot be imported, the reason.
func convertChatGPTConversation(model *Model, raw jsonx.RawMessage, k int, valid bool) (Conversation, []Warning, string) {
	if len(raw) == 0 || raw[0] != '{' {
		return Conversation{}, nil, jsonx.Sprintf("conversation %d is not an object; skipped", k)
	}
	fast, isFast := readChatGPTFast(raw, valid)
	if !isFast {
		fast.release()
		return decodeChatGPTConversation(model, raw, k)
	}
	defer fast.release()
	return chatgptConvert(model, fast, true, k)
}

// decodeChatGPTConversation is convertChatGPTConversation by the decoding
// path alone, for a conversation the one-pass reader leaves to it (and
// for the tests that hold both to the same conversation).
func decodeChatGPTConversation(model *Model, raw jsonx.RawMessage, k int) (Conversation, []Warning, string) {
	if len(raw) == 0 || raw[0] != '{' {
		return Conversation{}, nil, jsonx.Sprintf("conversation %d is not an object; skipped", k)
	}
	f := newChatGPTReader()
	defer f.release()
	if err := jsonx.Unmarshal(raw, &f.conv); err != nil {
		return Conversation{}, nil, jsonx.Sprintf("conversation %d could not be read: %s; skipped", k, jsonx.ErrorText(err))
	}
	return chatgptConvert(model, f, false, k)
}

// chatgptConvert converts conversation k as read: by the one-pass reader
// (isFast: f is all it read) or decoded (f.conv, with its Mapping). It
// returns what convertChatGPTConversation returns.
func chatgptConvert(model *Model, f *chatgptFast, isFast bool, k int) (Conversation, []Warning, string) {
	var c Conversation
	fast, conv := f, &f.conv
	switch {
	case conv.ConversationID != nil && *conv.ConversationID != "":
		c.ID = *conv.ConversationID
	case conv.ID != nil && *conv.ID != "":
		c.ID = *conv.ID
	}
	if c.ID != "" && !model.SessionID(c.ID) {
		return c, nil, jsonx.Sprintf("conversation %d has an unusable id %q; skipped", k, c.ID)
	}
	if conv.Title != nil {
		c.Title = *conv.Title
	}
	name := jsonx.Sprintf("conversation %d", k)
	if c.ID != "" {
		name = jsonx.Sprintf("conversation %q", c.ID)
	}
	if c.Title != "" {
		name += jsonx.Sprintf(" (%s)", c.Title)
	}
	if isFast && !fast.hasMapping || !isFast && conv.Mapping == nil {
		return c, nil, jsonx.Sprintf("%s has no mapping; skipped", name)
	}
	if conv.CreateTime != nil {
		c.Created = *conv.CreateTime
	}
	if conv.UpdateTime != nil {
		c.Updated = *conv.UpdateTime
	}
	if c.ID == "" && isFast {
		c.ID = chatgptDerivedID(conv.CreateTime, fast.roots(fast.sorted()))
	} else if c.ID == "" {
		c.ID = chatgptDerivedID(conv.CreateTime, entries2roots(conv.Mapping))
	}
	w := warnings{session: c.ID}
	warn := w.warn

	var entries map[string]*chatgptEntry
	if isFast {
		entries = fast.entries
		for _, key := range fast.sorted() {
			if e := entries[key]; e.reason != "" {
				warn("%s: message %q %s; skipped", name, key, e.reason)
				c.Unusable++
			}
		}
	} else {
		entries = chatgptEntries(conv.Mapping, name, &c, warn)
	}
	keys, bloom := fast.keys, &fast.listed
	if !isFast {
		keys, bloom = slices.Sorted(maps.Keys(entries)), nil
	}
	chatgptRecords(entries, keys, bloom, name, &c, warn)
	if len(c.Records) == 0 {
		if c.Unusable > 0 {
			return c, w.warns, jsonx.Sprintf("%s: none of its %d messages could be used; skipped", name, c.Unusable)
		}
		warn("%s has no messages; it is an empty session", name)
		return c, w.warns, ""
	}
	if conv.CurrentNode != nil && *conv.CurrentNode != "" {
		cur := *conv.CurrentNode
		// A current node with no message stands for its nearest kept ancestor.
		for steps := 0; steps <= len(entries); steps++ {
			e, ok := entries[cur]
			if !ok || e.keep || e.node.Parent == nil {
				break
			}
			cur = *e.node.Parent
		}
		c.Current = cur
	}
	return c, w.warns, ""
}

// chatgptEntry is one mapping entry as read: its node, source, message
// and time; keep says it has a usable message, reason why its message
// cannot be used (the one-pass reader's, which warns later), noParentKey
// that its source has no "parent" key.
type chatgptEntry struct {
	node        chatgptNode
	source      jsonx.RawMessage
	msg         jsonx.RawMessage
	role        string // see Record.Role
	time        float64
	keep        bool
	reason      string
	noParentKey bool
	// The one-pass reader's: parent is what node.Parent points to, and
	// kids (when kidsRead) the children array's bytes, read for the few
	// conversations that ask (node.Children is then nil).
	parent    string
	kids      []byte
	kidsRead  bool
	noUEscape bool // see Record.NoUEscape
}

// eachChild calls fn with the id of each child e lists, in order; id is
// only valid during the call.
func (e *chatgptEntry) eachChild(fn func(id []byte)) {
	if !e.kidsRead {
		for _, c := range e.node.Children {
			fn([]byte(c))
		}
		return
	}
	if len(e.kids) == 0 {
		return
	}
	// The array was checked when it was read (strings only): each token
	// is found by its quotes, and only one with an escape is decoded.
	b := e.kids
	for i := 0; i < len(b); {
		if b[i] != '"' {
			i++ // [ ] , or white space
			continue
		}
		j := jsonx.PlainRun(b, i+1)
		if j < len(b) && b[j] == '"' {
			fn(b[i+1 : j])
			i = j + 1
			continue
		}
		sc := jsonx.Scanner{Data: b, Pos: i}
		tok, _, _ := sc.Value()
		s, _ := jsonx.ParseString(tok)
		fn([]byte(s))
		i = sc.Pos
	}
}

// chatgptEntries reads every mapping entry, warning (through warn, naming
// the conversation name) of those that cannot be used; entries with no
// message are kept unkept, to hand their children to their own parent.
func chatgptEntries(mapping map[string]jsonx.RawMessage, name string, c *Conversation, warn func(string, ...any)) map[string]*chatgptEntry {
	entries := make(map[string]*chatgptEntry, len(mapping))
	for _, key := range slices.Sorted(maps.Keys(mapping)) {
		rawNode := mapping[key]
		e := &chatgptEntry{}
		if err := jsonx.Unmarshal(rawNode, &e.node); err != nil {
			warn("%s: mapping entry %q could not be read (%s); skipped", name, key, jsonx.ErrorText(err))
			c.Unusable++
			continue
		}
		e.node.ID = key
		src, err := jsonx.CompactRaw(rawNode)
		if err != nil {
			continue
		}
		e.source = src
		f, ferr := RawFields(bytes.TrimSpace(src))
		e.noParentKey = ferr == nil && f["parent"] == nil
		if len(e.node.Message) > 0 && !bytes.Equal(e.node.Message, []byte("null")) {
			msg, t, role, err := chatgptMessageJSON(e.node.Message)
			if err != "" {
				warn("%s: message %q %s; skipped", name, key, err)
				c.Unusable++
			} else {
				e.msg, e.time, e.role, e.keep = msg, t, role, true
			}
		}
		entries[key] = e
	}
	return entries
}

// chatgptRecords makes c's records of the kept entries, in key order
// (keys: the entries' keys, sorted; time decides the tree's order later).
// A record's parent is its nearest kept ancestor; an entry without a
// "parent" key takes as parent the entry whose children list names it
// (the first such in key order), a link the importer infers (so it is the
// first cut on a cycle), else it becomes a root.
func chatgptRecords(entries map[string]*chatgptEntry, keys []string, bloom *chatgptBloom, name string, c *Conversation, warn func(string, ...any)) {
	for _, key := range keys {
		e := entries[key]
		if !e.keep {
			continue
		}
		e.eachChild(func(child []byte) {
			if _, ok := entries[string(child)]; !ok {
				warn("%s: message %q lists child %q, which is not in the mapping; ignored", name, key, string(child))
			}
		})
	}
	lists := chatgptListedBy{entries: entries, keys: keys, bloom: bloom}
	// effectiveParent climbs over skipped entries (a loop, with a step
	// bound so a cycle of skipped entries cannot hang it).
	effectiveParent := func(e *chatgptEntry) string {
		for steps := 0; steps <= len(entries); steps++ {
			parent := e.node.Parent
			if parent == nil {
				by, ok := lists.by(e.node.ID)
				if !ok {
					return ""
				}
				parent = &by
			}
			p, ok := entries[*parent]
			if !ok {
				return *parent // dangling: buildImported warns
			}
			if p.keep {
				return *parent
			}
			e = p
		}
		return ""
	}
	c.Records = make([]Record, 0, len(keys))
	for _, key := range keys {
		e := entries[key]
		if !e.keep {
			continue
		}
		rec := Record{ID: key, ParentID: effectiveParent(e), Message: e.msg, Written: true, Role: e.role, Time: e.time, Source: e.source, NoUEscape: e.noUEscape}
		if e.noParentKey {
			if rec.ParentID == "" {
				warn("%s: message %q has no parent key; it becomes a root", name, key)
			} else {
				by, _ := lists.by(key)
				warn("%s: message %q has no parent key; its parent is %q, whose children list names it", name, key, by)
				rec.Inferred = true
			}
		}
		c.Records = append(c.Records, rec)
	}
}

// chatgptListedBy finds the entry whose children list names an entry: the
// first in key order. Most conversations ask once (for the root, whose
// parent is null), so the first few questions scan the lists and only a
// conversation that asks more builds a map (building it for each
// conversation was a sixth of what a 20 MB import allocated).
type chatgptListedBy struct {
	entries map[string]*chatgptEntry
	keys    []string      // sorted
	bloom   *chatgptBloom // every child listed, when the one-pass reader read them (else nil)
	asked   int
	byChild map[string]string
}

// chatgptBloom is a Bloom filter (one hash, 1,024 bits) of the ids the
// children lists name: the root a conversation asks about is in no list,
// and the filter says so without reading them all.
type chatgptBloom [16]uint64

// bloomBit returns the word and bit of id (FNV-1a).
func bloomBit[T string | []byte](id T) (int, uint64) {
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h = (h ^ uint64(id[i])) * 1099511628211
	}
	return int(h>>6) & 15, 1 << (h & 63)
}

func (b *chatgptBloom) add(id []byte) {
	w, bit := bloomBit(id)
	b[w] |= bit
}

func (b *chatgptBloom) mayHave(id string) bool {
	w, bit := bloomBit(id)
	return b[w]&bit != 0
}

// chatgptListScans is how many questions chatgptListedBy answers by
// scanning before it builds its map.
const chatgptListScans = 4

func (l *chatgptListedBy) by(child string) (string, bool) {
	if l.bloom != nil && !l.bloom.mayHave(child) {
		return "", false
	}
	if l.byChild == nil && l.asked < chatgptListScans {
		l.asked++
		if _, ok := l.entries[child]; !ok {
			return "", false
		}
		for _, key := range l.keys {
			found := false
			l.entries[key].eachChild(func(c []byte) { found = found || string(c) == child })
			if found {
				return key, true
			}
		}
		return "", false
	}
	if l.byChild == nil {
		l.byChild = map[string]string{}
		for _, key := range l.keys {
			l.entries[key].eachChild(func(c []byte) {
				if _, ok := l.entries[string(c)]; !ok {
					return
				}
				if _, seen := l.byChild[string(c)]; !seen {
					l.byChild[string(c)] = key
				}
			})
		}
	}
	by, ok := l.byChild[child]
	return by, ok
}

// chatgptMessageJSON turns a ChatGPT message record into a standard
// {"role","content"[,"name"]} message. Text content becomes a string;
// multimodal content an array of parts: strings become
// {"type":"text","text":…}, objects (images, audio) are kept whole with a
// "type" taken from their content_type; custom instructions
// (user_editable_context) become a system message of their profile and
// instructions texts. It returns the message, its time, its role when
// its content is a string (see Record.Role) and a reason when the record
// cannot be used.
func chatgptMessageJSON(raw jsonx.RawMessage) (_ jsonx.RawMessage, _ float64, strRole, reason string) {
	var m chatgptMessage
	if err := jsonx.Unmarshal(raw, &m); err != nil {
		return nil, 0, "", "could not be read: " + jsonx.ErrorText(err)
	}
	if m.Author == nil || m.Author.Role == "" {
		return nil, 0, "", "has no author role"
	}
	var t float64
	if m.CreateTime != nil {
		t = *m.CreateTime
	}
	role := m.Author.Role
	var probe struct {
		ContentType string `json:"content_type"`
	}
	if len(m.Content) > 0 && m.Content[0] == '{' && jsonx.Unmarshal(m.Content, &probe) == nil && probe.ContentType == "user_editable_context" {
		// Custom instructions: ChatGPT sends them to the model as system
		// context (metadata.is_user_system_message), never as a turn of
		// the user's, though the export's author is "user".
		role = "system"
	}
	b := []byte(`{"role":`)
	b = jsonx.AppendString(b, role)
	b = append(b, `,"content":`...)
	at := len(b)
	b = appendChatGPTContent(b, m.Content)
	if b[at] == '"' {
		strRole = role
	}
	if m.Author.Name != "" && m.Author.Role == "tool" {
		b = append(b, `,"name":`...)
		b = jsonx.AppendString(b, m.Author.Name)
	}
	return append(b, '}'), t, strRole, ""
}

func appendChatGPTContent(b []byte, raw jsonx.RawMessage) []byte {
	var c chatgptContent
	if len(raw) == 0 || raw[0] != '{' || jsonx.Unmarshal(raw, &c) != nil {
		return append(b, `""`...)
	}
	if c.Parts != nil {
		allStrings := true
		for _, p := range c.Parts {
			if len(p) == 0 || p[0] != '"' {
				allStrings = false
			}
		}
		if allStrings {
			texts := make([]string, 0, len(c.Parts))
			for _, p := range c.Parts {
				var s string
				_ = jsonx.Unmarshal(p, &s)
				texts = append(texts, s)
			}
			return jsonx.AppendString(b, strings.Join(texts, "\n"))
		}
		b = append(b, '[')
		n := 0
		for _, p := range c.Parts {
			p = bytes.TrimSpace(p)
			switch {
			case len(p) > 0 && p[0] == '"':
				var s string
				_ = jsonx.Unmarshal(p, &s)
				if s == "" {
					continue
				}
				if n > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"type":"text","text":`...)
				b = jsonx.AppendString(b, s)
				b = append(b, '}')
			case len(p) > 0 && p[0] == '{':
				if n > 0 {
					b = append(b, ',')
				}
				b = appendTypedPart(b, p)
			default:
				continue
			}
			n++
		}
		return append(b, ']')
	}
	var pieces []string
	add := func(s *string) {
		if s != nil && *s != "" {
			pieces = append(pieces, *s)
		}
	}
	add(c.Text)
	add(c.Result)
	add(c.Content)
	add(c.UserProfile)
	add(c.UserInstructions)
	for _, th := range c.Thoughts {
		if th.Content != "" {
			pieces = append(pieces, th.Content)
		} else if th.Summary != "" {
			pieces = append(pieces, th.Summary)
		}
	}
	return jsonx.AppendString(b, strings.Join(pieces, "\n\n"))
}

// appendTypedPart appends a ChatGPT content part object, compacted, with a
// leading "type" field taken from its "content_type" when it has no "type".
func appendTypedPart(b []byte, p jsonx.RawMessage) []byte {
	compact, err := jsonx.CompactRaw(p)
	if err != nil {
		return append(b, `{"type":"unknown"}`...)
	}
	var probe struct {
		Type        *string `json:"type"`
		ContentType string  `json:"content_type"`
	}
	_ = jsonx.Unmarshal(compact, &probe)
	if probe.Type != nil {
		return append(b, compact...)
	}
	typ := probe.ContentType
	if typ == "" {
		typ = "unknown"
	}
	b = append(b, `{"type":`...)
	b = jsonx.AppendString(b, typ)
	if len(compact) > 2 {
		b = append(b, ',')
	}
	return append(b, compact[1:]...)
}

// entries2roots returns the sorted keys of the mapping's roots: entries
// whose parent is null, absent or not in the mapping.
func entries2roots(mapping map[string]jsonx.RawMessage) []string {
	var roots []string
	for _, key := range slices.Sorted(maps.Keys(mapping)) {
		f, err := RawFields(bytes.TrimSpace(mapping[key]))
		if err != nil {
			continue
		}
		p, ok := jsonx.ParseString(f["parent"])
		if _, in := mapping[p]; !ok || !in {
			roots = append(roots, key)
		}
	}
	return roots
}

// chatgptDerivedID names a conversation that carries no id: "chatgpt-"
// and a hash of its creation time and the ids of its roots, which a
// conversation keeps as it grows, so importing the grown file finds the
// session of the first import.
func chatgptDerivedID(created *float64, roots []string) string {
	key := []byte("chatgpt")
	if created != nil {
		key = strconv.AppendFloat(append(key, 0), *created, 'g', -1, 64)
	}
	for _, r := range roots {
		key = append(append(key, 0), r...)
	}
	return hashID("chatgpt-", key)
}
