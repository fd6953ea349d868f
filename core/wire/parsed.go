package wire

import (
	"slices"

	"github.com/sessiontree/sessiontree/core"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// asciiPassBytes: CallParsed escapes answers other than context from this
// size on; below it the decoding saved is smaller than the pass.
const asciiPassBytes = 64 << 10

// CallParsed is st.Call for a caller that parses the answer right away
// (the browser binding's call, as opposed to callText): the same JSON
// value, not always the same bytes. A context is written with every
// non-ASCII character as a \uXXXX escape in the first place; any other
// answer of 64 KiB or more (a snapshot, a tree, rows, an export) is
// escaped in one more pass. Either is escaped only as long as at most one
// byte in 16 of it is non-ASCII and it is all UTF-8 (see
// jsonx.AppendASCII); otherwise the answer is Call's, byte for byte, as
// is every smaller answer and every error.
func CallParsed(st *core.Store, req []byte) []byte {
	return Parsed(st.Run(req))
}

// Parsed encodes a as CallParsed answers it.
func Parsed(a core.Answer) []byte {
	if v, ok := a.Value.(core.ContextView); ok && a.Err == nil {
		const head = `{"ok":true,"value":`
		return append(appendContextASCII(append(make([]byte, 0, 64), head...), v.Context()), '}')
	}
	return asciiIfLarge(a.Envelope())
}

// asciiIfLarge returns JSON text out with non-ASCII escaped when it is
// asciiPassBytes or more and escaping pays (see jsonx.AppendASCII),
// otherwise out itself.
func asciiIfLarge(out []byte) []byte {
	if len(out) < asciiPassBytes {
		return out
	}
	var budget jsonx.ASCIIBudget
	if esc, ok := jsonx.AppendASCII(make([]byte, 0, len(out)+len(out)/8), out, &budget); ok {
		return esc
	}
	return out
}

// appendContextASCII appends c as c.AppendJSON does, but with every
// non-ASCII character escaped when that pays (see jsonx.AppendASCII).
func appendContextASCII(b []byte, c core.Context) []byte {
	size := 512 // the cursor, the state and the envelope's closing brace
	for _, m := range c.Messages {
		size += len(m) + 1
	}
	// Escapes may add up to an eighth: at most one byte in 16 is
	// non-ASCII, and each becomes at most three (see jsonx.AppendASCII).
	size += size / 8
	b = slices.Grow(b, size)
	if out, ok := appendASCIIContext(b, c); ok {
		return out
	}
	return c.AppendJSON(b)
}

// appendASCIIContext appends c with every non-ASCII character escaped
// (jsonx.AppendASCII), the messages copied a word at a time. ok is false,
// and b unchanged up to its length, when the text is not mostly ASCII.
func appendASCIIContext(b []byte, c core.Context) (_ []byte, ok bool) {
	var budget jsonx.ASCIIBudget
	head := append(make([]byte, 0, 64), `{"cursor":`...)
	head = appendCursor(head, c.Cursor)
	head = append(head, `,"messages":[`...)
	if b, ok = jsonx.AppendASCII(b, head, &budget); !ok {
		return nil, false
	}
	for i, m := range c.Messages {
		if i > 0 {
			b = append(b, ',')
		}
		if b, ok = jsonx.AppendASCII(b, m, &budget); !ok {
			return nil, false
		}
	}
	tail := append(make([]byte, 0, 256), `],"state":`...)
	tail = c.State.AppendJSON(tail)
	return jsonx.AppendASCII(b, append(tail, '}'), &budget)
}

// appendCursor appends a context's cursor: its id as a JSON string, or
// null.
func appendCursor(b []byte, cursor *string) []byte {
	if cursor == nil {
		return append(b, "null"...)
	}
	return jsonx.AppendString(b, *cursor)
}
