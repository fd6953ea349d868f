package formats

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// warnings is what every reader keeps of what it could not use as it
// stands: warnings it adds one by one (warn, each naming its line or
// record), and lines it skips by kind (skip), told in finish as one
// warning per kind with the count and the first line numbers. A reader
// embeds it, so r.warn and r.warns are the reader's own; a reader of
// whole conversations keeps one per conversation, with its session and
// the prefix that names it ("conversation \"abc\": ").
type warnings struct {
	warns   []Warning
	skipped map[string][]int // kind of line → its line numbers, in order
	session string           // each warning's SessionID ("" for a reader's one session)
	prefix  string           // put before each warning's text
}

// warn adds a warning: format and args as jsonx.Sprintf takes them.
//
//go:noinline // called once per warning; inlined copies cost wasm size
func (w *warnings) warn(format string, args ...any) {
	w.warns = append(w.warns, Warning{SessionID: w.session, Message: w.prefix + jsonx.Sprintf(format, args...)})
}

// skip notes that line n, of the kind named, was skipped (or counted
// once): finish tells each kind in one warning. A kind may carry a reason
// after a NUL byte ("user\x00empty"): lines of one kind skipped for two
// reasons are told apart, and the warning names the kind before it.
func (w *warnings) skip(kind string, n int) {
	if w.skipped == nil {
		w.skipped = map[string][]int{}
	}
	w.skipped[kind] = append(w.skipped[kind], n)
}

// finish adds, for each kind skipped (in the order of their names), the
// warning "N <kind> line(s)<tell(kind)> (lines a, b, c, d, e and M
// more)", and returns every warning.
func (w *warnings) finish(tell func(kind string) string) []Warning {
	for _, kind := range slices.Sorted(maps.Keys(w.skipped)) {
		ns := w.skipped[kind]
		name, _, _ := strings.Cut(kind, "\x00")
		w.warn("%d %s line(s)%s (lines %s)", len(ns), name, tell(kind), cappedList(ns, 5))
	}
	w.skipped = nil
	return w.warns
}

// lacking words what a record's field key, whose raw value is raw (nil:
// absent), lacks to be a usable string, for a warning: "no role", "an
// empty role", "a role that is not a string".
func lacking(raw []byte, key string) string {
	switch {
	case raw == nil || string(raw) == "null":
		return "no " + key
	case raw[0] != '"':
		return "a " + key + " that is not a string"
	}
	return "an empty " + key
}

// cappedList returns the first max numbers of ns separated by ", ", then
// " and N more" when there are more: "3, 7, 9 and 12 more".
func cappedList(ns []int, max int) string {
	var b strings.Builder
	for i, n := range ns {
		if i == max {
			b.WriteString(" and " + strconv.Itoa(len(ns)-max) + " more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// ConversationName names a conversation in a warning, once: noun (the
// export's word, "conversation" or "chat") and its title quoted, else its
// id quoted: `conversation "Weeknight pasta"`. The warning's SessionID
// carries the id; the explorer labels the warning with the title and
// drops these words from its text (static/report-lines.js).
func ConversationName(noun, title, id string) string {
	if title == "" {
		return jsonx.Sprintf("%s %q", noun, id)
	}
	return jsonx.Sprintf("%s %q", noun, title)
}
