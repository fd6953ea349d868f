package formats

import (
	"maps"
	"slices"
	"strconv"
	"strings"

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

// chatgptOnePass turns the one-pass reader on; the differential tests
// turn it off to compare it with the decoding path.
var chatgptOnePass = true

// chatgptFast is what the one-pass reader gives of a conversation: its
// fields as chatgptConversation holds them (Mapping left nil; hasMapping
// says whether it was an object) and its entries, every one read.
type chatgptFast struct {
	conv       chatgptConversation
	hasMapping bool
	entries    map[string]*chatgptEntry
	keys       []string // the mapping's keys, in the file's order
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
	for _, n := range names {
		if strings.EqualFold(string(key), n) {
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
	raw, _, serr := sc.Value()
	if serr != nil {
		return nil, serr
	}
	switch raw[0] {
	case 'n':
		return nil, nil
	case '"':
		text, _ := jsonx.ParseString(raw)
		return &text, nil
	}
	return nil, errFast
}

// fastNumber reads a number or null at the scanner as a float64: f is nil
// for null.
func fastNumber(sc *jsonx.Scanner) (f *float64, err error) {
	raw, _, serr := sc.Value()
	if serr != nil {
		return nil, serr
	}
	if raw[0] == 'n' {
		return nil, nil
	}
	if raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return nil, errFast
	}
	v, perr := strconv.ParseFloat(string(raw), 64)
	if perr != nil {
		return nil, errFast
	}
	return &v, nil
}

// readChatGPTFast reads the conversation raw in one pass (see the top of
// this file); ok is false when it leaves it to the decoding path. valid
// says raw is known to be valid JSON without insignificant white space (an
// element the array reader checked and compacted): values are then only
// skipped, not checked again.
func readChatGPTFast(raw []byte, valid bool) (f chatgptFast, ok bool) {
	if !chatgptOnePass || !jsonx.ValidUTF8(raw) {
		// Bytes that are not UTF-8 are the decoding path's: it turns them
		// into U+FFFD in keys as encoding/json does, and ids derive from
		// keys (FuzzChatGPTOnePass found a mapping key of one such byte).
		return chatgptFast{}, false
	}
	sc := jsonx.Scanner{Data: raw, Valid: valid}
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
			f.conv.Title, err = fastString(&sc)
		case 1 << 1:
			f.conv.CreateTime, err = fastNumber(&sc)
		case 1 << 2:
			f.conv.UpdateTime, err = fastNumber(&sc)
		case 1 << 3:
			err = f.mapping(&sc)
		case 1 << 4:
			f.conv.CurrentNode, err = fastString(&sc)
		case 1 << 5:
			f.conv.ConversationID, err = fastString(&sc)
		case 1 << 6:
			f.conv.ID, err = fastString(&sc)
		}
		return err
	})
	if err != nil || sc.End() != nil {
		return chatgptFast{}, false
	}
	return f, true
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
	f.entries = map[string]*chatgptEntry{}
	return sc.Object(func(key []byte) error {
		k := string(key)
		if _, dup := f.entries[k]; dup {
			return errFast
		}
		e, err := readChatGPTNode(sc)
		if err != nil {
			return err
		}
		e.node.ID = k
		f.entries[k] = e
		f.keys = append(f.keys, k)
		return nil
	})
}

// readChatGPTNode reads one mapping entry at the scanner: its node, its
// source (compacted) and its message, converted (chatgptEntries does the
// same from the decoded entry; a message that cannot be used leaves its
// reason in e.reason for it to warn of).
func readChatGPTNode(sc *jsonx.Scanner) (*chatgptEntry, error) {
	sc.SkipSpace()
	if sc.Peek() != '{' {
		return nil, errFast
	}
	start := sc.Pos
	sc.Spaced = false
	spaced := false
	e := &chatgptEntry{noParentKey: true}
	var seen fastField
	var msg []byte
	err := sc.Object(func(key []byte) error {
		bit, ok := fastKey(key, chatgptNodeKeys, &seen)
		if !ok {
			return errFast
		}
		if string(key) == "parent" {
			e.noParentKey = false
		}
		switch bit {
		case 1 << 0:
			_, err := fastString(sc)
			return err
		case 1 << 2:
			p, err := fastString(sc)
			e.node.Parent = p
			return err
		case 1 << 3:
			return readChatGPTChildren(sc, e)
		}
		raw, sp, serr := sc.Value()
		if serr != nil {
			return serr
		}
		spaced = spaced || sp
		if bit == 1<<1 {
			msg = raw
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	src := sc.Data[start:sc.Pos:sc.Pos]
	if spaced || sc.Spaced {
		e.source = jsonx.CompactBytes(src)
	} else {
		// The export's own bytes, not a copy (see Record.Source): a
		// 200 MB file is then held once, as its nodes' sources.
		e.source = src
	}
	if len(msg) > 0 && string(msg) != "null" {
		e.node.Message = msg
		out, t, reason := chatgptMessageFast(msg, sc.Valid)
		if reason != "" {
			e.reason = reason
		} else {
			e.msg, e.time, e.keep = out, t, true
		}
	}
	return e, nil
}

// readChatGPTChildren reads the children array (or null) at the scanner:
// strings only.
func readChatGPTChildren(sc *jsonx.Scanner, e *chatgptEntry) error {
	sc.SkipSpace()
	if sc.Peek() == 'n' {
		if !sc.Literal("null") {
			return errFast
		}
		e.node.Children = nil
		return nil
	}
	e.node.Children = []string{}
	return sc.Array(func(int) error {
		s, err := fastString(sc)
		if err != nil || s == nil {
			return errFast
		}
		e.node.Children = append(e.node.Children, *s)
		return nil
	})
}

// chatgptMessageFast is chatgptMessageJSON for a message of the common
// shape, read in one pass (valid as for readChatGPTFast); any other
// message goes to chatgptMessageJSON.
func chatgptMessageFast(raw []byte, valid bool) (jsonx.RawMessage, float64, string) {
	if raw[0] != '{' {
		return chatgptMessageJSON(raw)
	}
	sc := jsonx.Scanner{Data: raw, Valid: valid}
	var seen fastField
	var role, name string
	hasAuthor := false
	var t float64
	var content []byte
	err := sc.Object(func(key []byte) error {
		bit, ok := fastKey(key, chatgptMessageKeys, &seen)
		if !ok {
			return errFast
		}
		switch bit {
		case 1 << 0:
			var err error
			hasAuthor, role, name, err = readChatGPTAuthor(&sc)
			return err
		case 1 << 1:
			f, err := fastNumber(&sc)
			if f != nil {
				t = *f
			}
			return err
		}
		v, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		if bit == 1<<2 {
			content = v
		}
		return nil
	})
	if err != nil {
		return chatgptMessageJSON(raw)
	}
	if !hasAuthor || role == "" {
		return nil, 0, "has no author role"
	}
	var parts [][]byte
	system, common := false, false
	if len(content) > 0 && content[0] == '{' {
		var ok bool
		if parts, system, common, ok = chatgptContentFast(content, valid); !ok {
			return chatgptMessageJSON(raw)
		}
	}
	// The message is about as long as its content: one allocation.
	b := make([]byte, 0, len(content)+len(role)+len(name)+48)
	b = append(b, `{"role":`...)
	if system {
		b = jsonx.AppendString(b, "system")
	} else {
		b = jsonx.AppendString(b, role)
	}
	b = append(b, `,"content":`...)
	switch {
	case common:
		b = jsonx.AppendStringTokens(b, parts, "\n")
	case len(content) > 0 && content[0] == '{':
		b = appendChatGPTContent(b, content)
	default:
		b = append(b, `""`...)
	}
	if name != "" && role == "tool" {
		b = append(b, `,"name":`...)
		b = jsonx.AppendString(b, name)
	}
	return append(b, '}'), t, ""
}

// readChatGPTAuthor reads the author object (or null) at the scanner.
func readChatGPTAuthor(sc *jsonx.Scanner) (has bool, role, name string, err error) {
	sc.SkipSpace()
	if sc.Peek() == 'n' {
		if !sc.Literal("null") {
			return false, "", "", errFast
		}
		return false, "", "", nil
	}
	if sc.Peek() != '{' {
		return false, "", "", errFast
	}
	var seen fastField
	err = sc.Object(func(key []byte) error {
		bit, ok := fastKey(key, chatgptAuthorKeys, &seen)
		if !ok {
			return errFast
		}
		if bit == 0 {
			_, _, serr := sc.Value()
			if serr != nil {
				return serr
			}
			return nil
		}
		s, err := fastString(sc)
		if s != nil {
			if bit == 1<<0 {
				role = *s
			} else {
				name = *s
			}
		}
		return err
	})
	return true, role, name, err
}

// chatgptContentFast reads the content object raw for chatgptMessageFast:
// whether its content_type is user_editable_context (the message is then a
// system message) and, when it is of the common shape — a content_type
// and parts that are all strings —, the parts' string tokens (common true).
// ok is false when its content_type is not a string or it is of a shape
// only the decoding path reads (the message then goes to
// chatgptMessageJSON). valid is as for readChatGPTFast.
func chatgptContentFast(raw []byte, valid bool) (parts [][]byte, system, common, ok bool) {
	sc := jsonx.Scanner{Data: raw, Valid: valid}
	var seen fastField
	other := false
	hasParts := false
	err := sc.Object(func(key []byte) error {
		bit, ok := fastKey(key, chatgptContentKeys, &seen)
		if !ok {
			return errFast
		}
		switch bit {
		case 1 << 0:
			s, err := fastString(&sc)
			if err == nil && s == nil {
				return errFast
			}
			if s != nil {
				system = *s == "user_editable_context"
			}
			return err
		case 1 << 1:
			sc.SkipSpace()
			if sc.Peek() != '[' {
				other = true
				break
			}
			hasParts = true
			return sc.Array(func(int) error {
				tok, _, serr := sc.Value()
				if serr != nil {
					return serr
				}
				if tok[0] != '"' {
					return errFast
				}
				parts = append(parts, tok)
				return nil
			})
		case 0:
		default:
			other = true
		}
		_, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		return nil
	})
	if err != nil {
		return nil, false, false, false
	}
	return parts, system, !other && hasParts, true
}

// roots is entries2roots for the one-pass reader's entries: the sorted
// keys of those whose parent is null, absent or not in the mapping.
func (f *chatgptFast) roots() []string {
	var roots []string
	for _, key := range slices.Sorted(maps.Keys(f.entries)) {
		p := f.entries[key].node.Parent
		if p == nil {
			roots = append(roots, key)
		} else if _, in := f.entries[*p]; !in {
			roots = append(roots, key)
		}
	}
	return roots
}
