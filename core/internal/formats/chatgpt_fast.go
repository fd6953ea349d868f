package formats

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// The ChatGPT importer's one-pass reader: a conversation is read with the
// validating scanner straight into its entries, each message converted
// where it stands, instead of decoding the conversation into a map of raw
// members, then each entry, message and content again (jsonx.Unmarshal
// validates and walks its whole input at each level, so a message's text
// was scanned about seven times; issue 15 measured 20 MB in 260 ms
// natively, 72% of it in those passes).
//
// It reads only the shape ChatGPT writes and gives up (ok false) on
// anything else, leaving the conversation to the decoding path
// (chatgptConversation and jsonx.Unmarshal), which owns every warning and
// error text: a key that matches a field only ignoring case, a repeated
// field, a value of an unexpected type, a number that does not fit a
// float64, a syntax error. Within a message, a message or content of
// another shape is handed to chatgptMessageJSON or appendChatGPTContent,
// which are pure functions of its bytes. So both paths give the same
// conversation byte for byte (the golden and importer tests hold them to
// that; FuzzImportChatGPTFast compares them).

// chatgptFast is what the one-pass reader gives of a conversation: its
// fields as chatgptConversation holds them (Mapping left nil; hasMapping
// says whether it was an object) and its entries, every one read.
type chatgptFast struct {
	conv       chatgptConversation
	hasMapping bool
	entries    map[string]*chatgptEntry
	keys       []string // the mapping's keys, in the file's order until sorted
	keysSorted bool
	// The room a reader reuses from one conversation to the next (see
	// chatgptReaders): the map entries is, and the entries, in slabs of
	// chatgptSlab (slabs[used] is being filled).
	table map[string]*chatgptEntry
	slabs [][]chatgptEntry
	used  int
	// listed holds every id the children lists name.
	listed chatgptBloom
}

// chatgptSlab is how many entries newEntry allocates at a time.
const chatgptSlab = 64

// chatgptReaders keeps one-pass readers between conversations: a reader
// reused keeps its map, key list and entries, which a 20 MB import
// otherwise allocated again for each of its 500 conversations (a quarter
// of the bytes it allocated, the map grown step by step). Nothing of a
// reader outlives the conversion of its conversation (the records copy
// what they keep), so release may clear it.
var chatgptReaders = sync.Pool{New: func() any { return new(chatgptFast) }}

// newChatGPTReader returns an empty reader (release it when done).
func newChatGPTReader() *chatgptFast {
	return chatgptReaders.Get().(*chatgptFast)
}

// release empties f (reset) and puts it back for the next conversation.
func (f *chatgptFast) release() {
	f.reset()
	chatgptReaders.Put(f)
}

// reset empties f, keeping its room.
func (f *chatgptFast) reset() {
	for k := 0; k <= f.used && k < len(f.slabs); k++ {
		clear(f.slabs[k])
		f.slabs[k] = f.slabs[k][:0]
	}
	clear(f.table)
	clear(f.keys)
	*f = chatgptFast{table: f.table, slabs: f.slabs, keys: f.keys[:0]}
}

// fastField marks the fields of an object seen so far; a second one, or a
// key that names a field only ignoring case, gives up.
type fastField uint16

// fastKey returns the bit of key among names (its index), 0 for a key
// that is none of them, and ok false for a key that matches one only
// ignoring case (the decoder's case-insensitive match) or that was seen
// before in seen.
func fastKey(key []byte, names []string, seen *fastField) (bit fastField, ok bool) {
	for i, n := range names {
		if string(key) == n {
			bit = 1 << i
			if *seen&bit != 0 {
				return 0, false
			}
			*seen |= bit
			return bit, true
		}
	}
	// A key of ASCII letters can only fold to a name of its length (the
	// names are ASCII; a non-ASCII key may fold to one, the Kelvin sign to
	// "k"): most keys of a message are other fields, checked this way.
	ascii := true
	for _, c := range key {
		ascii = ascii && c < 0x80
	}
	for _, n := range names {
		if (!ascii || len(key) == len(n)) && strings.EqualFold(string(key), n) {
			return 0, false
		}
	}
	return 0, true
}

var (
	chatgptConvKeys    = []string{"title", "create_time", "update_time", "mapping", "current_node", "conversation_id", "id"}
	chatgptNodeKeys    = []string{"id", "message", "parent", "children"}
	chatgptMessageKeys = []string{"author", "create_time", "content"}
	chatgptAuthorKeys  = []string{"role", "name"}
	// The content's fields: content_type and parts are read here; the
	// others make appendChatGPTContent convert the content.
	chatgptContentKeys = []string{"content_type", "parts", "text", "result", "content", "user_profile", "user_instructions", "thoughts"}
)

// errFast stops a scan that met something the one-pass reader leaves to
// the decoding path.
var errFast = jsonx.TextError("not the common shape")

// fastString reads a string or null at the scanner: s is nil for null.
func fastString(sc *jsonx.Scanner) (s *string, err error) {
	text, null, err := fastText(sc)
	if err != nil || null {
		return nil, err
	}
	return &text, nil
}

// fastText reads a string or null at the scanner: null says it was null.
// The roles ChatGPT writes come back without an allocation.
func fastText(sc *jsonx.Scanner) (text string, null bool, err error) {
	raw, _, serr := sc.Value()
	if serr != nil {
		return "", false, serr
	}
	switch raw[0] {
	case 'n':
		return "", true, nil
	case '"':
		switch string(raw) {
		case `"user"`:
			return "user", false, nil
		case `"assistant"`:
			return "assistant", false, nil
		case `"system"`:
			return "system", false, nil
		case `"tool"`:
			return "tool", false, nil
		case `"text"`:
			return "text", false, nil
		}
		text, _ = jsonx.ParseString(raw)
		return text, false, nil
	}
	return "", false, errFast
}

// fastNumber reads a number or null at the scanner as a float64: f is nil
// for null.
func fastNumber(sc *jsonx.Scanner) (f *float64, err error) {
	v, null, err := fastFloat(sc)
	if err != nil || null {
		return nil, err
	}
	return &v, nil
}

// fastFloat is fastNumber without the pointer.
func fastFloat(sc *jsonx.Scanner) (v float64, null bool, err error) {
	raw, _, serr := sc.Value()
	if serr != nil {
		return 0, false, serr
	}
	if raw[0] == 'n' {
		return 0, true, nil
	}
	if raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return 0, false, errFast
	}
	v, perr := strconv.ParseFloat(string(raw), 64)
	if perr != nil {
		return 0, false, errFast
	}
	return v, false, nil
}

// readChatGPTFast reads the conversation raw in one pass (see the top of
// this file); ok is false when it leaves it to the decoding path. valid
// says raw is known to be valid JSON without insignificant white space (an
// element the array reader checked and compacted): values are then only
// skipped, not checked again. f is a reader from newChatGPTReader (empty
// when ok is false) for the caller to release.
func readChatGPTFast(raw []byte, valid bool) (f *chatgptFast, ok bool) {
	f = newChatGPTReader()
	if !jsonx.ValidUTF8(raw) {
		// Bytes that are not UTF-8 are the decoding path's: it turns them
		// into U+FFFD in keys as encoding/json does, and ids derive from
		// keys (FuzzChatGPTOnePass found a mapping key of one such byte).
		return f, false
	}
	sc := jsonx.Scanner{Data: raw, Valid: valid}
	if !f.scan(&sc) || sc.End() != nil {
		f.reset()
		return f, false
	}
	return f, true
}

// scan reads the conversation object at the scanner into f, checking its
// syntax as it goes unless sc.Valid (but not its UTF-8: the caller checks
// that); false leaves the conversation to the decoding path, with the
// scanner anywhere.
func (f *chatgptFast) scan(sc *jsonx.Scanner) bool {
	var seen fastField
	err := sc.Object(func(key []byte) error {
		bit, ok := fastKey(key, chatgptConvKeys, &seen)
		if !ok {
			return errFast
		}
		var err error
		switch bit {
		case 0:
			_, _, serr := sc.Value()
			if serr != nil {
				return serr
			}
		case 1 << 0:
			f.conv.Title, err = fastString(sc)
		case 1 << 1:
			f.conv.CreateTime, err = fastNumber(sc)
		case 1 << 2:
			f.conv.UpdateTime, err = fastNumber(sc)
		case 1 << 3:
			err = f.mapping(sc)
		case 1 << 4:
			f.conv.CurrentNode, err = fastString(sc)
		case 1 << 5:
			f.conv.ConversationID, err = fastString(sc)
		case 1 << 6:
			f.conv.ID, err = fastString(sc)
		}
		return err
	})
	return err == nil
}

// mapping reads the mapping object (or null) at the scanner into
// f.entries.
func (f *chatgptFast) mapping(sc *jsonx.Scanner) error {
	sc.SkipSpace()
	if sc.Peek() == 'n' {
		if !sc.Literal("null") {
			return errFast
		}
		f.hasMapping, f.entries, f.keys = false, nil, nil
		return nil
	}
	if sc.Peek() != '{' {
		return errFast
	}
	f.hasMapping = true
	if f.table == nil {
		f.table = map[string]*chatgptEntry{}
	}
	f.entries = f.table
	return sc.Object(func(key []byte) error {
		if _, dup := f.entries[string(key)]; dup {
			return errFast
		}
		k := string(key)
		e, err := f.node(sc)
		if err != nil {
			return err
		}
		e.node.ID = k
		f.entries[k] = e
		f.keys = append(f.keys, k)
		return nil
	})
}

// newEntry returns a zero entry from f's slabs.
func (f *chatgptFast) newEntry() *chatgptEntry {
	if f.used < len(f.slabs) && len(f.slabs[f.used]) == chatgptSlab {
		f.used++
	}
	if f.used == len(f.slabs) {
		f.slabs = append(f.slabs, make([]chatgptEntry, 0, chatgptSlab))
	}
	slab := f.slabs[f.used][:len(f.slabs[f.used])+1]
	f.slabs[f.used] = slab
	return &slab[len(slab)-1]
}

// node reads one mapping entry at the scanner: its node, its source
// (compacted) and its message, converted where it stands (chatgptEntries
// does the same from the decoded entry; a message that cannot be used
// leaves its reason in e.reason for it to warn of).
func (f *chatgptFast) node(sc *jsonx.Scanner) (*chatgptEntry, error) {
	sc.SkipSpace()
	if sc.Peek() != '{' {
		return nil, errFast
	}
	start := sc.Pos
	sc.Spaced = false
	escaped := sc.UEscape
	sc.UEscape = false
	e := f.newEntry()
	e.noParentKey = true
	var seen fastField
	err := sc.Object(func(key []byte) error {
		bit, ok := fastKey(key, chatgptNodeKeys, &seen)
		if !ok {
			return errFast
		}
		switch bit {
		case 1 << 0: // the id (a string or null): the key is the node's id
			raw, _, serr := sc.Value()
			switch {
			case serr != nil:
				return serr
			case raw[0] != '"' && raw[0] != 'n':
				return errFast
			}
			return nil
		case 1 << 1:
			return chatgptMessageAt(sc, e)
		case 1 << 2:
			e.noParentKey = false
			return f.parent(sc, e)
		case 1 << 3:
			return f.children(sc, e)
		}
		_, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	src := sc.Data[start:sc.Pos:sc.Pos]
	e.noUEscape = !sc.Valid && !sc.UEscape
	sc.UEscape = sc.UEscape || escaped
	if sc.Spaced {
		e.source = jsonx.CompactBytes(src)
	} else {
		// The export's own bytes, not a copy (see Record.Source): a
		// 200 MB file is then held once, as its nodes' sources.
		e.source = src
	}
	return e, nil
}

// parent reads the parent (a string or null) at the scanner into e: a
// parent read before as a key shares that key's string.
func (f *chatgptFast) parent(sc *jsonx.Scanner, e *chatgptEntry) error {
	raw, _, serr := sc.Value()
	switch {
	case serr != nil:
		return serr
	case raw[0] == 'n':
		e.node.Parent = nil
		return nil
	case raw[0] != '"':
		return errFast
	}
	if p, ok := f.entries[string(raw[1:len(raw)-1])]; ok && bytes.IndexByte(raw, '\\') < 0 {
		e.parent = p.node.ID
	} else {
		e.parent, _ = jsonx.ParseString(raw)
	}
	e.node.Parent = &e.parent
	return nil
}

// children reads the children array (or null) at the scanner into e:
// strings only, kept as the array's bytes (see chatgptEntry.eachChild),
// each id added to f.listed.
func (f *chatgptFast) children(sc *jsonx.Scanner, e *chatgptEntry) error {
	sc.SkipSpace()
	e.kidsRead = true
	if sc.Peek() == 'n' {
		if !sc.Literal("null") {
			return errFast
		}
		e.kids = nil
		return nil
	}
	start := sc.Pos
	err := sc.Array(func(int) error {
		tok, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		if tok[0] != '"' {
			return errFast
		}
		if bytes.IndexByte(tok, '\\') < 0 {
			f.listed.add(tok[1 : len(tok)-1])
		} else {
			id, _ := jsonx.ParseString(tok)
			f.listed.add([]byte(id))
		}
		return nil
	})
	e.kids = sc.Data[start:sc.Pos]
	return err
}

// sorted sorts f.keys (the mapping's keys, which it returns) once.
func (f *chatgptFast) sorted() []string {
	if !f.keysSorted {
		slices.Sort(f.keys)
		f.keysSorted = true
	}
	return f.keys
}

// roots is entries2roots for the one-pass reader's entries: the sorted
// keys (keys) of those whose parent is null, absent or not in the mapping.
func (f *chatgptFast) roots(keys []string) []string {
	var roots []string
	for _, key := range keys {
		p := f.entries[key].node.Parent
		if p == nil {
			roots = append(roots, key)
		} else if _, in := f.entries[*p]; !in {
			roots = append(roots, key)
		}
	}
	return roots
}
