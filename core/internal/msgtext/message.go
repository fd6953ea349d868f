// Package msgtext reads the text of a chat message: its readable text
// (string content, text and thinking parts, tool calls named with their
// arguments, a bracketed placeholder for parts without text), a one-line
// preview cut between whole characters, Markdown reduced to the plain
// text a preview shows, and what a message without text is (DescribeEmpty). Pure functions of the message's JSON bytes (valid
// JSON, as core holds messages); nothing here knows a session or a node.
// Imports jsonx, search (the grapheme extenders a cut must not split) and
// cite (citation markers).
package msgtext

import (
	"bytes"
	"errors"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// contentPart is the part of a content part sessiontree reads text from.
type contentPart struct {
	Type, Thinking, Name string
	Text, Input, Content []byte
}

// The fields MessageText reads: of a content part, in the order of
// readContentPart's switch; of a message; of a tool call and its function.
var (
	contentPartFields = []string{"type", "text", "thinking", "name", "input", "content"}
	messageTextFields = []string{"content", "tool_calls"}
	functionField     = []string{"function"}
	functionFields    = []string{"name", "arguments"}
)

// read reads the part raw and reports whether it is an object whose
// fields fit.
func (p *contentPart) read(raw []byte) bool {
	ok := true
	ok = jsonx.ReadObject(raw, contentPartFields, func(field int, v []byte) {
		switch field {
		case 0:
			ok = jsonx.ReadString(v, &p.Type) && ok
		case 1:
			p.Text = v
		case 2:
			ok = jsonx.ReadString(v, &p.Thinking) && ok
		case 3:
			ok = jsonx.ReadString(v, &p.Name) && ok
		case 4:
			p.Input = v
		case 5:
			p.Content = v
		}
	}) && ok
	return ok
}

// toolCall is what MessageText reads of a tool call.
type toolCall struct {
	Name, Arguments string // of its function
}

// readToolCall reads the tool call el into c. It never fails, so one odd
// call does not hide the calls beside it: a name that is not a string is
// left out, arguments that are not a string (Ollama sends an object) are
// read as their JSON text, and an element that is not an object gives an
// empty call (which MessageText skips).
func readToolCall(el []byte, c *toolCall) bool {
	jsonx.ReadObject(el, functionField, func(_ int, v []byte) {
		jsonx.ReadObject(v, functionFields, func(field int, v []byte) {
			switch {
			case field == 0:
				jsonx.ReadString(v, &c.Name)
			case jsonx.IsNull(v):
			case len(v) > 0 && v[0] == '"':
				jsonx.ReadString(v, &c.Arguments)
			default:
				c.Arguments = string(jsonx.CompactBytes(v))
			}
		})
	})
	return true
}

// MessageText returns the readable text of a raw chat message: string
// content, the text of text parts, the name and arguments of tool calls.
// Parts without text (images, audio) give a bracketed placeholder such as
// "[image]". Pieces are joined by newlines. Malformed input gives "".
func MessageText(raw []byte) string {
	if text, ok := plainMessageText(raw); ok {
		return text // string content or text parts, no tool calls: the scanner, not encoding/json
	}
	return Decoded(raw)
}

// Decoded is MessageText through the decoder, for every shape of message
// (MessageText reads the common ones in one pass, plainMessageText, and
// gives the same text: tests hold the two equal).
func Decoded(raw []byte) string {
	var content, toolCalls []byte
	if !jsonx.ReadObject(raw, messageTextFields, func(field int, v []byte) {
		if field == 0 {
			content = v
		} else {
			toolCalls = v
		}
	}) {
		return ""
	}
	var pieces []string
	pieces = appendContentText(pieces, content, 0)
	if len(toolCalls) > 0 && toolCalls[0] == '[' {
		var calls []toolCall
		if jsonx.ReadList(toolCalls, &calls, readToolCall) {
			for _, c := range calls {
				if c.Name != "" || c.Arguments != "" {
					pieces = append(pieces, "[tool call: "+c.Name+"] "+c.Arguments)
				}
			}
		}
	}
	return strings.Join(pieces, "\n")
}

// appendContentText adds the text of a content value (string, array of
// parts, or null). depth bounds nesting of tool results holding parts.
func appendContentText(pieces []string, content []byte, depth int) []string {
	if len(content) == 0 || depth > 4 {
		return pieces
	}
	switch content[0] {
	case '"':
		var s string
		if jsonx.ReadString(content, &s) && s != "" {
			pieces = append(pieces, s)
		}
	case '[':
		var parts []jsonx.RawMessage
		if !jsonx.ReadRaws(content, &parts) {
			return pieces
		}
		for _, raw := range parts {
			if len(raw) == 0 {
				continue
			}
			if raw[0] == '"' {
				pieces = appendContentText(pieces, raw, depth+1)
				continue
			}
			var p contentPart
			if !p.read(raw) {
				continue
			}
			switch {
			case len(p.Text) > 0 && p.Text[0] == '"':
				pieces = appendContentText(pieces, p.Text, depth+1)
			case p.Thinking != "":
				pieces = append(pieces, p.Thinking)
			case p.Type == "tool_use":
				pieces = append(pieces, "[tool use: "+p.Name+"] "+string(p.Input))
			case p.Type == "tool_result":
				pieces = appendContentText(pieces, p.Content, depth+1)
			case p.Type != "" && p.Name != "": // a call that names its tool: Codex's function_call, custom_tool_call
				pieces = append(pieces, "["+strings.ReplaceAll(p.Type, "_", " ")+": "+p.Name+"]")
			case p.Type != "":
				pieces = append(pieces, "["+strings.ReplaceAll(p.Type, "_", " ")+"]")
			}
		}
	}
	return pieces
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

// Plain is the one-pass reading MessageText tries first: the text of a
// message whose content is a string or text and thinking parts and that
// has no tool calls; ok is false for every other message (MessageText
// then decodes it). For a caller that does more with the others.
func Plain(raw []byte) (text string, ok bool) { return plainMessageText(raw) }

// ContentText returns the readable text of a content value alone (a
// string, an array of parts, or null), as MessageText reads a message's.
func ContentText(content []byte) string {
	return strings.Join(appendContentText(nil, content, 0), "\n")
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

// errNotParts stops partsText at a part it leaves to the decoder. errors.New,
// not jsonx.TextError: the formatter (5 KB of wasm) would be compiled and
// run at the program's start for a constant text.
var errNotParts = errors.New("not text parts")
