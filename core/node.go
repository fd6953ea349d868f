package core

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Node kinds of snapshot version 1.
const (
	// KindMessage is a node carrying a chat message in Message.
	KindMessage = "message"
	// KindSummary is a node carrying a branch summary in Summary; context
	// turns it into a user message (see SummaryMessage).
	KindSummary = "summary"
)

// TimeLayout is the layout of every timestamp sessiontree writes: RFC 3339,
// UTC, milliseconds ("2026-11-29T22:13:42.123Z").
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Node is one entry of a session tree, in the shape a snapshot carries:
//
//	{"id":…,"parentId":…|null,"branch":…,"kind":…,"timestamp":…,"message"?:…,"summary"?:…,"entry"?:…,"source"?:…}
//
// ParentID is "" for a root. Message and Source are raw JSON kept exactly as
// received (insignificant whitespace removed); Summary is set for summary
// nodes only; Entry for the entry kinds (see entry.go) only.
type Node struct {
	ID        string
	ParentID  string
	Branch    string
	Kind      string
	Timestamp string
	Message   json.RawMessage
	Summary   string
	Entry     *Entry
	Source    json.RawMessage

	role    string // cached message role, set by validation
	preview string // cached preview, computed on first use
	hasPrev bool
}

// Role returns the node's message role ("user", "assistant", …); a summary
// node reports "summary" and an entry node its kind ("model_change", …).
func (n *Node) Role() string {
	if n.Kind != KindMessage {
		return n.Kind
	}
	return n.role
}

// MarshalJSON encodes the node in its snapshot form, fields in a fixed order.
func (n *Node) MarshalJSON() ([]byte, error) {
	return n.appendJSON(nil), nil
}

func (n *Node) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, n.ID)
	b = append(b, `,"parentId":`...)
	b = appendNullableString(b, n.ParentID)
	b = append(b, `,"branch":`...)
	b = appendString(b, n.Branch)
	b = append(b, `,"kind":`...)
	b = appendString(b, n.Kind)
	b = append(b, `,"timestamp":`...)
	b = appendString(b, n.Timestamp)
	if n.Message != nil {
		b = append(b, `,"message":`...)
		b = append(b, n.Message...)
	}
	if n.Kind == KindSummary {
		b = append(b, `,"summary":`...)
		b = appendString(b, n.Summary)
	}
	if n.Entry != nil {
		b = append(b, `,"entry":`...)
		b = n.Entry.appendJSON(b, n.Kind)
	}
	if n.Source != nil {
		b = append(b, `,"source":`...)
		b = append(b, n.Source...)
	}
	return append(b, '}')
}

// messageHead is the part of a chat message sessiontree looks at; every
// other field is kept in the raw bytes untouched.
type messageHead struct {
	Role      json.RawMessage `json:"role"`
	Content   json.RawMessage `json:"content"`
	ToolCalls json.RawMessage `json:"tool_calls"`
}

// validateMessage checks a raw chat message and returns it compacted with
// its role. field names the message in error messages ("message",
// "nodes[3].message").
//
// A message is a JSON object with a non-empty string "role" and a "content"
// that is a string, an array of objects (content parts) or, for the
// assistant role, null.
func validateMessage(raw json.RawMessage, field string) (json.RawMessage, string, *Error) {
	return validateMessageOf(raw, field, false)
}

// validateMessageOf is validateMessage; valid says raw is known to be
// valid JSON without insignificant white space (see scanner.valid).
func validateMessageOf(raw json.RawMessage, field string, valid bool) (json.RawMessage, string, *Error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, "", invalidf("%s must be a JSON object", field)
	}
	var (
		role, content []byte
		spacedAny     bool
	)
	sc := scanner{data: trimmed, valid: valid}
	err := sc.members(func(key string, v []byte, spaced bool) error {
		switch key {
		case "role":
			role = v
		case "content":
			content = v
		}
		return nil
	})
	if err == nil {
		if e := sc.end(); e != nil {
			err = e
		}
	}
	if err != nil {
		return nil, "", invalidf("%s is not valid JSON: %s", field, jsonErrorText(err))
	}
	if role == nil {
		return nil, "", invalidf("%s.role is missing", field)
	}
	roleText, ok := parseString(role)
	if !ok {
		return nil, "", invalidf("%s.role must be a string", field)
	}
	if strings.TrimSpace(roleText) == "" {
		return nil, "", invalidf("%s.role must not be empty", field)
	}
	if content == nil {
		return nil, "", invalidf("%s.content is missing (use a string, an array of content parts, or null for an assistant message)", field)
	}
	switch content[0] {
	case '"':
	case 'n':
		if roleText != "assistant" {
			return nil, "", invalidf("%s.content may be null only for an assistant message, not for role %q", field, roleText)
		}
	case '[':
		cs := scanner{data: content, valid: valid}
		perr := cs.elements(func(i int, p []byte, _ bool) error {
			if p[0] != '{' {
				return invalidf("%s.content[%d] must be an object (a content part)", field, i)
			}
			return nil
		})
		if e, ok := perr.(*Error); ok {
			return nil, "", e
		}
	default:
		return nil, "", invalidf("%s.content must be a string, an array of content parts, or null", field)
	}
	// Compact only when there is white space between tokens; otherwise the
	// bytes are kept as they are.
	spacedAny = !valid && hasInsignificantSpace(trimmed)
	if spacedAny {
		compact, cerr := compactRaw(trimmed)
		if cerr != nil {
			return nil, "", invalidf("%s is not valid JSON: %v", field, cerr)
		}
		return compact, roleText, nil
	}
	return trimmed, roleText, nil
}

// hasInsignificantSpace reports whether valid JSON has white space outside
// its strings.
func hasInsignificantSpace(raw []byte) bool {
	in := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && isSpace(c):
			return true
		}
	}
	return false
}

// validName checks a branch name: 1–128 characters, valid UTF-8, no control
// characters.
func validName(name string) bool {
	return validLabel(name, 128)
}

// validLabel checks a name or id: 1–max characters, valid UTF-8, not only
// white space, no control characters and no bidirectional overrides
// (U+202A–U+202E, U+2066–U+2069), which would make it display as
// something it is not.
func validLabel(name string, max int) bool {
	if strings.TrimSpace(name) == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > max {
		return false
	}
	for _, r := range name {
		if unicode.IsControl(r) || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' {
			return false
		}
	}
	return true
}

// validSessionID checks a session id: 1–256 characters, valid UTF-8, no
// control characters.
func validSessionID(id string) bool {
	return validLabel(id, 256)
}

// validTimestamp reports whether s parses as RFC 3339.
func validTimestamp(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// SummaryPreamble opens the user message that context makes of a summary
// node. The wording follows the Pi coding agent's branch summaries.
const SummaryPreamble = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"

// SummaryClosing closes the user message that context makes of a summary node.
const SummaryClosing = "\n</summary>"

// SummaryMessage returns the chat message context gives for a summary
// node: {"role":"user","content":SummaryPreamble+summary+SummaryClosing}.
func SummaryMessage(summary string) json.RawMessage {
	b := []byte(`{"role":"user","content":`)
	b = appendString(b, SummaryPreamble+summary+SummaryClosing)
	return append(b, '}')
}
