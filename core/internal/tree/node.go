package tree

import (
	"bytes"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/entries"
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

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
	Message   RawMessage
	Summary   string
	Entry     *formats.Entry
	Source    RawMessage

	MessageRole string // cached message role, set by validation
	preview     string // cached preview, computed on first use
	HasPreview  bool
	// Described says the preview describes a message without text
	// (msgtext.DescribeEmpty), set with the preview.
	Described bool
}

// fastLayouts turns on the fast paths for the layout sessiontree writes
// (fastNodeFields, fastMessage). Tests turn it off to compare every answer
// with the general parser's (FuzzFastLayouts).
var fastLayouts = true

// Role returns the node's message role ("user", "assistant", …); a summary
// node reports "summary" and an entry node its kind ("model_change", …).
func (n *Node) Role() string {
	if n.Kind != formats.KindMessage {
		return n.Kind
	}
	return n.MessageRole
}

// MarshalJSON encodes the node in its snapshot form, fields in a fixed order.
func (n *Node) MarshalJSON() ([]byte, error) {
	return n.AppendJSON(nil), nil
}

// AppendJSON appends the bytes MarshalJSON returns to b and returns the
// extended buffer.
func (n *Node) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonx.AppendString(b, n.ID)
	b = append(b, `,"parentId":`...)
	b = jsonx.AppendNullableString(b, n.ParentID)
	b = append(b, `,"branch":`...)
	b = jsonx.AppendString(b, n.Branch)
	b = append(b, `,"kind":`...)
	b = jsonx.AppendString(b, n.Kind)
	b = append(b, `,"timestamp":`...)
	b = jsonx.AppendString(b, n.Timestamp)
	if n.Message != nil {
		b = append(b, `,"message":`...)
		b = append(b, n.Message...)
	}
	if n.Kind == formats.KindSummary {
		b = append(b, `,"summary":`...)
		b = jsonx.AppendString(b, n.Summary)
	}
	if n.Entry != nil {
		b = append(b, `,"entry":`...)
		b = entries.AppendJSON(b, n.Entry, n.Kind)
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
	Role      RawMessage `json:"role"`
	Content   RawMessage `json:"content"`
	ToolCalls RawMessage `json:"tool_calls"`
}

// ValidateMessage checks a raw chat message and returns it compacted with
// its role. field names the message in error messages ("message",
// "nodes[3].message").
//
// A message is a JSON object with a non-empty string "role" and a "content"
// that is a string, an array of objects (content parts) or, for the
// assistant role, null.
func ValidateMessage(raw RawMessage, field string) (RawMessage, string, *Error) {
	return ValidateMessageOf(raw, field, false)
}

// ValidateMessageOf is ValidateMessage; valid says raw is known to be
// valid JSON without insignificant white space (see jsonx.Scanner.Valid).
func ValidateMessageOf(raw RawMessage, field string, valid bool) (RawMessage, string, *Error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, "", Invalidf("%s must be a JSON object", field)
	}
	sc := jsonx.Scanner{Data: trimmed, Valid: valid}
	msg, role, jerr, err := messageAt(&sc, field)
	if jerr == nil {
		if e := sc.End(); e != nil {
			jerr = e
		}
	}
	if jerr != nil {
		return nil, "", Invalidf("%s is not valid JSON: %s", field, jsonx.ErrorText(jerr))
	}
	if err != nil {
		return nil, "", err
	}
	return msg, role, nil
}

// fastMessage reads a message at sc.pos written the way sessiontree
// writes one — compact, {"role":"…","content":…} with a role without
// escapes — and returns its role and content tokens. ok is false, with
// sc.pos where it was, for anything else: the general parser (object)
// reads that and gives every error its message.
func fastMessage(sc *jsonx.Scanner) (role, content []byte, ok bool) {
	if !fastLayouts {
		return nil, nil, false
	}
	start := sc.Pos
	if sc.Literal(`{"role":`) {
		if role, _, ok = sc.PlainToken(); ok && sc.Literal(`,"content":`) {
			var err *jsonx.SyntaxError
			if content, _, err = sc.Value(); err == nil && !sc.Spaced && sc.Literal("}") {
				return role, content, true
			}
		}
	}
	sc.Pos, sc.Spaced = start, false
	return nil, nil, false
}

// messageAt reads the message object at the scanner's position in one
// pass, leaving the scanner after it: jerr is a JSON fault, err a message
// that is JSON but not a chat message. The message comes back compacted
// (as it stands when it has no white space between tokens).
func messageAt(sc *jsonx.Scanner, field string) (msg RawMessage, roleText string, jerr error, err *Error) {
	sc.SkipSpace()
	start := sc.Pos
	sc.Spaced = false
	role, content, fast := fastMessage(sc)
	if !fast {
		jerr = sc.Object(func(key []byte) error {
			v, _, err := sc.Value()
			if err != nil {
				return err
			}
			switch string(key) {
			case "role":
				role = v
			case "content":
				content = v
			}
			return nil
		})
		if jerr != nil {
			return nil, "", jerr, nil
		}
	}
	msg = sc.Data[start:sc.Pos]
	if role == nil {
		return msg, "", nil, Invalidf("%s.role is missing", field)
	}
	roleText, ok := roleString(role)
	if !ok {
		return msg, "", nil, Invalidf("%s.role must be a string", field)
	}
	if strings.TrimSpace(roleText) == "" {
		return msg, "", nil, Invalidf("%s.role must not be empty", field)
	}
	if content == nil {
		return msg, "", nil, Invalidf("%s.content is missing (use a string, an array of content parts, or null for an assistant message)", field)
	}
	switch content[0] {
	case '"':
	case 'n':
		if roleText != "assistant" {
			return msg, "", nil, Invalidf("%s.content may be null only for an assistant message, not for role %q", field, roleText)
		}
	case '[':
		cs := jsonx.Scanner{Data: content, Valid: true} // already scanned
		perr := cs.Elements(func(i int, p []byte, _ bool) error {
			if p[0] != '{' {
				return Invalidf("%s.content[%d] must be an object (a content part)", field, i)
			}
			return nil
		})
		if e, ok := perr.(*Error); ok {
			return msg, "", nil, e
		}
	default:
		return msg, "", nil, Invalidf("%s.content must be a string, an array of content parts, or null", field)
	}
	// Compact only when there is white space between tokens; otherwise the
	// bytes are kept as they are.
	if !sc.Valid && sc.Spaced {
		compact, cerr := jsonx.CompactRaw(msg)
		if cerr != nil {
			return msg, "", nil, Invalidf("%s is not valid JSON: %v", field, cerr)
		}
		return compact, roleText, nil, nil
	}
	return msg, roleText, nil, nil
}

// roleString decodes a message's role, sharing the strings of the common
// roles instead of allocating one per message.
func roleString(raw []byte) (string, bool) {
	switch string(raw) {
	case `"user"`:
		return "user", true
	case `"assistant"`:
		return "assistant", true
	case `"system"`:
		return "system", true
	case `"tool"`:
		return "tool", true
	}
	return jsonx.ParseString(raw)
}

// SummaryPreamble opens the user message that context makes of a summary
// node. The wording follows the Pi coding agent's branch summaries.
const SummaryPreamble = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"

// SummaryClosing closes the user message that context makes of a summary node.
const SummaryClosing = "\n</summary>"

// SummaryMessage returns the chat message context gives for a summary
// node: {"role":"user","content":SummaryPreamble+summary+SummaryClosing}.
func SummaryMessage(summary string) RawMessage {
	b := []byte(`{"role":"user","content":`)
	b = jsonx.AppendString(b, SummaryPreamble+summary+SummaryClosing)
	return append(b, '}')
}
