package formats

import "github.com/sessiontree/sessiontree/core/internal/jsonx"

// The one-pass reader of a ChatGPT message (see chatgpt_fast.go): the
// message, its author and its content read where they stand in the
// conversation, and the message written in sessiontree's form.

// chatgptMessageAt reads the message (or null) at the scanner into e: in
// place when it is of the common shape, else through chatgptMessageJSON
// (valid JSON of another shape; a syntax error is the caller's).
func chatgptMessageAt(sc *jsonx.Scanner, e *chatgptEntry) error {
	sc.SkipSpace()
	start := sc.Pos
	if sc.Peek() == '{' {
		out, t, role, reason, err := chatgptMessageFast(sc)
		if err == nil {
			e.setMessage(out, t, role, reason)
			return nil
		}
		sc.Pos = start
	}
	raw, _, serr := sc.Value()
	if serr != nil {
		return serr
	}
	if string(raw) != "null" {
		e.setMessage(chatgptMessageJSON(raw))
	}
	return nil
}

// setMessage records the converted message of e (with its time and, see
// Record.Role, its role), or why it cannot be used.
func (e *chatgptEntry) setMessage(msg jsonx.RawMessage, t float64, role, reason string) {
	if reason != "" {
		e.reason = reason
		return
	}
	e.msg, e.time, e.role, e.keep = msg, t, role, true
}

// chatgptMessageFast is chatgptMessageJSON for a message of the common
// shape, read in place at the scanner (an object); an error, with the
// scanner anywhere, leaves the message to chatgptMessageJSON.
func chatgptMessageFast(sc *jsonx.Scanner) (_ jsonx.RawMessage, _ float64, strRole, reason string, _ error) {
	var seen fastField
	var role, name string
	hasAuthor := false
	var t float64
	var content []byte
	var partsBuf [4][]byte
	parts := partsBuf[:0]
	system, common := false, false
	err := sc.Object(func(key []byte) error {
		bit, ok := fastKey(key, chatgptMessageKeys, &seen)
		if !ok {
			return errFast
		}
		switch bit {
		case 1 << 0:
			var err error
			hasAuthor, role, name, err = readChatGPTAuthor(sc)
			return err
		case 1 << 1:
			v, _, err := fastFloat(sc)
			t = v
			return err
		case 1 << 2:
			sc.SkipSpace()
			start := sc.Pos
			if sc.Peek() == '{' {
				var err error
				if parts, system, common, err = chatgptContentFast(sc, parts); err != nil {
					return err
				}
				content = sc.Data[start:sc.Pos]
				return nil
			}
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
		return nil, 0, "", "", err
	}
	if !hasAuthor || role == "" {
		return nil, 0, "", "has no author role", nil
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
	at := len(b)
	switch {
	case common:
		b = jsonx.AppendStringTokens(b, parts, "\n")
	case len(content) > 0 && content[0] == '{':
		b = appendChatGPTContent(b, content)
	default:
		b = append(b, `""`...)
	}
	if b[at] == '"' {
		strRole = role
		if system {
			strRole = "system"
		}
	}
	if name != "" && role == "tool" {
		b = append(b, `,"name":`...)
		b = jsonx.AppendString(b, name)
	}
	return append(b, '}'), t, strRole, "", nil
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
		s, _, err := fastText(sc)
		if bit == 1<<0 {
			role = s
		} else {
			name = s
		}
		return err
	})
	return true, role, name, err
}

// chatgptContentFast reads the content object at the scanner for
// chatgptMessageFast: whether its content_type is user_editable_context
// (the message is then a system message) and, when it is of the common
// shape — a content_type and parts that are all strings —, the parts'
// string tokens, appended to parts (common true). An error, when its
// content_type is not a string or it is of a shape only the decoding path
// reads, leaves the message to chatgptMessageJSON.
func chatgptContentFast(sc *jsonx.Scanner, parts [][]byte) (_ [][]byte, system, common bool, err error) {
	var seen fastField
	other := false
	hasParts := false
	err = sc.Object(func(key []byte) error {
		bit, ok := fastKey(key, chatgptContentKeys, &seen)
		if !ok {
			return errFast
		}
		switch bit {
		case 1 << 0:
			s, null, err := fastText(sc)
			if err == nil && null {
				return errFast
			}
			system = s == "user_editable_context"
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
	return parts, system, !other && hasParts, err
}
