package formats

import (
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// The ChatGPT reader's messages (see chatgpt_read.go): a message, its
// author and its content read where they stand in the conversation, and
// the message written in sessiontree's form, {"role","content"[,"name"]}.
// Text content becomes a string; multimodal content an array of parts:
// strings become {"type":"text","text":…}, objects (images, audio) are
// kept whole with a "type" taken from their content_type; custom
// instructions (user_editable_context) become a system message of their
// profile and instructions texts.

// chatgptMessageAt reads the message (or null) at the scanner into e; a
// message given again replaces the first.
func chatgptMessageAt(sc *jsonx.Scanner, e *chatgptEntry) error {
	e.msg, e.time, e.role, e.keep, e.reason, e.leftOut = nil, 0, "", false, "", ""
	if object, wrong, err := skipNonObject(sc); !object {
		if wrong != nil {
			e.reason = "could not be read: " + chatgptWrong("", wrong, "an object")
		}
		return err
	}
	msg, t, role, reason, leftOut, err := chatgptMessageIn(sc)
	if err != nil {
		return err
	}
	if reason != "" {
		e.reason = reason
		return nil
	}
	e.msg, e.time, e.role, e.keep, e.leftOut = msg, t, role, true, leftOut
	return nil
}

// chatgptMessageIn reads the message object at the scanner and returns it
// in sessiontree's form, with its time, its role when its content is a
// string (see Record.Role), and a reason when it cannot be used: a field
// of another type than ChatGPT writes, or no author role. A create_time
// that is not a number (a string, a number too large) or an author.name
// that is not a string is left out, the message kept (undated, unnamed):
// leftOut names the first such field. An error is a syntax error.
func chatgptMessageIn(sc *jsonx.Scanner) (_ jsonx.RawMessage, _ float64, strRole, reason, leftOut string, _ error) {
	var role, name, wrong string
	hasAuthor := false
	var t float64
	var content []byte
	var c chatgptContent
	var partsBuf [4][]byte // on the stack: a message has a part or two
	parts := partsBuf[:0]
	err := sc.Object(func(key []byte) error {
		switch string(key) {
		case "author":
			var err error
			hasAuthor, role, name, err = readChatGPTAuthor(sc, &wrong, &leftOut)
			return err
		case "create_time":
			raw, _, serr := sc.Value()
			if serr != nil {
				return serr
			}
			v, _, ok := chatgptNumber(raw)
			if !ok {
				setWrong(&leftOut, "create_time", raw, "a number")
				v = 0
			}
			t = v
			return nil
		case "content":
			c, parts = chatgptContent{}, parts[:0]
			sc.SkipSpace()
			start := sc.Pos
			if sc.Peek() == '{' {
				var err error
				if parts, err = c.read(sc, parts); err != nil {
					return err
				}
				content = sc.Data[start:sc.Pos]
				return nil
			}
			raw, _, serr := sc.Value()
			if serr != nil {
				return serr
			}
			content = raw
			return nil
		}
		return skipValue(sc)
	})
	switch {
	case err != nil:
		return nil, 0, "", "", "", err
	case wrong != "":
		return nil, 0, "", "could not be read: " + wrong, "", nil
	case !hasAuthor || role == "":
		return nil, 0, "", "has no author role", "", nil
	}
	out := role
	if c.object && c.contentType == "user_editable_context" {
		// Custom instructions: ChatGPT sends them to the model as system
		// context (metadata.is_user_system_message), never as a turn of
		// the user's, though the export's author is "user".
		out = "system"
	}
	// The message is about as long as its content: one allocation.
	b := make([]byte, 0, len(content)+len(role)+len(name)+48)
	b = append(b, `{"role":`...)
	b = jsonx.AppendString(b, out)
	b = append(b, `,"content":`...)
	at := len(b)
	b = c.appendTo(b, parts)
	if b[at] == '"' {
		strRole = out
	}
	if name != "" && role == "tool" {
		b = append(b, `,"name":`...)
		b = jsonx.AppendString(b, name)
	}
	return append(b, '}'), t, strRole, "", leftOut, nil
}

// readChatGPTAuthor reads the author object (or null: has false) at the
// scanner; a value of another type sets *wrong (when empty), but a name of
// another type *leftOut (the name is left out, the message kept).
func readChatGPTAuthor(sc *jsonx.Scanner, wrong, leftOut *string) (has bool, role, name string, err error) {
	if object, bad, serr := skipNonObject(sc); !object {
		if bad != nil {
			setWrong(wrong, "author", bad, "an object")
		}
		return false, "", "", serr
	}
	err = sc.Object(func(key []byte) error {
		k := string(key)
		if k != "role" && k != "name" {
			return skipValue(sc)
		}
		raw, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		s, _, ok := chatgptText(raw)
		switch {
		case ok:
		case k == "name":
			// A name (only a tool's is kept) the message can do without.
			setWrong(leftOut, "author.name", raw, "a string")
		default:
			setWrong(wrong, "author."+k, raw, "a string")
		}
		if k == "role" {
			role = s
		} else {
			name = s
		}
		return nil
	})
	return true, role, name, err
}

// chatgptContent is what the reader keeps of a message's content when it
// is an object: its content_type, what its parts are (the parts
// themselves, the values as they stand, are kept beside it) and its
// texts.
type chatgptContent struct {
	object      bool
	wrong       bool // a field is of another type: the content reads as ""
	contentType string
	hasParts    bool // the parts are an array (maybe empty)
	allStrings  bool // … of strings only
	// texts holds the string tokens of text, result, content,
	// user_profile and user_instructions (nil when absent or null);
	// thoughts each thought's content, else its summary.
	texts    [5][]byte
	thoughts []string
}

// chatgptContentTexts are the fields whose texts make a content that has
// no parts, in the order they are joined.
var chatgptContentTexts = [5]string{"text", "result", "content", "user_profile", "user_instructions"}

// read reads the content object at the scanner into c, and its parts
// into parts (emptied first), which it returns.
func (c *chatgptContent) read(sc *jsonx.Scanner, parts [][]byte) ([][]byte, error) {
	c.object = true
	err := sc.Object(func(key []byte) error {
		k := string(key)
		switch k {
		case "parts":
			var err error
			parts, err = c.readParts(sc, parts[:0])
			return err
		case "thoughts":
			return c.readThoughts(sc)
		case "content_type", "text", "result", "content", "user_profile", "user_instructions":
		default:
			return skipValue(sc)
		}
		raw, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		_, null, ok := chatgptText(raw)
		c.wrong = c.wrong || !ok
		if k == "content_type" {
			c.contentType, _, _ = chatgptText(raw)
			return nil
		}
		for i, name := range chatgptContentTexts {
			if k == name {
				c.texts[i] = nil
				if ok && !null {
					c.texts[i] = raw
				}
			}
		}
		return nil
	})
	return parts, err
}

// readParts reads the parts array (or null) at the scanner: it notes in
// c what they are and appends them to parts, which it returns.
func (c *chatgptContent) readParts(sc *jsonx.Scanner, parts [][]byte) ([][]byte, error) {
	c.hasParts, c.allStrings = false, true
	sc.SkipSpace()
	if sc.Peek() != '[' {
		raw, _, serr := sc.Value()
		if serr != nil {
			return parts, serr
		}
		c.wrong = c.wrong || raw[0] != 'n'
		return parts, nil
	}
	c.hasParts = true
	err := sc.Array(func(int) error {
		tok, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		c.allStrings = c.allStrings && tok[0] == '"'
		parts = append(parts, tok)
		return nil
	})
	return parts, err
}

// readThoughts reads the thoughts array (or null) at the scanner into c:
// objects (or null) with a summary and a content, each a string or null.
func (c *chatgptContent) readThoughts(sc *jsonx.Scanner) error {
	c.thoughts = nil
	sc.SkipSpace()
	if sc.Peek() != '[' {
		raw, _, serr := sc.Value()
		if serr != nil {
			return serr
		}
		c.wrong = c.wrong || raw[0] != 'n'
		return nil
	}
	return sc.Array(func(int) error {
		if object, wrong, err := skipNonObject(sc); !object {
			c.wrong = c.wrong || wrong != nil
			return err
		}
		var summary, text string
		err := sc.Object(func(key []byte) error {
			k := string(key)
			if k != "summary" && k != "content" {
				return skipValue(sc)
			}
			raw, _, serr := sc.Value()
			if serr != nil {
				return serr
			}
			s, _, ok := chatgptText(raw)
			c.wrong = c.wrong || !ok
			if k == "summary" {
				summary = s
			} else {
				text = s
			}
			return nil
		})
		if text == "" {
			text = summary
		}
		if text != "" {
			c.thoughts = append(c.thoughts, text)
		}
		return err
	})
}

// appendTo appends the content, with its parts, as sessiontree writes
// it: "" for a content that is not an object or has a field of another
// type; its parts when it has them (one string when they are all strings,
// joined by "\n"); else its texts joined by a blank line.
func (c *chatgptContent) appendTo(b []byte, parts [][]byte) []byte {
	switch {
	case !c.object || c.wrong:
		return append(b, `""`...)
	case c.hasParts && c.allStrings:
		return jsonx.AppendStringTokens(b, parts, "\n")
	case c.hasParts:
		return appendChatGPTParts(b, parts)
	}
	var pieces []string
	for _, tok := range c.texts {
		if tok == nil {
			continue
		}
		if s, _, _ := chatgptText(tok); s != "" {
			pieces = append(pieces, s)
		}
	}
	pieces = append(pieces, c.thoughts...)
	return jsonx.AppendString(b, strings.Join(pieces, "\n\n"))
}

// appendChatGPTParts appends parts that are not all strings as an array:
// a string that is not empty as a text part, an object as a typed part
// (appendTypedPart); other values are dropped.
func appendChatGPTParts(b []byte, parts [][]byte) []byte {
	b = append(b, '[')
	n := 0
	for _, p := range parts {
		switch p[0] {
		case '"':
			s, _, _ := chatgptText(p)
			if s == "" {
				continue
			}
			if n > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":"text","text":`...)
			b = jsonx.AppendString(b, s)
			b = append(b, '}')
		case '{':
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

// appendTypedPart appends a content part object p (as the scanner read
// it), compacted, with a leading "type" field taken from its
// "content_type" ("unknown" when it has none) when it has no "type" (or a
// null one).
func appendTypedPart(b []byte, p []byte) []byte {
	if jsonx.HasInsignificantSpace(p) {
		p = jsonx.CompactBytes(p)
	}
	hasType, typ := false, ""
	sc := jsonx.Scanner{Data: p, Valid: true}
	_ = sc.Object(func(key []byte) error {
		raw := sc.SkipValid()
		if len(raw) == 0 {
			return nil
		}
		switch string(key) {
		case "type":
			hasType = raw[0] != 'n'
		case "content_type":
			typ, _, _ = chatgptText(raw)
		}
		return nil
	})
	if hasType {
		return append(b, p...)
	}
	if typ == "" {
		typ = "unknown"
	}
	b = append(b, `{"type":`...)
	b = jsonx.AppendString(b, typ)
	if len(p) > 2 {
		b = append(b, ',')
	}
	return append(b, p[1:]...)
}
