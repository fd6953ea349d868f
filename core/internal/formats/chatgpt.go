package formats

import (
	"strconv"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// ChatGPT's conversations.json: an array of conversations (or one
// conversation object), each with a "mapping" from node id to
// {id, message|null, parent, children} and a "current_node". Field names
// as in the exports ChatGPT produces (see the fixtures from LibreChat's and
// echomine's test suites). chatgpt_read.go and chatgpt_message.go read a
// conversation; this file makes its records and links.

// convertChatGPTConversation converts conversation k of an export, raw
// (Importer.Item: the top-level object, or an element Scan left, which is
// not an object). It returns the conversation, its warnings and, when it
// cannot be imported, the reason.
func convertChatGPTConversation(model *Model, raw jsonx.RawMessage, k int) (Conversation, []Warning, string) {
	if len(raw) == 0 || raw[0] != '{' {
		return Conversation{}, nil, jsonx.Sprintf("conversation %d is not an object; skipped", k+1)
	}
	f := newChatGPTReader()
	defer f.release()
	sc := jsonx.Scanner{Data: raw}
	err := f.scan(&sc)
	if err == nil {
		if serr := sc.End(); serr != nil {
			err = serr
		}
	}
	if err != nil {
		return Conversation{}, nil, jsonx.Sprintf("conversation %d could not be read: %s; skipped", k+1, err.Error())
	}
	return chatgptConvert(model, f, k)
}

// chatgptConvert converts conversation k as f read it. It returns what
// convertChatGPTConversation returns.
func chatgptConvert(model *Model, f *chatgptReader, k int) (Conversation, []Warning, string) {
	var c Conversation
	conv := &f.conv
	if conv.Wrong != "" {
		return c, nil, jsonx.Sprintf("conversation %d could not be read: %s; skipped", k+1, conv.Wrong)
	}
	switch {
	case conv.ConversationID != nil && *conv.ConversationID != "":
		c.ID = *conv.ConversationID
	case conv.ID != nil && *conv.ID != "":
		c.ID = *conv.ID
	}
	if c.ID != "" && !model.SessionID(c.ID) {
		return c, nil, jsonx.Sprintf("conversation %d has an unusable id %q; skipped", k+1, c.ID)
	}
	if conv.Title != nil {
		c.Title = *conv.Title
	}
	name := jsonx.Sprintf("conversation %d", k+1)
	if c.ID != "" || c.Title != "" {
		name = ConversationName("conversation", c.Title, c.ID)
	}
	if !f.hasMapping {
		return c, nil, jsonx.Sprintf("%s has no messages (its \"mapping\" is missing); skipped", name)
	}
	if conv.CreateTime != nil {
		c.Created = *conv.CreateTime
	}
	if conv.UpdateTime != nil {
		c.Updated = *conv.UpdateTime
	}
	if c.ID == "" {
		c.ID = chatgptDerivedID(conv.CreateTime, f.roots(f.sorted()))
	}
	w := warnings{session: c.ID}
	warn := w.warn
	for _, why := range conv.LeftOut {
		warn("%s: %s; taken as absent", name, why)
	}
	keys := f.prune(name, &c, warn)
	entries := f.entries
	chatgptRecords(entries, keys, &f.listed, name, &c, warn)
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
			if !ok || e.keep || !e.hasParent {
				break
			}
			cur = e.parent
		}
		c.Current = cur
	}
	return c, w.warns, ""
}

// prune warns (through warn, naming the conversation name), in key
// order, of the entries that cannot be used, counting them in
// c.Unusable: a mapping entry that could not be read is then dropped, as
// if it were not in the mapping; an entry whose message cannot be used is
// kept unkept, to hand its children to its own parent. It returns the
// sorted keys of the entries kept.
func (f *chatgptReader) prune(name string, c *Conversation, warn func(string, ...any)) []string {
	keys := f.sorted()
	kept := keys[:0]
	for _, key := range keys {
		e := f.entries[key]
		switch {
		case e.bad != "":
			warn("%s: mapping entry %q could not be read (%s); skipped", name, key, e.bad)
			c.Unusable++
			delete(f.entries, key)
			continue
		case e.reason != "":
			warn("%s: message %q %s; skipped", name, key, e.reason)
			c.Unusable++
		case e.leftOut != "":
			warn("%s: message %q: %s; taken as absent", name, key, e.leftOut)
		}
		kept = append(kept, key)
	}
	clear(keys[len(kept):])
	f.keys = kept
	return kept
}

// chatgptEntry is one mapping entry as read: its id (the key), links,
// source, message and time. object says it is an object (not null); bad,
// why it cannot be read (a link of another type, or not an object; the
// entry is then dropped); keep, that it has a usable message, and reason
// why its message cannot be used; leftOut, a field of its message that
// was left out (kept: warned of); noParentKey, that its source has no
// "parent" key.
type chatgptEntry struct {
	id          string
	hasParent   bool   // parent holds the parent's id (not null)
	parent      string // a parent read before as a key shares its string
	source      jsonx.RawMessage
	msg         jsonx.RawMessage
	role        string // see Record.Role
	time        float64
	object      bool
	bad         string
	keep        bool
	reason      string
	leftOut     string // a field the message can do without (create_time, author.name), of another type: left out, the message kept
	noParentKey bool
	// kids is the children array's bytes (nil when absent or null);
	// kidsPlain says its ids are all strings without escapes, valid
	// UTF-8.
	kids      []byte
	kidsPlain bool
	noUEscape bool // see Record.NoUEscape
}

// eachChild calls fn with the id of each child e lists, in order; id is
// only valid during the call.
func (e *chatgptEntry) eachChild(fn func(id []byte)) {
	b := e.kids
	if len(b) == 0 {
		return
	}
	if e.kidsPlain {
		// Each id is found by its quotes (the array holds plain strings
		// only: a quote is always a token's).
		for i := 0; i < len(b); i++ {
			if b[i] == '"' {
				j := jsonx.PlainRun(b, i+1)
				fn(b[i+1 : j])
				i = j
			}
		}
		return
	}
	sc := jsonx.Scanner{Data: b}
	_ = sc.Array(func(int) error {
		tok, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		id, _, _ := chatgptText(tok) // null is ""
		fn([]byte(id))
		return nil
	})
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
			parent := e.parent
			if !e.hasParent {
				by, ok := lists.by(e.id)
				if !ok {
					return ""
				}
				parent = by
			}
			p, ok := entries[parent]
			if !ok {
				return parent // dangling: buildImported warns
			}
			if p.keep {
				return parent
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
	bloom   *chatgptBloom // every child listed (nil: not known)
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

// add puts id in the filter.
func (b *chatgptBloom) add(id []byte) {
	w, bit := bloomBit(id)
	b[w] |= bit
}

// mayHave reports whether id may be in the filter (false: it is not).
func (b *chatgptBloom) mayHave(id string) bool {
	w, bit := bloomBit(id)
	return b[w]&bit != 0
}

// chatgptListScans is how many questions chatgptListedBy answers by
// scanning before it builds its map.
const chatgptListScans = 4

// by returns the key of the first entry, in key order, whose children
// list names child (ok false when none does).
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
