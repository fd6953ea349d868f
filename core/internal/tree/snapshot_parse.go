package tree

import (
	"bytes"
	"strconv"
	"unsafe"

	"github.com/sessiontree/sessiontree/core/internal/entries"
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/names"
)

// SnapshotFault returns an INVALID_SNAPSHOT *Error: "snapshot: " and the formatted text.
//
//go:noinline
func SnapshotFault(format string, args ...any) *Error {
	return Errorf(InvalidSnapshot, "snapshot: "+format, args...)
}

// ParseSnapshot validates a snapshot and builds the session it describes.
// wantID, when not empty, is the session id the snapshot must carry. The
// error is INVALID_SNAPSHOT naming the first fault.
func ParseSnapshot(raw RawMessage, wantID string) (*Session, bool, *Error) {
	return ParseSnapshotOf(raw, wantID, false)
}

// ParseSnapshotOf is ParseSnapshot; valid says raw is a request field
// already validated and compacted by Call, so the scanners only find where
// values end instead of validating every byte again (see scanner.valid).
func ParseSnapshotOf(raw RawMessage, wantID string, valid bool) (*Session, bool, *Error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false, SnapshotFault("must be a JSON object")
	}
	top, early, serr := ScanSnapshotTop(raw, valid)
	if serr != nil {
		return nil, false, SnapshotFault("is not valid JSON: %s", jsonx.ErrorText(serr))
	}
	vraw, ok := top["version"]
	if !ok {
		return nil, false, SnapshotFault("field \"version\" is missing")
	}
	version, verr := strconv.Atoi(string(vraw))
	if verr != nil {
		return nil, false, SnapshotFault("field \"version\" must be an integer, got %s", Clip(vraw))
	}
	if version < 1 || version > SnapshotVersion {
		return nil, false, SnapshotFault("version %d is not supported (this build reads versions 1 to %d)", version, SnapshotVersion)
	}
	for v := version; v < SnapshotVersion; v++ {
		next, err := migrations[v](top)
		if err != nil {
			return nil, false, SnapshotFault("migrating from version %d: %v", v, err)
		}
		top = next
	}
	if err := topFields(top); err != nil {
		return nil, false, err
	}
	id, ok := jsonx.ParseString(top["sessionId"])
	if !ok || !names.ValidSessionID(id) {
		return nil, false, SnapshotFault("field \"sessionId\" must be a non-empty string")
	}
	if wantID != "" && id != wantID {
		return nil, false, SnapshotFault("sessionId %q differs from the request's sessionId %q", id, wantID)
	}
	title := ""
	traw, hasTitle := top["title"]
	if hasTitle {
		if title, ok = jsonx.ParseString(traw); !ok {
			return nil, false, SnapshotFault("field \"title\" must be a string")
		}
	}
	nraw, ok := top["nodes"]
	if !ok || len(nraw) == 0 || nraw[0] != '[' {
		return nil, false, SnapshotFault("field \"nodes\" must be an array")
	}
	cursor := ""
	if c, ok := top["cursor"]; ok && string(c) != "null" {
		if cursor, ok = jsonx.ParseString(c); !ok || cursor == "" {
			return nil, false, SnapshotFault("field \"cursor\" must be a node id or null")
		}
	}
	active, ok := jsonx.ParseString(top["activeBranch"])
	if !ok || active == "" {
		return nil, false, SnapshotFault("field \"activeBranch\" must be a non-empty string")
	}
	if !names.ValidBranch(active) {
		return nil, false, SnapshotFault("activeBranch %q must be 1–128 characters without control characters", active)
	}

	var s *Session
	var perr error
	if early != nil {
		s, perr = early.Session, early.err
	} else {
		sc := jsonx.Scanner{Data: nraw, Valid: valid}
		s, perr = parseNodes(&sc, len(nraw))
	}
	if perr != nil {
		if e, ok := perr.(*Error); ok {
			return nil, false, e
		}
		return nil, false, SnapshotFault("field \"nodes\" is not valid JSON: %s", jsonx.ErrorText(perr))
	}
	s.id, s.Title = id, title
	if araw, ok := top["annotations"]; ok {
		if err := s.parseAnnotations(araw); err != nil {
			return nil, false, err
		}
	}
	if cursor != "" {
		i, ok := s.Index[cursor]
		if !ok {
			return nil, false, SnapshotFault("cursor %q is not a node of the snapshot", cursor)
		}
		s.Cursor = i
	}
	s.Active = active
	if s.ByName[active] == nil {
		s.AddBranch(active, s.Cursor)
	}
	return s, hasTitle, nil
}

// nodeField reads an optional string field of a snapshot node: absent or
// null gives ok with present false.
func nodeField(raw []byte) (value string, present, ok bool) {
	if raw == nil || string(raw) == "null" {
		return "", false, true
	}
	v, ok := jsonx.ParseString(raw)
	return v, true, ok
}

// earlyNodes is the "nodes" array of a snapshot parsed during the walk
// over the snapshot's members (see ScanSnapshotTop): the session it makes,
// or the first fault in it.
type earlyNodes struct {
	Session *Session
	err     error
	raw     []byte // the array's bytes
}

// ScanSnapshotTop reads the members of a snapshot object into a map of raw
// values, like jsonx.ScanMembers. When "version" (the current one) comes before
// "nodes", as in every snapshot sessiontree writes, the nodes are parsed
// where they stand instead of being skipped and read again: the array is
// nearly all of a snapshot's bytes. A fault in them is kept in earlyNodes
// and reported after the checks of the other members, as before.
func ScanSnapshotTop(raw []byte, valid bool) (map[string][]byte, *earlyNodes, error) {
	var early *earlyNodes
	var version []byte
	current := strconv.Itoa(SnapshotVersion)
	top, err := jsonx.ScanMembers[[]byte](raw, valid, func(sc *jsonx.Scanner, key []byte) (bool, error) {
		switch string(key) {
		case "version": // noted here, stored by the plain read
			at := sc.Pos
			version, _, _ = sc.Value()
			sc.Pos = at
			return false, nil
		case "nodes":
		default:
			return false, nil
		}
		sc.SkipSpace()
		if early != nil || string(version) != current || sc.Peek() != '[' {
			early = nil // a repeated "nodes", or one before the version: parsed later
			return false, nil
		}
		start := sc.Pos
		s, perr := parseNodes(sc, len(raw)-start)
		if _, fault := perr.(*Error); perr != nil && !fault {
			sc.Pos = start // bad JSON: the plain walk reports it
			return false, nil
		}
		if perr != nil { // a node fault: move past the array to go on
			sc.Pos = start
			if _, _, err := sc.Value(); err != nil {
				return false, err
			}
		}
		early = &earlyNodes{Session: s, err: perr, raw: sc.Data[start:sc.Pos]}
		return true, nil
	})
	if err != nil {
		return nil, nil, err
	}
	if early != nil {
		top["nodes"] = early.raw
	}
	return top, early, nil
}

// parseNodes reads the nodes array at the scanner's position into a new
// session (id, title, cursor and active branch still to set). size is
// about the array's length in bytes.
func parseNodes(sc *jsonx.Scanner, size int) (*Session, error) {
	s := NewSession("", "", "")
	s.Branches, s.ByName = nil, make(map[string]*Branch)
	// A node of a snapshot takes about 200 bytes or more: size the id map
	// once instead of growing it step by step (map growth was a visible
	// part of loading in wasm, where string hashing is slow).
	guess := min(size/200, 1<<22)
	s.Index = make(map[string]int32, guess)
	// The per-node slices likewise (growing them copied them over and
	// over: 5 % of a load natively).
	s.Nodes = make([]*Node, 0, guess)
	s.Parent = make([]int32, 0, guess)
	s.Depth = make([]int32, 0, guess)
	s.Children = make([]int32, 0, guess)
	// Parsing: nodes come from slabs sized by the nodes the array's bytes
	// can hold (150 bytes or more each), strings are shared with the request.
	alloc := &nodeAlloc{left: size / 150}
	err := sc.Array(func(i int) error {
		n, parent, err := s.parseNodeAt(sc, i, alloc)
		if err != nil {
			return err
		}
		s.Push(n, parent)
		if len(s.Index) != len(s.Nodes) {
			return SnapshotFault("nodes[%d] repeats the id %q", i, n.ID)
		}
		return nil
	})
	return s, err
}

// requestString decodes a string member of a snapshot node (absent or
// null gives ""). While a snapshot is parsed (alloc set), a plain string
// is not copied: the string shares the request's bytes, which the session
// keeps anyway for its messages (Store.Call keeps parts of its request; in
// wasm an allocation per id and timestamp was a visible share of a load).
// f and bit name the member raw is (see nodeFields.plainBody).
func requestString(f *nodeFields, raw []byte, bit uint8, alloc *nodeAlloc) (string, bool) {
	if alloc != nil {
		if body, plain := f.plainBody(raw, bit); plain {
			if len(body) == 0 {
				return "", true
			}
			return unsafe.String(&body[0], len(body)), true
		}
	}
	v, _, ok := nodeField(raw)
	return v, ok
}

// nodeSlab is how many nodes a snapshot parse allocates at a time.
const nodeSlab = 512

// nodeAlloc is where a snapshot's parse takes its nodes from: slabs of
// nodeSlab nodes allocated together (one allocation instead of 512; nodes
// are never freed one by one, since sessions only grow). left is about how
// many more nodes the snapshot holds.
type nodeAlloc struct {
	slab []Node
	left int
}

// newNode returns a zero node, from a's slab (a new Node for a nil a:
// one node parsed alone).
func (a *nodeAlloc) newNode() *Node {
	if a == nil {
		return &Node{}
	}
	if len(a.slab) == 0 {
		k := min(nodeSlab, max(a.left, 16))
		a.slab = make([]Node, k)
		a.left -= k
	}
	n := &a.slab[0]
	a.slab = a.slab[1:]
	return n
}

// nodeFields are the raw members of a snapshot node. A message object is
// checked as it is read (messageAt): role is its role, and msgFault tells
// that it is not a chat message (the fault is worded again with the
// node's id, which may come after it).
type nodeFields struct {
	id, parentID, branch, kind, timestamp, message, summary, entry, source []byte

	// ascii marks the string members read by fastNodeFields whose bodies
	// are ASCII without escapes: used as they are, not checked again.
	ascii uint8

	role     string
	msgFault bool
}

// ParseNode validates nodes[i], the object raw, against the nodes before it.
func (s *Session) ParseNode(raw []byte, i int, valid bool) (*Node, int32, *Error) {
	sc := jsonx.Scanner{Data: raw, Valid: valid}
	n, parent, err := s.parseNodeAt(&sc, i, nil)
	if err == nil && sc.End() != nil {
		return nil, 0, SnapshotFault("nodes[%d] is not valid JSON", i)
	}
	if err == nil {
		if _, dup := s.Index[n.ID]; dup {
			return nil, 0, SnapshotFault("nodes[%d] repeats the id %q", i, n.ID)
		}
	}
	return n, parent, err
}

// parseNodeAt reads nodes[i] at the scanner's position in one pass (each
// member's value is read once, where it stands) and validates it against
// the nodes before it, except for a repeated id: the caller checks that
// once the node is pushed (the id map's size stays put), which saves a map
// lookup per node. Its nodes come from alloc (nil: one node parsed alone).
func (s *Session) parseNodeAt(sc *jsonx.Scanner, i int, alloc *nodeAlloc) (*Node, int32, *Error) {
	if sc.Peek() != '{' {
		if _, _, err := sc.Value(); err != nil {
			return nil, 0, SnapshotFault("field \"nodes\" is not valid JSON: %s", jsonx.ErrorText(err))
		}
		return nil, 0, SnapshotFault("nodes[%d] must be an object", i)
	}
	var f nodeFields
	if s.fastNodeFields(sc, &f) {
		return s.nodeOf(&f, "", i, sc.Valid, alloc)
	}
	var unknown string
	serr := sc.Object(func(key []byte) error {
		if string(key) == "message" && f.message == nil && sc.Peek() == '{' {
			msg, role, jerr, err := messageAt(sc, "message")
			if jerr != nil {
				return jerr
			}
			f.message, f.role, f.msgFault = msg, role, err != nil
			return nil
		}
		v, _, err := sc.Value()
		if err != nil {
			return err
		}
		switch string(key) {
		case "id":
			f.id = v
		case "parentId":
			f.parentID = v
		case "branch":
			f.branch = v
		case "kind":
			f.kind = v
		case "timestamp":
			f.timestamp = v
		case "message": // not an object, or a repeated key: checked in nodeOf
			f.message, f.role, f.msgFault = v, "", false
		case "summary":
			f.summary = v
		case "entry":
			f.entry = v
		case "source":
			f.source = v
		default:
			if unknown == "" {
				unknown = string(key)
			}
		}
		return nil
	})
	if serr != nil {
		return nil, 0, SnapshotFault("field \"nodes\" is not valid JSON: %s", jsonx.ErrorText(serr))
	}
	return s.nodeOf(&f, unknown, i, sc.Valid, alloc)
}

// Bits of nodeFields.ascii.
const (
	asciiID uint8 = 1 << iota
	asciiParent
	asciiBranch
	asciiTimestamp
)

// fieldBit is bit when set, else 0.
func fieldBit(set bool, bit uint8) uint8 {
	if set {
		return bit
	}
	return 0
}

// plainBody is jsonx.PlainString for a member of f: when fastNodeFields found it
// ASCII without escapes, its body is taken without looking again.
func (f *nodeFields) plainBody(tok []byte, bit uint8) ([]byte, bool) {
	if f.ascii&bit != 0 {
		return tok[1 : len(tok)-1], true
	}
	return jsonx.PlainString(tok)
}

// fastNodeFields reads a node at sc.pos written the way snapshot.save
// writes a message node — compact, {"id":…,"parentId":…,"branch":…,
// "kind":…,"timestamp":…,"message":{…}}, strings without escapes — into
// f, and reports whether it did. Anything else (another order, white
// space, escapes, other members, a JSON error) leaves sc.pos where it was
// for the general parser, which gives every error its message. Reading
// the keys as literals instead of scanning and matching each was a
// quarter of a 100,000-node load in wasm (see docs/DECISIONS.md, "Issue 8
// — fourth pass").
func (s *Session) fastNodeFields(sc *jsonx.Scanner, f *nodeFields) bool {
	if !fastLayouts {
		return false
	}
	start := sc.Pos
	ok := sc.Literal(`{"id":`)
	var ascii bool
	if ok {
		f.id, ascii, ok = sc.PlainToken()
		f.ascii |= fieldBit(ascii, asciiID)
	}
	if ok = ok && sc.Literal(`,"parentId":`); ok {
		if p := sc.Pos; sc.Literal("null") {
			f.parentID = sc.Data[p:sc.Pos]
		} else {
			f.parentID, ascii, ok = sc.PlainToken()
			f.ascii |= fieldBit(ascii, asciiParent)
		}
	}
	if ok = ok && sc.Literal(`,"branch":`); ok {
		f.branch, ascii, ok = sc.PlainToken()
		f.ascii |= fieldBit(ascii, asciiBranch)
	}
	if ok = ok && sc.Literal(`,"kind":`); ok {
		f.kind, _, ok = sc.PlainToken()
	}
	if ok = ok && sc.Literal(`,"timestamp":`); ok {
		f.timestamp, ascii, ok = sc.PlainToken()
		f.ascii |= fieldBit(ascii, asciiTimestamp)
	}
	if ok = ok && sc.Literal(`,"message":`) && sc.Peek() == '{'; ok {
		msg, role, jerr, err := messageAt(sc, "message")
		f.message, f.role, f.msgFault = msg, role, err != nil
		ok = jerr == nil && sc.Literal("}")
	}
	if !ok {
		sc.Pos = start
		*f = nodeFields{}
	}
	return ok
}

// nodeOf validates the members of nodes[i] and builds the node. Strings
// the session already holds (the parent's id, branch names, roles) are
// shared rather than copied: 100,000 nodes allocate a third less. The
// node comes from alloc (see parseNodeAt).
func (s *Session) nodeOf(f *nodeFields, unknown string, i int, valid bool, alloc *nodeAlloc) (*Node, int32, *Error) {
	if unknown != "" {
		return nil, 0, SnapshotFault("nodes[%d] has unknown field %q", i, unknown)
	}
	id, ok := requestString(f, f.id, asciiID, alloc)
	if !ok || id == "" {
		return nil, 0, SnapshotFault("nodes[%d] has an empty or missing id", i)
	}
	if err := nodeLone(f, i); err != nil {
		return nil, 0, err
	}
	parent, parentID, err := s.nodeParent(f, id)
	if err != nil {
		return nil, 0, err
	}
	branch, err := s.nodeBranch(f, id)
	if err != nil {
		return nil, 0, err
	}
	ts, ok := requestString(f, f.timestamp, asciiTimestamp, alloc)
	if !ok || !names.ValidTimestamp(ts) {
		return nil, 0, SnapshotFault("node %q has a bad timestamp: it must be an RFC 3339 string", id)
	}
	kind := formats.KindMessage
	if string(f.kind) != `"message"` {
		kind, _, _ = nodeField(f.kind)
	}
	n := alloc.newNode()
	n.ID, n.ParentID, n.Branch, n.Timestamp = id, parentID, branch, ts
	if err := s.fillNode(n, f, kind, id, parent, valid); err != nil {
		return nil, 0, err
	}
	n.Kind = kind
	if f.source != nil {
		n.Source = RawMessage(jsonx.CompactBytes(f.source))
	}
	return n, parent, nil
}

// nodeParent resolves the parentId of node id: its index and id, -1 and
// "" for a root. A parent that is not an earlier node is a fault.
func (s *Session) nodeParent(f *nodeFields, id string) (int32, string, *Error) {
	parent := int32(-1)
	parentID := ""
	if body, plain := f.plainBody(f.parentID, asciiParent); plain {
		// Most nodes follow their parent: try the previous node before the
		// id map.
		if last := len(s.Nodes) - 1; last >= 0 && s.Nodes[last].ID == string(body) {
			parent, parentID = int32(last), s.Nodes[last].ID
		} else if p, found := s.Index[string(body)]; found {
			parent, parentID = p, s.Nodes[p].ID
		}
	}
	if parent < 0 {
		var hasParent bool
		var ok bool
		parentID, hasParent, ok = nodeField(f.parentID)
		if !ok {
			return 0, "", SnapshotFault("node %q has a parentId that is not a string or null", id)
		}
		if hasParent {
			p, found := s.Index[parentID]
			if !found {
				return 0, "", SnapshotFault("node %q has parentId %q, which is not an earlier node", id, parentID)
			}
			parent = p
		}
	}
	return parent, parentID, nil
}

// nodeBranch reads the branch of node id: a name seen before is taken
// without a copy, a new one is checked.
func (s *Session) nodeBranch(f *nodeFields, id string) (string, *Error) {
	branch := ""
	if body, plain := f.plainBody(f.branch, asciiBranch); plain {
		// Names seen before were validated then; consecutive nodes mostly
		// share one (a map lookup per node was 4.7 % of a load in wasm).
		if b := s.LastBranch; b != nil && b.Name == string(body) {
			branch = b.Name
		} else if b := s.ByName[string(body)]; b != nil {
			branch = b.Name
		}
	}
	if branch == "" {
		var ok bool
		branch, _, ok = nodeField(f.branch)
		if !ok || !names.ValidBranch(branch) {
			return "", SnapshotFault("node %q has a bad branch: it must be a name of 1–128 characters without control characters", id)
		}
	}
	return branch, nil
}

// fillNode sets node id's entry, message or summary from f by its kind
// (valid: the snapshot is known valid JSON, see ParseSnapshotOf).
func (s *Session) fillNode(n *Node, f *nodeFields, kind, id string, parent int32, valid bool) *Error {
	if entries.IsKind(kind) {
		if f.entry == nil {
			return SnapshotFault("node %q of kind %q has no entry object", id, kind)
		}
		if f.message != nil || f.summary != nil {
			return SnapshotFault("node %q of kind %q must not have a message or summary", id, kind)
		}
		e, perr := entries.ParseBody(kind, f.entry, jsonx.Sprintf("node %q entry", id))
		if perr != nil {
			return SnapshotFault("%s", perr.Error())
		}
		if err := s.CheckEntryPlaceOf(kind, e, parent, id, jsonx.Sprintf("node %q entry", id)); err != nil {
			return SnapshotFault("%s", err.Message)
		}
		n.Entry = e
	} else if f.entry != nil && (kind == formats.KindMessage || kind == formats.KindSummary) {
		return SnapshotFault("node %q of kind %q must not have an entry", id, kind)
	}
	switch {
	case entries.IsKind(kind):
	case kind == formats.KindMessage:
		if f.message == nil {
			return SnapshotFault("node %q of kind \"message\" has no message", id)
		}
		if f.summary != nil {
			return SnapshotFault("node %q of kind \"message\" must not have a summary", id)
		}
		// The field name is formatted only for a fault: fmt.Sprintf per node
		// was a visible share of loading 100,000 nodes.
		msg, role := f.message, f.role
		if f.msgFault || role == "" {
			var err *Error
			if msg, role, err = ValidateMessageOf(f.message, "message", valid); err != nil {
				_, _, err = ValidateMessage(f.message, jsonx.Sprintf("node %q message", id))
				return SnapshotFault("%s", err.Message)
			}
		}
		n.Message, n.MessageRole = msg, role
	case kind == formats.KindSummary:
		summary, present, ok := nodeField(f.summary)
		if !present || !ok {
			return SnapshotFault("node %q of kind \"summary\" has no summary string", id)
		}
		if f.message != nil {
			return SnapshotFault("node %q of kind \"summary\" must not have a message", id)
		}
		n.Summary = summary
	default:
		return SnapshotFault("node %q has a bad kind %q (known: %s)", id, kind, entries.NodeKinds())
	}
	return nil
}
