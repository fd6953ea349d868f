package formats

import (
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Warning is something an import could not use or had to guess; the
// message names the conversation and record.
type Warning struct {
	SessionID string `json:"sessionId,omitempty"`
	Message   string `json:"message"`
}

// Conversation is one conversation, format-neutral: the intermediate tree
// an importer gives and core turns into a session (records linked by
// ParentID, the current leaf, labels and warnings beside it).
type Conversation struct {
	ID    string // "" generates one
	Title string
	// Project is the folder the conversation worked in (a coding agent's
	// cwd), "" when the export does not say.
	Project string
	Created float64  // Unix seconds, 0 when unknown
	Updated float64  // Unix seconds, 0 when unknown
	Records []Record // the nodes-to-be, in the export's order
	Current string   // the export's own current leaf, "" when none
	// NewestLeaf says the format never names a current message: the
	// newest leaf is its cursor by rule (Claude Code, LibreChat), so a
	// conversation without one is not reported as lacking it.
	NewestLeaf bool
	// Linear says the records form one chain in their order (exports
	// without parent links); records with an empty ID get generated ids.
	Linear bool
	// KeepBranches says every record's Branch is the name of the branch it
	// is on (sessiontree's own exports), not a hint.
	KeepBranches bool
	// Active is the active branch when KeepBranches is set ("" for the
	// cursor's branch).
	Active string
	// Aside says every record is off the main line: a sub-agent's own
	// transcript (Claude Code's agent-<id>.jsonl, whose lines carry its
	// parent's sessionId and isSidechain). It joins the session of its id
	// as a side branch: not renamed to "<id>-N" for lack of a node in
	// common, and never moving that session's cursor.
	Aside bool
	// Labels name nodes (annotations, not nodes), applied in order.
	Labels []Label
	// Annotations are annotation records in snapshot form (sessiontree's
	// own Pi exports carry them), applied after Labels.
	Annotations []jsonx.RawMessage
	// ParentSession is the id of the session this one was forked from, as
	// the export says (Pi's parentSession, Codex's forked_from_id, Claude
	// Code's forkedFrom.sessionId, Open WebUI's originalChatId; links.go);
	// "" for none. Core keeps it as a source record (core/internal/tree/source.go).
	ParentSession string
	// Skip, when set, says the conversation cannot be imported and why.
	Skip string
	// Unusable counts the records the importer read and could not use
	// (each with a warning): a conversation without Records is an empty
	// session when it is 0, and is rejected when it is not.
	Unusable int
}

// Record is one node-to-be of an import.
type Record struct {
	ID       string           // the export's id of the record
	ParentID string           // "" for a root
	Message  jsonx.RawMessage // a message, validated by Model.Message
	// Written says Message is valid JSON without insignificant white
	// space (the importer wrote it), so core checks its fields, not its
	// syntax again.
	Written bool
	// Role, when not "", is Message's role, and says Message is one core
	// takes as it stands: the importer wrote it with a string content
	// ({"role":…,"content":"…"}, maybe a "name"; ChatGPT), or checked it
	// with core's rules where it stood (lineMessage: the Pi and Claude
	// Code one-pass readers). Core then checks the role, not the message
	// again.
	Role string
	Time float64 // Unix seconds, 0 when unknown
	// Source is the export's own record, kept beside the node. It may be
	// a sub-slice of the export's bytes (capacity capped at its length, so
	// an append copies): whoever keeps the node keeps them.
	Source jsonx.RawMessage
	// NoUEscape says Source holds no \u escape (the importer's scanner
	// checked every string of it and saw none), so no lone surrogate:
	// core need not look for one.
	NoUEscape bool
	// Aside marks a record off the main line (a Claude Code sidechain): it
	// is never chosen as the newest leaf while another leaf exists.
	Aside bool
	// Branch names the branch this record opens when it does not continue
	// its parent's ("" for the automatic name derived from the parent's).
	Branch string
	// Stamp is the record's own RFC 3339 time, already in TimeLayout
	// ("" to use Time).
	Stamp string
	// BadTime names the record's time field when it holds a value that
	// is not a time (a word, true, an object, a negative or infinite
	// number: timeUnread), so the import warns that it was taken as
	// absent; "" otherwise. Source keeps the value.
	BadTime string
	// Kind is "" or KindMessage for a message (Message), KindSummary for
	// a summary (Summary), or an entry kind (Entry).
	Kind    string
	Summary string // a summary's text
	Entry   *Entry // an entry's fields, validated by Model.Entry
	// Inferred says ParentID is a link the importer inferred (a Claude
	// Code logicalParentUuid, a ChatGPT children list), not the one the
	// file states for the record, StatedParent ("" for a root). A link
	// that would close a cycle is cut at an inferred link first.
	Inferred     bool
	StatedParent string
}

// Label is a label an export puts on a record: What names the
// record that carries it in warnings ("line 7").
type Label struct {
	Target, Label, Stamp, What string
}

// isoStamp returns raw, an RFC 3339 string, in TimeLayout ("" when it is
// not one).
func isoStamp(raw jsonx.RawMessage) string {
	var text string
	if len(raw) == 0 || raw[0] != '"' || !jsonx.ReadString(raw, &text) {
		return ""
	}
	t, err := time.Parse(time.RFC3339Nano, text)
	if err != nil {
		return ""
	}
	return t.UTC().Format(TimeLayout)
}

// Relink gives each record whose parent was dropped (dropped maps a
// dropped record's id to its own parent, "" for none) its nearest kept
// ancestor. The climb is a loop bounded by the number of dropped records,
// so a cycle among them cannot hang it.
func Relink(recs []Record, dropped map[string]string) {
	if len(dropped) == 0 {
		return
	}
	for i := range recs {
		p := recs[i].ParentID
		for steps := 0; p != "" && steps <= len(dropped); steps++ {
			up, ok := dropped[p]
			if !ok {
				break
			}
			p = up
		}
		if _, ok := dropped[p]; ok {
			p = ""
		}
		recs[i].ParentID = p
	}
}

// DerivedID returns the id of record i of conversation conv when the
// export gives it none: "m" and 8 hex digits of a hash of the
// conversation id, the position, the message and attempt (a further
// attempt after a collision), so a second import of the same file finds
// the same ids and a grown file keeps the ids of its old records.
func DerivedID(conv string, i, attempt int, msg []byte) string {
	h := fnv.New128a()
	h.Write([]byte(conv))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(i) + "/" + strconv.Itoa(attempt)))
	h.Write([]byte{0})
	h.Write(msg)
	return "m" + HexString(h.Sum(nil)[:4])
}

// renameDerived gives a conversation whose export has no id of its own
// (c.ID was a placeholder) an id that survives the conversation's growth:
// prefix and a hash of its creation time and its roots' ids, or for a
// linear chat without message ids of its first record's message. Warnings
// naming the placeholder name the new id. A file that grew (two more
// turns) so keeps its session's id and its re-import adds only the new
// turns.
func renameDerived(c *Conversation, warns []Warning, prefix string) {
	key := strconv.AppendFloat([]byte(prefix), c.Created, 'g', -1, 64)
	if c.Linear {
		for _, rec := range c.Records {
			if rec.Kind == "" {
				key = append(append(key, 0), rec.Message...)
				break
			}
		}
	} else {
		var roots []string
		for _, rec := range c.Records {
			if rec.ParentID == "" {
				roots = append(roots, rec.ID)
			}
		}
		slices.Sort(roots)
		for _, r := range roots {
			key = append(append(key, 0), r...)
		}
	}
	old := c.ID
	c.ID = hashID(prefix, key)
	for i := range warns {
		if warns[i].SessionID == old {
			warns[i].SessionID = c.ID
		}
		warns[i].Message = strings.ReplaceAll(warns[i].Message, old, c.ID)
	}
}

// hashID returns an id derived from data: prefix and 16 hex digits of its
// 128-bit FNV-1a hash. Conversations without an id of their own get one
// this way, so importing the same file twice finds the first import's
// sessions. The ids only need to be stable, not collision-proof against an
// adversary (a collision is caught as a taken id), so FNV replaces SHA-256,
// which would add 153 KB raw, 46 KB gzip -9 to the wasm (crypto/sha256 and
// its fips140 machinery; measured in issue 14).
func hashID(prefix string, data []byte) string {
	h := fnv.New128a()
	h.Write(data)
	return prefix + HexString(h.Sum(nil)[:8])
}

// HexString returns b as lowercase hex digits (encoding/hex brings fmt).
func HexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&0xf])
	}
	return string(out)
}

// unixSeconds reads a time that an export writes as Unix seconds,
// milliseconds or nanoseconds (Open WebUI has used all three), or as an
// RFC 3339 string; 0 when absent or unreadable.
func unixSeconds(raw jsonx.RawMessage) float64 {
	if len(raw) == 0 {
		return 0
	}
	if raw[0] == '"' {
		var text string
		if !jsonx.ReadString(raw, &text) {
			return 0
		}
		t, err := time.Parse(time.RFC3339Nano, text)
		if err != nil {
			return 0
		}
		return float64(t.UnixNano()) / 1e9
	}
	var v float64
	if !jsonx.ReadFloat(raw, &v) || v <= 0 || math.IsInf(v, 0) {
		return 0
	}
	switch {
	case v > 1e17:
		return v / 1e9
	case v > 1e14:
		return v / 1e6
	case v > 1e11:
		return v / 1e3
	}
	return v
}

// timeUnread reports whether raw, a record's time field, holds a value
// that is not a time: t, the time read from it, is 0 although raw is not
// absent, null, "" or 0 (which give no time, and are no mistake).
func timeUnread(raw jsonx.RawMessage, t float64) bool {
	if t != 0 {
		return false
	}
	switch string(raw) {
	case "", "null", `""`, "0":
		return false
	}
	return true
}

// noteTime sets rec.BadTime to field when raw, the record's time field,
// holds a value that is not a time (timeUnread).
func (rec *Record) noteTime(field string, raw jsonx.RawMessage) {
	if timeUnread(raw, rec.Time) {
		rec.BadTime = field
	}
}

// finishSession ends a JSON-lines reader's session c: every warning names
// the session. A session without records is an empty session when the
// file has a header of its own (empty: a Pi or SillyTavern chat not yet
// written to), else it is skipped for having no none ("messages").
func finishSession(c Conversation, warns []Warning, none string, empty bool) ([]Conversation, []Warning) {
	if len(c.Records) == 0 && empty {
		warns = append(warns, Warning{Message: jsonx.Sprintf("it has no %s; it is an empty session", none)})
	}
	name := ConversationName("session", c.Title, c.ID)
	for i := range warns {
		warns[i].SessionID = c.ID
		warns[i].Message = name + ": " + warns[i].Message
	}
	if len(c.Records) == 0 && !empty {
		c.Skip = jsonx.Sprintf("%s has no %s; skipped", name, none)
	}
	return []Conversation{c}, warns
}
