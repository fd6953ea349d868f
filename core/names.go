package core

import (
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// The longest session id, node id and branch name, in code points.
const (
	MaxSessionIDLength  = 256
	MaxNodeIDLength     = 256
	MaxBranchNameLength = 128
)

// DefaultIgnorable is Unicode's Default_Ignorable_Code_Point property
// (DerivedCoreProperties.txt, Unicode 15.1/16.0): code points a renderer
// shows as nothing, such as U+200B ZERO WIDTH SPACE, U+200C/U+200D ZERO
// WIDTH (NON-)JOINER, U+2060 WORD JOINER, U+FEFF ZERO WIDTH NO-BREAK
// SPACE, the soft hyphen, variation selectors, Hangul fillers and the tag
// characters. Go's unicode package has only Other_Default_Ignorable_Code_Point.
var DefaultIgnorable = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00ad, Hi: 0x00ad, Stride: 1},
		{Lo: 0x034f, Hi: 0x034f, Stride: 1},
		{Lo: 0x061c, Hi: 0x061c, Stride: 1},
		{Lo: 0x115f, Hi: 0x1160, Stride: 1},
		{Lo: 0x17b4, Hi: 0x17b5, Stride: 1},
		{Lo: 0x180b, Hi: 0x180f, Stride: 1},
		{Lo: 0x200b, Hi: 0x200f, Stride: 1},
		{Lo: 0x202a, Hi: 0x202e, Stride: 1},
		{Lo: 0x2060, Hi: 0x206f, Stride: 1},
		{Lo: 0x3164, Hi: 0x3164, Stride: 1},
		{Lo: 0xfe00, Hi: 0xfe0f, Stride: 1},
		{Lo: 0xfeff, Hi: 0xfeff, Stride: 1},
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1},
		{Lo: 0xfff0, Hi: 0xfff8, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x1bca0, Hi: 0x1bca3, Stride: 1},
		{Lo: 0x1d173, Hi: 0x1d17a, Stride: 1},
		{Lo: 0xe0000, Hi: 0xe0fff, Stride: 1},
	},
}

// NameProblem is the one rule for every session id, node id and branch
// name core takes (requests, fork and clone's newSessionId, import ids),
// so that each is visible and on one line wherever it is listed. It
// returns "" when s is usable with at most max code points, else what is
// wrong, as a phrase that follows the field's name ("is empty", "holds
// U+2028, a line or paragraph separator"). s is refused when it:
//
//   - is not valid UTF-8 (a lone surrogate, a bad byte);
//   - is empty or longer than max code points;
//   - holds a control character (general category Cc: U+0000–U+001F,
//     U+007F–U+009F; tab and newline too), a line or paragraph separator
//     (U+2028, U+2029) or a bidirectional embedding, override or isolate
//     (U+202A–U+202E, U+2066–U+2069), which would make it display as
//     something it is not;
//   - is made only of invisible code points: white space (unicode.IsSpace:
//     U+0020, U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F, U+3000, …)
//     and DefaultIgnorable ones (U+200B–U+200F, U+2060–U+206F, U+FEFF, …).
//
// Invisible code points beside visible ones are kept: U+200D joins emoji
// and U+200C is part of Persian spelling.
func NameProblem(s string, max int) string {
	if s == "" {
		return "is empty"
	}
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	n, visible := 0, false
	for _, r := range s {
		n++
		switch {
		case r > ' ' && r < 0x7f:
			visible = true // printable ASCII, the common case
		case unicode.IsControl(r):
			return "holds " + codePoint(r) + ", a control character"
		case r == '\u2028' || r == '\u2029':
			return "holds " + codePoint(r) + ", a line or paragraph separator"
		case r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069':
			return "holds " + codePoint(r) + ", a bidirectional control"
		case !visible && !unicode.IsSpace(r) && !unicode.Is(DefaultIgnorable, r):
			visible = true
		}
	}
	if n > max {
		return jsonx.Sprintf("is longer than %d characters", max)
	}
	if !visible {
		return "is only invisible characters or white space"
	}
	return ""
}

// nameField checks the string field of a request that names a session,
// node or branch: a lone surrogate escape, or a value NameProblem refuses,
// is INVALID_ARGUMENT naming the field and the value.
func (r *request) nameField(field, value string, max int) *Error {
	if jsonx.LoneSurrogate(r.fields[field]) >= 0 {
		return invalidf("field %q holds a lone UTF-16 surrogate; ids and branch names must be valid Unicode", field)
	}
	return checkName(field, value, max)
}

// nodeIDField returns a required node-id field checked by NameProblem.
func (r *request) nodeIDField(field string) (string, *Error) {
	id, err := r.str(field)
	if err != nil {
		return "", err
	}
	if err := r.nameField(field, id, MaxNodeIDLength); err != nil {
		return "", err
	}
	return id, nil
}

// codePoint writes r as Unicode does: "U+" and at least four upper-case
// hex digits ("U+200B", "U+E0001").
func codePoint(r rune) string {
	h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	if len(h) < 4 {
		h = strings.Repeat("0", 4-len(h)) + h
	}
	return "U+" + h
}

// importNames returns the session id an imported conversation gets (its
// own; a generated one when it has none; a derived one, with a warning,
// when NameProblem refuses its own) and the warnings of renaming its
// unusable message ids (renameUnusableNodeIDs).
func (st *Store) importNames(c *formats.Conversation) (string, []ImportWarning) {
	id := c.ID
	if id == "" {
		id = st.sessionID()
	}
	var warns []ImportWarning
	warn := func(format string, args ...any) {
		warns = append(warns, ImportWarning{SessionID: id, Message: jsonx.Sprintf(format, args...)})
	}
	if p := NameProblem(id, MaxSessionIDLength); p != "" {
		orig := id
		id = derivedSessionID(orig)
		warn("the conversation's id %q %s; it is imported as %q", orig, p, id)
	}
	renameUnusableNodeIDs(c, warn)
	return id, warns
}

// derivedSessionID returns the id an import gives a conversation whose own
// id NameProblem refuses: "import-" and 16 hex digits of the FNV-1a hash
// of the id, so importing the same file again finds the same session.
func derivedSessionID(id string) string {
	h := fnv.New128a()
	_, _ = h.Write([]byte(id))
	return "import-" + formats.HexString(h.Sum(nil)[:8])
}

// renameUnusableNodeIDs gives each record of c whose id NameProblem
// refuses a derived one ("m-" and 16 hex digits of the FNV-1a hash of the
// id), with a warning, and follows the renames in parent links, the
// current leaf, labels and compactions' first kept node. Empty ids are
// left to the caller.
func renameUnusableNodeIDs(c *formats.Conversation, warn func(format string, args ...any)) {
	var renamed map[string]string
	for i := range c.Records {
		id := c.Records[i].ID
		if id == "" {
			continue
		}
		if p := NameProblem(id, MaxNodeIDLength); p != "" {
			if renamed == nil {
				renamed = make(map[string]string)
			}
			h := fnv.New128a()
			_, _ = h.Write([]byte(id))
			derived := "m-" + formats.HexString(h.Sum(nil)[:8])
			renamed[id] = derived
			c.Records[i].ID = derived
			warn("message id %q %s; it is imported as %q", id, p, derived)
		}
	}
	if renamed == nil {
		return
	}
	follow := func(id *string) {
		if to, ok := renamed[*id]; ok {
			*id = to
		}
	}
	for i := range c.Records {
		follow(&c.Records[i].ParentID)
		if e := c.Records[i].Entry; e != nil {
			follow(&e.FirstKeptNodeID)
		}
	}
	follow(&c.Current)
	for i := range c.Labels {
		follow(&c.Labels[i].Target)
	}
}

// checkSnapshotNames applies NameProblem to the branch names and node ids
// of a session snapshot.load built: a snapshot given by a caller is checked
// like a request (restore, which brings back what the store itself wrote,
// keeps the older, looser check so that no stored session is lost).
func checkSnapshotNames(s *Session) *Error {
	for _, b := range s.branches {
		if p := NameProblem(b.name, MaxBranchNameLength); p != "" {
			return snapshotFault("branch name %q %s", b.name, p)
		}
	}
	for i := range s.nodes {
		if id := s.nodes[i].ID; !plainASCIIName(id) {
			if p := NameProblem(id, MaxNodeIDLength); p != "" {
				return snapshotFault("node id %q %s", id, p)
			}
		}
	}
	return nil
}

// plainASCIIName reports whether id is 1–MaxNodeIDLength printable ASCII
// characters (which NameProblem accepts), without a call per rune.
func plainASCIIName(id string) bool {
	if id == "" || len(id) > MaxNodeIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] <= ' ' || id[i] >= 0x7f {
			return false
		}
	}
	return true
}
