package formats

import (
	"slices"
	"strconv"
	"sync"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// The ChatGPT importer's reader: a conversation is read with the
// validating scanner in one pass, straight into its entries, each message
// converted where it stands (chatgpt_message.go). Decoding it into a map
// of raw members, then each entry, message and content again scanned a
// message's text about seven times (issue 15 measured 20 MB in 260 ms
// natively, 72% of it in those passes).
//
// It is the format's only reader and owns every warning and error text.
// It reads any valid JSON: keys match exactly (JSON's keys are
// case-sensitive; ChatGPT writes them in lower case); a field given twice
// takes its last value, as JSON.parse does; a field of another type than
// ChatGPT writes makes what holds it unusable, with a warning that names
// the field (the conversation, a mapping entry or a message; in a
// message's content it leaves the content empty); a syntax error skips
// the conversation (Item) or is left to the array reader (Scan). Strings
// that are not UTF-8 read as U+FFFD, as encoding/json reads them.

// chatgptReader is what the reader gives of a conversation: its fields and
// its entries, every one read (entries that cannot be used included, with
// chatgptEntry.bad or reason set).
type chatgptReader struct {
	conv       chatgptConversation
	hasMapping bool // the last "mapping" was an object
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

// chatgptConversation holds a conversation's own fields, nil when absent
// or null.
type chatgptConversation struct {
	Title, CurrentNode, ConversationID, ID *string
	CreateTime, UpdateTime                 *float64
	// Wrong says which field is of another type than ChatGPT writes (the
	// first; "its \"id\" is a number, not a string") among the ones a
	// conversation cannot do without (its ids, its mapping): the
	// conversation is then skipped.
	Wrong string
	// LeftOut says which of the fields it can do without (its title,
	// times and current node) are of another type: each is taken as
	// absent, with a warning.
	LeftOut []string
}

// chatgptSlab is how many entries newEntry allocates at a time.
const chatgptSlab = 64

// chatgptReaders keeps readers between conversations: a reader reused
// keeps its map, key list and entries, which a 20 MB import otherwise
// allocated again for each of its 500 conversations (a quarter of the
// bytes it allocated, the map grown step by step). Nothing of a reader
// outlives the conversion of its conversation (the records copy what they
// keep), so release may clear it.
var chatgptReaders = sync.Pool{New: func() any { return new(chatgptReader) }}

// newChatGPTReader returns an empty reader (release it when done).
func newChatGPTReader() *chatgptReader {
	return chatgptReaders.Get().(*chatgptReader)
}

// release empties f (reset) and puts it back for the next conversation.
func (f *chatgptReader) release() {
	f.reset()
	chatgptReaders.Put(f)
}

// reset empties f, keeping its room.
func (f *chatgptReader) reset() {
	for k := 0; k <= f.used && k < len(f.slabs); k++ {
		clear(f.slabs[k])
		f.slabs[k] = f.slabs[k][:0]
	}
	clear(f.table)
	clear(f.keys)
	*f = chatgptReader{table: f.table, slabs: f.slabs, keys: f.keys[:0]}
}

// chatgptWrong says that the value raw of field (dotted, "author.role";
// "" for the value itself) is not of the type want names ("a string"): a
// number too large for a float64 when want is "a number", else raw's
// type ("its \"title\" is a number, not a string").
func chatgptWrong(field string, raw []byte, want string) string {
	what := "it"
	if field != "" {
		what = jsonx.Sprintf("its %q", field)
	}
	kind := jsonKind(raw)
	if kind == want {
		return what + " is " + string(raw) + ", too large a number"
	}
	return what + " is " + kind + ", not " + want
}

// jsonKind names the type of the JSON value raw: "a string", "a number",
// "an object", "an array", "a boolean" or "null".
func jsonKind(raw []byte) string {
	switch c := raw[0]; c {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// chatgptText decodes raw when it is a string (null true for null; ok
// false for any other value). The roles ChatGPT writes come back without
// an allocation.
func chatgptText(raw []byte) (s string, null, ok bool) {
	switch raw[0] {
	case 'n':
		return "", true, true
	case '"':
	default:
		return "", false, false
	}
	switch string(raw) {
	case `"user"`:
		return "user", false, true
	case `"assistant"`:
		return "assistant", false, true
	case `"system"`:
		return "system", false, true
	case `"tool"`:
		return "tool", false, true
	case `"text"`:
		return "text", false, true
	}
	if body, plain := jsonx.PlainString(raw); plain {
		return string(body), false, true
	}
	s, _ = jsonx.ParseString(raw)
	return s, false, true
}

// chatgptNumber reads raw when it is a number that fits a float64 (null
// true for null; ok false for any other value).
func chatgptNumber(raw []byte) (v float64, null, ok bool) {
	switch c := raw[0]; {
	case c == 'n':
		return 0, true, true
	case c != '-' && (c < '0' || c > '9'):
		return 0, false, false
	}
	v, err := strconv.ParseFloat(string(raw), 64)
	return v, false, err == nil
}

// readString reads a string or null at the scanner into *dst (nil for
// null); a value of another type sets *wrong (when empty) naming field.
func readString(sc *jsonx.Scanner, dst **string, field string, wrong *string) error {
	raw, _, serr := sc.Value()
	if serr != nil {
		return serr
	}
	s, null, ok := chatgptText(raw)
	switch {
	case !ok:
		*dst = nil
		setWrong(wrong, field, raw, "a string")
	case null:
		*dst = nil
	default:
		*dst = &s
	}
	return nil
}

// readNumber is readString for a number.
func readNumber(sc *jsonx.Scanner, dst **float64, field string, wrong *string) error {
	raw, _, serr := sc.Value()
	if serr != nil {
		return serr
	}
	v, null, ok := chatgptNumber(raw)
	switch {
	case !ok:
		*dst = nil
		setWrong(wrong, field, raw, "a number")
	case null:
		*dst = nil
	default:
		*dst = &v
	}
	return nil
}

// setWrong sets *wrong to chatgptWrong's text unless it holds one: the
// first field of the wrong type is the one a warning names.
func setWrong(wrong *string, field string, raw []byte, want string) {
	if *wrong == "" {
		*wrong = chatgptWrong(field, raw, want)
	}
}

// scan reads the conversation object at the scanner into f (an
// empty reader), checking its syntax as it goes unless sc.Valid; an error
// is a syntax error, with the scanner anywhere.
func (f *chatgptReader) scan(sc *jsonx.Scanner) error {
	w := &f.conv.Wrong
	var loose string // a field the conversation can do without, of another type (LeftOut)
	return sc.Object(func(key []byte) error {
		var err error
		switch string(key) {
		case "title":
			err = readString(sc, &f.conv.Title, "title", &loose)
		case "create_time":
			err = readNumber(sc, &f.conv.CreateTime, "create_time", &loose)
		case "update_time":
			err = readNumber(sc, &f.conv.UpdateTime, "update_time", &loose)
		case "current_node":
			err = readString(sc, &f.conv.CurrentNode, "current_node", &loose)
		case "mapping":
			return f.mapping(sc)
		case "conversation_id":
			return readString(sc, &f.conv.ConversationID, "conversation_id", w)
		case "id":
			return readString(sc, &f.conv.ID, "id", w)
		default:
			return skipValue(sc)
		}
		if loose != "" {
			f.conv.LeftOut = append(f.conv.LeftOut, loose)
			loose = ""
		}
		return err
	})
}

// mapping reads the mapping object (or null) at the scanner into
// f.entries; a mapping given again replaces the first.
func (f *chatgptReader) mapping(sc *jsonx.Scanner) error {
	clear(f.table)
	f.keys, f.hasMapping, f.entries = f.keys[:0], false, nil
	if object, wrong, err := skipNonObject(sc); !object {
		if wrong != nil {
			setWrong(&f.conv.Wrong, "mapping", wrong, "an object")
		}
		return err
	}
	f.hasMapping = true
	if f.table == nil {
		f.table = map[string]*chatgptEntry{}
	}
	f.entries = f.table
	return sc.Object(func(key []byte) error {
		e, err := f.node(sc)
		if err != nil {
			return err
		}
		if old, dup := f.entries[string(key)]; dup {
			e.id = old.id // the last entry of a key is the one read
		} else {
			e.id = keyString(key)
			f.keys = append(f.keys, e.id)
		}
		f.entries[e.id] = e
		return nil
	})
}

// keyString returns an object key as a string: bytes that are not UTF-8
// become U+FFFD each (keys with escapes come decoded from the scanner).
func keyString(key []byte) string {
	if jsonx.ValidUTF8(key) {
		return string(key)
	}
	return string([]rune(string(key)))
}

// newEntry returns a zero entry from f's slabs.
func (f *chatgptReader) newEntry() *chatgptEntry {
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

// node reads one mapping entry at the scanner: its links, its source
// (compacted) and its message, converted where it stands. An entry that
// is not an object (or null, an entry with nothing) or has a link of
// another type is read with bad set; a message that cannot be used leaves
// its reason in reason. The caller warns of both.
func (f *chatgptReader) node(sc *jsonx.Scanner) (*chatgptEntry, error) {
	e := f.newEntry()
	if object, wrong, err := skipNonObject(sc); !object {
		if err != nil {
			return nil, err
		}
		if wrong != nil {
			e.bad = chatgptWrong("", wrong, "an object")
		}
		return e, nil
	}
	e.object, e.noParentKey = true, true
	start := sc.Pos
	sc.Spaced = false
	escaped := sc.UEscape
	sc.UEscape = false
	err := sc.Object(func(key []byte) error {
		switch string(key) {
		case "id": // a string or null: the key is the node's id
			raw, _, serr := sc.Value()
			if serr != nil {
				return serr
			}
			if raw[0] != '"' && raw[0] != 'n' {
				setWrong(&e.bad, "id", raw, "a string")
			}
			return nil
		case "message":
			return chatgptMessageAt(sc, e)
		case "parent":
			e.noParentKey = false
			return f.parent(sc, e)
		case "children":
			return f.children(sc, e)
		}
		return skipValue(sc)
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
func (f *chatgptReader) parent(sc *jsonx.Scanner, e *chatgptEntry) error {
	raw, _, serr := sc.Value()
	if serr != nil {
		return serr
	}
	e.hasParent = false
	switch raw[0] {
	case 'n':
		return nil
	case '"':
	default:
		setWrong(&e.bad, "parent", raw, "a string")
		return nil
	}
	e.hasParent = true
	if body, plain := jsonx.PlainString(raw); plain {
		if p, ok := f.entries[string(body)]; ok {
			e.parent = p.id
			return nil
		}
	}
	e.parent, _, _ = chatgptText(raw)
	return nil
}

// children reads the children array (or null) at the scanner into e: ids
// (a null id is ""), kept as the array's bytes (see chatgptEntry.eachChild),
// each added to f.listed.
func (f *chatgptReader) children(sc *jsonx.Scanner, e *chatgptEntry) error {
	e.kids, e.kidsPlain = nil, true
	sc.SkipSpace()
	if sc.Peek() != '[' {
		raw, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		if raw[0] != 'n' {
			setWrong(&e.bad, "children", raw, "an array")
		}
		return nil
	}
	start := sc.Pos
	err := sc.Array(func(int) error {
		tok, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		if body, plain := jsonx.PlainString(tok); plain {
			f.listed.add(body)
			return nil
		}
		e.kidsPlain = false
		switch id, null, ok := chatgptText(tok); {
		case !ok:
			if e.bad == "" {
				e.bad = jsonx.Sprintf("its %q holds %s, not a string", "children", jsonKind(tok))
			}
		case null:
			f.listed.add(nil)
		default:
			f.listed.add([]byte(id))
		}
		return nil
	})
	e.kids = sc.Data[start:sc.Pos]
	return err
}

// sorted sorts f.keys (the mapping's keys, which it returns) once.
func (f *chatgptReader) sorted() []string {
	if !f.keysSorted {
		slices.Sort(f.keys)
		f.keysSorted = true
	}
	return f.keys
}

// roots returns the sorted keys (keys) of the entries that are objects
// and whose parent is null, absent or not in the mapping (entries that
// cannot be used included: the ids a conversation without one derives
// its own from, see chatgptDerivedID).
func (f *chatgptReader) roots(keys []string) []string {
	var roots []string
	for _, key := range keys {
		e := f.entries[key]
		if !e.object {
			continue
		}
		if !e.hasParent {
			roots = append(roots, key)
		} else if _, in := f.entries[e.parent]; !in {
			roots = append(roots, key)
		}
	}
	return roots
}

// skipNonObject reads the value at sc unless an object starts there:
// object reports that one does (nothing is read then); otherwise wrong is
// the value read, nil for null, or err the syntax error that stopped it.
func skipNonObject(sc *jsonx.Scanner) (object bool, wrong []byte, err error) {
	sc.SkipSpace()
	if sc.Peek() == '{' {
		return true, nil, nil
	}
	raw, _, serr := sc.Value()
	if serr != nil {
		return false, nil, serr
	}
	if raw[0] == 'n' {
		return false, nil, nil
	}
	return false, raw, nil
}
