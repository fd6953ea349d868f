// Package importplan holds the pure parts of an import: an export's bytes
// brought to UTF-8 (ToUTF8), a converted conversation's records linked
// into a tree under the import tolerance rule (docs/IMPORTERS.md: a record
// that cannot be used is skipped and its children attach to its parent, a
// missing parent makes a root, a link that closes a cycle is cut), the
// order its nodes are added in, the cursor, each node's branch decision
// (Tree), the timestamps of Unix times (UnixTime), and the batches a large
// folder is imported in (Batches).
//
// It knows no session or store: core checks messages through a function
// it passes in (Validate), builds the session from a Tree's plan, names
// its branches and stores it. Every walk is a loop, never recursion. Not
// safe for concurrent use.
package importplan

import (
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// Tree is a conversation's records linked into a tree while an import
// builds it: parent and children by record index, the records' validated
// messages and the warnings so far. Make one with its ID, Warnings and
// Fallback set, then call Plan.
type Tree struct {
	// ID is the session id the conversation imports as; warnings name it.
	ID string
	// Records are the usable records after Plan, in the export's order
	// (Plan filters the conversation's own slice in place).
	Records []formats.Record
	// Par is each record's parent index, −1 for a root.
	Par []int32
	// Kids lists each record's children, in the export's order.
	Kids [][]int32
	// Msgs is each message record's validated message (nil for an entry
	// or a summary); Roles its role.
	Msgs  []jsonx.RawMessage
	Roles []string
	// Warnings are what the import skipped or guessed, each naming ID.
	Warnings []formats.Warning
	// Fallback is the time of a record that gives none (TimeLayout): the
	// conversation's creation, else the time of the import.
	Fallback string

	at map[string]int32 // record id → index
}

// Validate checks a message record's message (raw; what names it in the
// error; written says the importer wrote it and it is known to be valid
// JSON) and returns it as a session keeps it, with its role. The error's
// text is the warning's reason.
type Validate func(raw jsonx.RawMessage, what string, written bool) (msg jsonx.RawMessage, role string, err error)

// Warn appends a warning naming the session, its message formatted with
// jsonx.Sprintf.
//
//go:noinline // called once per operation; inlined copies cost wasm size
func (t *Tree) Warn(format string, args ...any) {
	t.Warnings = append(t.Warnings, formats.Warning{SessionID: t.ID, Message: jsonx.Sprintf(format, args...)})
}

// Plan links the records of c (which must have some) into t: a linear
// conversation's records are chained in their order (ids derived where
// missing), lone surrogate escapes are warned of, unusable records
// dropped (validate checks the messages), parents linked and cycles cut.
// It returns the records' indexes parents first, in time order (then
// file order), and the record the cursor is on; ok is false, and nothing
// else is set but the warnings, when no record is usable. Plan may set
// c.Current (a linear conversation stands at its end).
func (t *Tree) Plan(c *formats.Conversation, validate Validate) (order []int32, cursor int32, ok bool) {
	t.Records = c.Records
	if c.Linear {
		t.chain(c.ID)
	}
	t.surrogates()
	t.badTimes()
	if !t.usable(validate) {
		return nil, -1, false
	}
	t.link()
	t.cutCycles()
	order = t.order()
	return order, t.cursor(c, order), true
}

// chain links the records of a linear conversation in their order; a
// record without an id gets one derived from the conversation, its
// position and its message, so importing the same file again gives the
// same ids (see formats.DerivedID).
func (t *Tree) chain(conv string) {
	taken := make(map[string]bool, len(t.Records))
	for _, rec := range t.Records {
		taken[rec.ID] = true
	}
	for i := range t.Records {
		for k := 0; t.Records[i].ID == ""; k++ {
			if cand := formats.DerivedID(conv, i, k, t.Records[i].Message); !taken[cand] {
				t.Records[i].ID, taken[cand] = cand, true
			}
		}
		if i > 0 {
			t.Records[i].ParentID = t.Records[i-1].ID
		}
	}
}

// surrogates warns of lone surrogate escapes in the records.
func (t *Tree) surrogates() {
	for i := range t.Records {
		rec := &t.Records[i]
		if rec.NoUEscape && rec.Source != nil {
			continue // the importer's scanner saw no \u escape in it
		}
		raw := rec.Source
		if raw == nil {
			raw = rec.Message
		}
		if at := jsonx.LoneSurrogate(raw); at >= 0 {
			esc := string(raw[at : at+6])
			t.Warn("message %q holds a lone surrogate escape %s (byte %d of its record), which is not a character: the record keeps it as written, text shows U+FFFD", rec.ID, esc, at)
		}
	}
}

// badTimes warns of the records whose time field holds a value that is
// not a time (Record.BadTime): the record is kept, undated as one that
// gives no time is, and its source keeps the value.
func (t *Tree) badTimes() {
	for i := range t.Records {
		if rec := &t.Records[i]; rec.BadTime != "" {
			t.Warn("message %q: its %q is not a time; taken as absent", rec.ID, rec.BadTime)
		}
	}
}

// usable drops the records that cannot be used — no id, a message that is
// not one, a repeated id (the first usable record keeps it) — warning of
// each, and attaches their children to their parents. It reports whether
// any record is left.
func (t *Tree) usable(validate Validate) bool {
	dropped := map[string]string{}
	seen := make(map[string]bool, len(t.Records))
	// Filtered in place (a record moves only towards the front, after it
	// was read): a copy of the records was a fifth of the bytes a 20 MB
	// ChatGPT import allocated.
	kept := t.Records[:0]
	t.Msgs = make([]jsonx.RawMessage, 0, len(t.Records))
	t.Roles = make([]string, 0, len(t.Records))
	for i, rec := range t.Records {
		var msg jsonx.RawMessage
		var role string
		message := rec.Kind == "" || rec.Kind == formats.KindMessage
		switch {
		case rec.ID == "":
			t.Warn("record %d has no id; skipped", i+1)
			continue
		case seen[rec.ID]:
			t.Warn("message %q appears again (record %d); the first is kept and this one skipped", rec.ID, i+1)
			continue
		case message && rec.Written && rec.Role != "" && strings.TrimSpace(rec.Role) != "":
			// Written with a string content by the importer: only the
			// role is core's to check (as validate would).
			msg, role = rec.Message, rec.Role
		case message:
			var err error
			// The field's name is formatted only for an error (once per
			// record, it was a tenth of the import's allocations).
			if msg, role, err = validate(rec.Message, "message", rec.Written); err != nil {
				_, _, err = validate(rec.Message, jsonx.Sprintf("message %q", rec.ID), rec.Written)
				t.Warn("%s; the record is skipped and its children attach to its parent", err.Error())
				if _, again := dropped[rec.ID]; !again {
					dropped[rec.ID] = rec.ParentID
				}
				continue
			}
		}
		seen[rec.ID] = true
		kept = append(kept, rec)
		t.Msgs = append(t.Msgs, msg)
		t.Roles = append(t.Roles, role)
	}
	for id := range seen {
		delete(dropped, id) // a repeated id's kept record stands
	}
	formats.Relink(kept, dropped)
	t.Records = kept
	return len(kept) > 0
}

// link fills at and Par; a parent not in the conversation makes a root.
func (t *Tree) link() {
	t.at = make(map[string]int32, len(t.Records))
	for i := range t.Records {
		t.at[t.Records[i].ID] = int32(i)
	}
	t.Par = make([]int32, len(t.Records))
	for i := range t.Records {
		rec := &t.Records[i]
		t.Par[i] = -1
		if rec.ParentID == "" {
			continue
		}
		if p, ok := t.at[rec.ParentID]; ok {
			t.Par[i] = p
		} else {
			t.Warn("message %q names parent %q, which is not in the conversation; it becomes a root", rec.ID, rec.ParentID)
		}
	}
}
