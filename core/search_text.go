package core

import (
	"bytes"
	"strings"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/cite"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// searchText returns the text search sees for node i of s: the message
// text (string content, text parts, tool-call names and arguments), the
// summary or the entry's text, then the node's label on a line of its
// own. When a node's label changes, Session.annotate indexes it again
// (search.Index.Replace).
func searchText(s *Session, i int32) string {
	n := s.nodes[i]
	text, ok := "", false
	if n.Kind == KindMessage && n.Message != nil {
		text, ok = plainMessageText(n.Message)
	}
	if !ok {
		text = nodeText(n)
	}
	text = cite.Strip(text) // citation markers: nothing to find, nothing to show in a snippet
	if label := s.labels[i]; label != "" {
		text += "\n" + label
	}
	return text
}

// timestampMillis reads a node timestamp as Unix milliseconds; the layout
// sessiontree writes is read without time.Parse.
func timestampMillis(ts string) int64 {
	if len(ts) == len(TimeLayout) && ts[4] == '-' && ts[10] == 'T' && ts[19] == '.' && ts[23] == 'Z' {
		num := func(from, to int) (int, bool) {
			v := 0
			for i := from; i < to; i++ {
				c := ts[i]
				if c < '0' || c > '9' {
					return 0, false
				}
				v = v*10 + int(c-'0')
			}
			return v, true
		}
		y, ok1 := num(0, 4)
		mo, ok2 := num(5, 7)
		dd, ok3 := num(8, 10)
		h, ok4 := num(11, 13)
		mi, ok5 := num(14, 16)
		se, ok6 := num(17, 19)
		ms, ok7 := num(20, 23)
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 {
			return time.Date(y, time.Month(mo), dd, h, mi, se, ms*1e6, time.UTC).UnixMilli()
		}
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

// skipValidString returns the offset just past the JSON string starting
// at raw[pos] (a '"'), and whether it holds escapes; -1 if it does not
// end. The message was validated when it entered the session, so this only
// looks for the closing quote, which is several times cheaper than the
// validating scanner.
func skipValidString(raw []byte, pos int) (int, bool) {
	escaped := false
	for k := pos + 1; k < len(raw); k++ {
		switch raw[k] {
		case '\\':
			escaped = true
			k++
		case '"':
			return k + 1, escaped
		}
	}
	return -1, escaped
}

// plainMessageText returns the content of a message whose content is a
// string and that has no tool calls, read with the one-pass scanner
// instead of encoding/json (the common case when indexing). ok is false
// for every other message.
func plainMessageText(raw []byte) (text string, ok bool) {
	sc := jsonx.Scanner{Data: raw}
	if sc.SkipSpace(); sc.Peek() != '{' {
		return "", false
	}
	sc.Pos++
	var content []byte
	contentEscaped := false
	for {
		sc.SkipSpace()
		if sc.Peek() != '"' {
			break
		}
		keyStart := sc.Pos
		if sc.Pos, _ = skipValidString(raw, sc.Pos); sc.Pos < 0 {
			return "", false
		}
		key := raw[keyStart:sc.Pos]
		if sc.SkipSpace(); sc.Peek() != ':' {
			return "", false
		}
		sc.Pos++
		sc.SkipSpace()
		valueStart := sc.Pos
		escaped := false
		if sc.Peek() == '"' {
			if sc.Pos, escaped = skipValidString(raw, sc.Pos); sc.Pos < 0 {
				return "", false
			}
		} else if _, _, err := sc.Value(); err != nil {
			return "", false
		}
		v := raw[valueStart:sc.Pos]
		switch string(key) {
		case `"content"`:
			content, contentEscaped = v, escaped
		case `"tool_calls"`:
			if len(v) > 0 && v[0] == '[' {
				return "", false
			}
		default:
			if bytes.EqualFold(key, []byte(`"content"`)) || bytes.EqualFold(key, []byte(`"tool_calls"`)) {
				return "", false // encoding/json matches keys without regard to case: leave these to MessageText
			}
		}
		if sc.SkipSpace(); sc.Peek() == ',' {
			sc.Pos++
		}
	}
	if len(content) >= 2 && content[0] == '[' {
		return partsText(content)
	}
	if len(content) < 2 || content[0] != '"' {
		return "", false
	}
	if !contentEscaped {
		return string(content[1 : len(content)-1]), true
	}
	return jsonx.DecodeString(content, true), true
}

// partsText returns what decodedMessageText gives of a content array
// whose parts are all strings, text parts ({"type","text": a string}) or
// thinking parts ({"type","thinking": a string}), other members ignored:
// the non-empty texts joined by "\n", read in one pass over the (valid)
// array. ok is false for any other part (a tool use, a tool result, an
// image, a field twice, escaped or named only ignoring case, a type or
// thinking that is not a string), left to the decoder, which gives each
// of those its own text.
func partsText(content []byte) (text string, ok bool) {
	sc := jsonx.Scanner{Data: content, Valid: true}
	var pieces []string
	add := func(raw []byte) {
		if s := jsonx.DecodeString(raw, true); s != "" {
			pieces = append(pieces, s)
		}
	}
	err := sc.Array(func(int) error {
		sc.SkipSpace()
		if sc.Peek() == '"' {
			v, _, err := sc.Value()
			if err == nil {
				add(v)
			}
			return err
		}
		if sc.Peek() != '{' {
			return errNotParts
		}
		var typ, txt, thinking []byte
		err := sc.Object(func(key []byte) error {
			v, _, err := sc.Value()
			if err != nil {
				return err
			}
			switch {
			case bytes.IndexByte(key, '\\') >= 0:
				return errNotParts // an escaped key: the decoder's to match
			case string(key) == "type" && typ == nil:
				typ = v
			case string(key) == "text" && txt == nil:
				txt = v
			case string(key) == "thinking" && thinking == nil:
				thinking = v
			default:
				if jsonx.Match(key, contentPartFields) >= 0 {
					return errNotParts // a tool part, a repeated or case-folded field
				}
			}
			return nil
		})
		switch {
		case err != nil:
			return err
		case typ != nil && typ[0] != '"', thinking != nil && thinking[0] != '"':
			return errNotParts // the decoder fails on the part and skips it
		case len(txt) > 0 && txt[0] == '"':
			add(txt)
		case thinking != nil && len(thinking) > 2:
			add(thinking)
		case typ != nil:
			return errNotParts // the decoder writes "[type]" for it
		}
		return nil
	})
	if err != nil || sc.End() != nil {
		return "", false
	}
	return strings.Join(pieces, "\n"), true
}

// errNotParts stops partsText at a part it leaves to the decoder.
var errNotParts = jsonx.TextError("not text parts")
