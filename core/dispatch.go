package core

import (
	"bytes"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/importplan"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// operation is one entry of the dispatch table.
type operation struct {
	name   string   // the request's "operation"
	fields []string // request fields besides "operation"
	run    func(st *Store, r *request) (any, *Error)
	flags  opFlags
}

// opFlags say what an operation may do and who may call it (see
// OperationInfo); the zero value is a public operation that may change
// the store and move a cursor.
type opFlags uint8

const (
	// readOnly: the operation never changes the store, whatever its
	// request (caches such as the search index do not count).
	readOnly opFlags = 1 << iota
	// keepsCursor: the operation changes the store but never moves any
	// session's cursor (the annotations).
	keepsCursor
	// internal: only CallInternal answers it (the JS shim's own
	// operations); Call treats its name as unknown.
	internal
)

// operations is the dispatch table: every operation of SPEC.md, plus
// "node" (one full node), the internal "restore", "sync.merge" and
// "sync.forget" (used by the JS shim through CallInternal to bring back a
// session from IndexedDB and to take in what other tabs stored; see
// ops_store.go), the annotations "label", "hide" and "prefer"
// (ops_annotate.go), "diff" (ops_view.go), "command" (ops_command.go) and
// the panel service "remote.list|session|jump|fork" (panel.go). Filled in init
// from operationList: a map variable with an initializer would refer to
// itself through Call.
var operations map[string]operation

func init() {
	operations = make(map[string]operation, len(operationList))
	for _, op := range operationList {
		operations[op.name] = op
	}
}

// operationList is the dispatch table as written, one operation a line:
// static data (the compiler lays out a package-level literal of constants
// and functions in the binary), where the same table written as a map
// literal in init took 24.5 KB of wasm code that V8 compiled and ran at
// every start of the program (the few entries that call panelOp are
// still filled in at init). Read it through operations.
var operationList = [...]operation{
	{"create", []string{"sessionId", "title"}, opCreate, 0},
	{"append", []string{"sessionId", "message", "entry", "branch", "root"}, opAppend, 0},
	{"list", []string{"sessionId"}, opList, readOnly},
	{"node", []string{"sessionId", "nodeId"}, opNode, readOnly},
	{"branches", []string{"sessionId"}, opBranches, readOnly},
	{"tree", []string{"sessionId", "showHidden"}, opTree, readOnly},
	{"tree.rows", []string{"sessionId", "offset", "limit", "around"}, opTreeRows, readOnly},
	{"map", []string{"sessionId", "revision"}, opMap, readOnly},
	{"family", []string{"sessionId"}, opFamily, readOnly},
	{"jump", []string{"sessionId", "nodeId"}, opJump, 0},
	{"leaf", []string{"sessionId", "nodeId"}, opLeaf, readOnly},
	{"switch", []string{"sessionId", "nodeId", "branch"}, opSwitch, 0},
	{"fork", []string{"sessionId", "nodeId", "newSessionId", "branch"}, opFork, 0},
	{"clone", []string{"sessionId", "newSessionId"}, opClone, 0},
	{"context", []string{"sessionId", "ids"}, opContext, readOnly},
	{"session", []string{"sessionId"}, opSession, readOnly},
	{"branch", []string{"sessionId", "nodeId", "branch"}, opBranch, 0},
	{"branch.summary", []string{"sessionId", "nodeId", "branch", "summary"}, opBranchSummary, 0},
	{"snapshot.save", []string{"sessionId"}, opSnapshotSave, readOnly},
	{"snapshot.load", []string{"sessionId", "snapshot"}, opSnapshotLoad, 0},
	{"sessions", []string{"order", "limit", "before"}, opSessions, readOnly},
	{"label", []string{"sessionId", "nodeId", "label"}, opLabel, keepsCursor},
	{"hide", []string{"sessionId", "nodeId", "hidden"}, opHide, keepsCursor},
	{"prefer", []string{"sessionId", "nodeId"}, opPrefer, keepsCursor},
	{"rename", []string{"sessionId", "title"}, opRename, keepsCursor},
	{"diff", []string{"sessionId", "from", "to"}, opDiff, readOnly},
	{"command", []string{"line", "sessionId"}, opCommand, 0},
	{"remote.list", []string{"sessionId"}, panelOp("session"), readOnly},
	{"remote.session", []string{"sessionId"}, panelOp("session"), readOnly},
	{"remote.jump", []string{"sessionId", "nodeId"}, panelOp("jump"), 0},
	{"remote.fork", []string{"sessionId", "nodeId", "branch"}, panelOp("fork"), 0},
	{"import", []string{"data", "format"}, opImport, 0},
	{"export", []string{"sessionId", "format", "scope"}, opExport, readOnly},
	{"restore", []string{"snapshot", "title", "createdAt", "updatedAt", "deletedAt", "tool", "project"}, opRestore, internal},
	{"search", []string{"query", "sessionId", "limit", "roles", "branch"}, opSearch, readOnly},
	{"sync.merge", []string{"sessionId", "nodes", "annotations", "title", "updatedAt", "cursor", "activeBranch"}, opSyncMerge, internal},
	{"sync.forget", []string{"sessionId"}, opSyncForget, internal},
	{"sync.trash", []string{"sessionId", "deletedAt"}, opSyncTrash, internal},
	{"delete", []string{"sessionId", "permanent"}, opDelete, 0},
	{"trash.list", nil, opTrashList, readOnly},
	{"trash.restore", []string{"sessionId"}, opTrashRestore, 0},
	{"trash.empty", []string{"sessionId"}, opTrashEmpty, 0},
	{"append.many", []string{"sessionId", "messages", "branch", "create", "title"}, opAppendMany, 0},
	{"page.stub", []string{"sessions"}, opPageStub, internal},
	{"page.out", []string{"sessionId"}, opPageOut, internal},
	{"page.faults", nil, opPageFaults, internal},
	{"page.damaged", []string{"sessionId", "message"}, opPageDamaged, internal},
	{"import.report", []string{"sessionId"}, opImportReport, readOnly | internal},
	{"import.batches", []string{"files", "bytes"}, opImportBatches, readOnly | internal},
}

// OperationInfo describes one operation of the dispatch table, as the
// wasm binding hands it to the JS shim:
// {"name","readOnly","keepsCursor","public"}.
type OperationInfo struct {
	Name string `json:"name"`
	// ReadOnly: the operation never changes the store, whatever its request
	// ("command" is not: some of its lines change a session).
	ReadOnly bool `json:"readOnly"`
	// KeepsCursor: the operation changes the store but never moves any
	// session's cursor ("label", "hide", "prefer"); false for read-only
	// operations, which change nothing.
	KeepsCursor bool `json:"keepsCursor"`
	// Public: Call and Run (so core/wire's CallParsed and CallColumns)
	// answer it; the others ("restore", "sync.merge", "sync.forget") only
	// CallInternal.
	Public bool `json:"public"`
}

// OperationInfos returns every operation of the dispatch table, public and
// internal, sorted by name. The slice is new on every call.
func OperationInfos() []OperationInfo {
	// sort.Strings rather than slices.Sorted(maps.Keys(…)): 18 KB less
	// wasm for this instantiation.
	names := make([]string, 0, len(operations))
	for name := range operations {
		names = append(names, name)
	}
	sort.Strings(names)
	infos := make([]OperationInfo, len(names))
	for i, name := range names {
		f := operations[name].flags
		infos[i] = OperationInfo{Name: name, ReadOnly: f&readOnly != 0, KeepsCursor: f&keepsCursor != 0, Public: f&internal == 0}
	}
	return infos
}

// OperationInfosJSON returns OperationInfos as one JSON array,
// [{"name":…,"readOnly":…,"keepsCursor":…,"public":…},…], the bytes
// encoding/json makes of it. Written member by member, not by reflection:
// the wasm's handle answers it at every start, when its code is not yet
// optimised, and reflection took 24–27 ms there (3,000 stored sessions,
// Chromium, this project's machine) where this takes well under one.
func OperationInfosJSON() []byte {
	infos := OperationInfos()
	out := make([]byte, 0, 80*len(infos))
	out = append(out, '[')
	for i, info := range infos {
		if i > 0 {
			out = append(out, ',')
		}
		out = jsonx.AppendString(append(out, `{"name":`...), info.Name)
		out = jsonx.AppendBool(append(out, `,"readOnly":`...), info.ReadOnly)
		out = jsonx.AppendBool(append(out, `,"keepsCursor":`...), info.KeepsCursor)
		out = jsonx.AppendBool(append(out, `,"public":`...), info.Public)
		out = append(out, '}')
	}
	return append(out, ']')
}

// Operations returns the names of the public operations (those Call
// answers), sorted.
func Operations() []string {
	var names []string
	for _, info := range OperationInfos() {
		if info.Public {
			names = append(names, info.Name)
		}
	}
	return names
}

// Call answers one JSON request {"operation": NAME, …} with one JSON
// envelope: {"ok":true,"value":…} or
// {"ok":false,"error":{"code":CODE,"message":TEXT}}. Any input, valid or
// not, gives exactly one envelope; a call that fails changes nothing.
// The store may keep parts of req (messages, ids): the caller must not
// change req afterwards. Call answers only public operations (see
// OperationInfo): an internal one is INVALID_ARGUMENT "unknown operation",
// exactly as a misspelled name is, and changes nothing. With a memory
// budget, a request of an operation that may change the store whose
// answer would pass it (len(req) × RequestGrowth on top of the memory in
// use) is INVALID_ARGUMENT before its fields are read; read-only
// operations are answered whatever the memory in use.
func (st *Store) Call(req []byte) []byte {
	return st.call(req, true, false).Envelope()
}

// CallInternal is Call for every operation, public and internal: the JS
// shim's own "restore", "sync.merge" and "sync.forget", which bring into
// memory what IndexedDB already holds and so must never come from a
// caller of the public call (they would change memory and not storage).
func (st *Store) CallInternal(req []byte) []byte {
	return st.call(req, true, true).Envelope()
}

// Run is Call without the encoding: it answers the request as Call does
// (public operations only, a failed call changes nothing) and returns the
// outcome as a Go value, for a caller that writes the answer its own way
// (package core/wire: the browser's ASCII and columns answers). Answer's
// Envelope gives Call's bytes.
func (st *Store) Run(req []byte) Answer {
	return st.call(req, true, false)
}

// Answer is the outcome of one call before it is encoded: exactly one of
// Value and Err is set (Value may be nil for an operation whose value is
// null).
type Answer struct {
	// Operation is the operation the request named, as it named it
	// ("remote.jump", not the "jump" it runs); "" when the call failed
	// before the operation ran (bad JSON, an unknown operation or field).
	Operation string
	// Value is the operation's value: a type of this package that
	// jsonx.Marshal encodes as its JSON (context gives a ContextView, which
	// is encoded only when asked), or RawMessage.
	Value any
	// Err is the error of a call that failed and changed nothing.
	Err *Error
}

// Envelope encodes the answer as Call answers it.
func (a Answer) Envelope() []byte {
	if a.Err != nil {
		return ErrorEnvelope(a.Err)
	}
	const head = `{"ok":true,"value":`
	if ap, ok := a.Value.(jsonx.Appender); ok {
		// Large values (context, snapshot.save) are written straight into
		// the envelope: one copy of 25 MB instead of two.
		return append(ap.AppendJSON(append(make([]byte, 0, 64), head...)), '}')
	}
	raw, ok := a.Value.(RawMessage)
	if !ok {
		var merr error
		if raw, merr = jsonx.Marshal(a.Value); merr != nil {
			return ErrorEnvelope(tree.Invalidf("internal error encoding the value of %q: %v", a.Operation, merr))
		}
	}
	out := make([]byte, 0, len(raw)+len(head)+1)
	out = append(out, head...)
	out = append(out, raw...)
	return append(out, '}')
}

// ErrorEnvelope returns the envelope for err:
// {"ok":false,"error":{"code":…,"message":…}}, with "reason":… after the
// message when err has a Reason, then "files":[…] when it has Files.
func ErrorEnvelope(err *Error) []byte {
	b := []byte(`{"ok":false,"error":{"code":`)
	b = jsonx.AppendString(b, string(err.Code))
	b = append(b, `,"message":`...)
	b = jsonx.AppendString(b, err.Message)
	if err.Reason != "" {
		b = append(b, `,"reason":`...)
		b = jsonx.AppendString(b, string(err.Reason))
	}
	if len(err.Files) > 0 {
		if raw, merr := jsonx.Marshal(err.Files); merr == nil { // plain strings and ints: never fails
			b = append(b, `,"files":`...)
			b = append(b, raw...)
		}
	}
	return append(b, "}}"...)
}

// call runs one request; withInternal lets it name an internal operation.
// guess lets the request scan take a snapshot that looks like the last
// member without scanning it (every caller but the tests that compare both
// ways passes true); a failure after a guess runs again without it.
func (st *Store) call(req []byte, guess, withInternal bool) Answer {
	if !jsonx.ValidUTF8(req) {
		if !withInternal {
			return Answer{Err: tree.Invalidf("request is not valid UTF-8")}
		}
		// The shim's own requests carry stored records: builds before
		// importplan.ToUTF8 replaced such bytes stored them as imported, and
		// a session holding one must still load. Read as U+FFFD.
		req, _, _ = importplan.ReplaceInvalidUTF8(req)
	}
	trimmed := bytes.TrimSpace(req)
	if bytes.HasPrefix(trimmed, []byte("\uFEFF")) {
		return Answer{Err: tree.Invalidf("request begins with a byte order mark (U+FEFF): JSON text has none; send the object without it")}
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Answer{Err: tree.Invalidf("request must be a JSON object like {\"operation\":\"session\",\"sessionId\":\"demo\"}")}
	}
	a, guessed := st.dispatch(trimmed, guess, withInternal)
	if a.Err != nil && guessed {
		// The guess that the snapshot is the last member may be what
		// failed: a failed operation changed nothing, so run it again with
		// the snapshot delimited by a scan.
		a, _ = st.dispatch(trimmed, false, withInternal)
	}
	return a
}

// dispatch scans the request object req and runs its operation. guess lets
// scanRequest take a snapshot that looks like the last member without
// scanning it (guessed reports that it did). Without withInternal an
// internal operation is unknown.
func (st *Store) dispatch(req []byte, guess, withInternal bool) (_ Answer, guessed bool) {
	fields, unchecked, guessed, serr := scanRequest(req, guess)
	if dup, ok := serr.(repeatedField); ok {
		return Answer{Err: tree.Invalidf("field %q appears more than once in the request; give each field once", string(dup))}, guessed
	}
	if serr != nil {
		return Answer{Err: tree.Invalidf("request is not valid JSON: %s", jsonx.ErrorText(serr))}, guessed
	}
	r := &request{fields: fields, unchecked: unchecked}
	opRaw, ok := fields["operation"]
	if !ok {
		return Answer{Err: tree.Invalidf("request has no \"operation\" field")}, guessed
	}
	if r.op, ok = jsonx.ParseString(opRaw); !ok {
		return Answer{Err: tree.Invalidf("field \"operation\" must be a string")}, guessed
	}
	op, ok := operations[r.op]
	if !ok || op.flags&internal != 0 && !withInternal {
		return Answer{Err: tree.Invalidf("unknown operation %q (known: %s)", r.op, strings.Join(Operations(), ", "))}, guessed
	}
	if op.flags&(internal|readOnly) == 0 {
		// A read leaves only garbage, which the collector takes back: it
		// is answered even past the budget, so a full store still reads.
		if err := st.s.Reserve("request", 0, len(req), RequestGrowth); err != nil {
			return Answer{Err: err}, guessed
		}
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) { // sorted: the same unknown field is named every time
		if name == "operation" {
			continue
		}
		known := false
		for _, f := range op.fields {
			if f == name {
				known = true
				break
			}
		}
		if !known && len(op.fields) == 0 {
			return Answer{Err: tree.Invalidf("unknown field %q for operation %q (it takes no field but \"operation\")", name, r.op)}, guessed
		}
		if !known {
			return Answer{Err: tree.Invalidf("unknown field %q for operation %q (allowed: %s)", name, r.op, strings.Join(op.fields, ", "))}, guessed
		}
	}
	opName := r.op // op.run may rename r.op (panelOp)
	r.called = r.op
	v, err := op.run(st, r)
	if err != nil {
		return Answer{Operation: opName, Err: err}, guessed
	}
	return Answer{Operation: opName, Value: v}, guessed
}

// scanRequest reads the members of a request object (data, trimmed),
// validating every byte once. The one exception is an object under
// "snapshot": it is only delimited here (unchecked is true) and validated
// by the snapshot parser as it reads it, so the bulk of a snapshot.load or
// restore is scanned once instead of twice. Whatever the delimiting makes
// of bad JSON, the parser sees every byte of the slice and refuses it, and
// the rest of the request is validated as usual; a snapshot that a later
// "snapshot" member replaces never reaches the parser, so it is validated
// here when that member is met.
//
// With guess, a snapshot object that looks like the request's last member
// (the request ends in "}" and white space and "}") is not even delimited:
// it is taken to run to the request's closing brace (guessed is true) and
// the members walk ends there. The snapshot parser refuses anything after
// its object, so a wrong guess fails the operation, and Call then runs it
// again without guessing. The delimiting scan was a whole pass over the
// bytes: 15 % of a snapshot.load in the browser.
//
// A member repeated fails the scan with repeatedField naming it: which of
// two values a request meant cannot be known, and a request spliced from
// text (a snapshot's, js/tree-api.js loadSnapshot) could otherwise have
// its text replace the request's own fields.
func scanRequest(data []byte, guess bool) (fields map[string]RawMessage, unchecked, guessed bool, err error) {
	var snapshot []byte
	delimited := -1 // where the snapshot only delimited so far starts
	members := 0
	fields, err = jsonx.ScanMembers[RawMessage](data, false, func(sc *jsonx.Scanner, key []byte) (bool, error) {
		members++
		if string(key) != "snapshot" {
			return false, nil
		}
		if delimited >= 0 {
			// A later "snapshot" member replaces it, so the snapshot parser
			// will never see it: check its bytes here.
			prev := jsonx.Scanner{Data: data, Pos: delimited}
			if _, _, err := prev.Value(); err != nil {
				return false, err
			}
			delimited = -1
		}
		sc.SkipSpace()
		if unchecked = sc.Peek() == '{'; !unchecked {
			return false, nil
		}
		delimited = sc.Pos
		last := len(data) - 1 // the request's closing brace, when the guess holds
		if guess && !guessed && data[last] == '}' {
			body := bytes.TrimRight(data[sc.Pos:last], " \t\n\r")
			if len(body) > 1 && body[len(body)-1] == '}' {
				snapshot, guessed = body, true
				sc.Pos = last
				return true, nil
			}
		}
		snapshot = sc.SkipValid()
		return true, nil
	})
	if unchecked && err == nil {
		fields["snapshot"] = snapshot
	}
	if err == nil && members != len(fields) {
		err = firstRepeated(data)
	}
	return fields, unchecked, guessed, err
}

// repeatedField is the error of a request object that holds a member more
// than once: its name.
type repeatedField string

func (f repeatedField) Error() string { return "field " + string(f) + " repeated" }

// firstRepeated returns the repeatedField of the first member of the
// request object data (scanned by scanRequest: its members valid but for
// a "snapshot" object, only delimited) whose name an earlier member has.
func firstRepeated(data []byte) error {
	seen := map[string]bool{}
	_, err := jsonx.ScanMembers[RawMessage](data, false, func(sc *jsonx.Scanner, key []byte) (bool, error) {
		if seen[string(key)] {
			return true, repeatedField(key)
		}
		seen[string(key)] = true
		if sc.SkipSpace(); string(key) == "snapshot" && sc.Peek() == '{' {
			sc.SkipValid()
			return true, nil
		}
		return false, nil
	})
	return err
}

// request gives typed access to the fields of one request.
type request struct {
	// op is the operation that runs: the one the request names, or the
	// one a panel call runs under it (panelOp: "jump" for "remote.jump"),
	// which changes record; called is the one the request names, which
	// error messages name.
	op, called string
	// fields: every one was scanned by Call, so it is valid JSON without
	// insignificant white space (no request is built elsewhere), but for
	// an unchecked "snapshot".
	fields map[string]RawMessage
	// unchecked: the "snapshot" field was only delimited by Call, not
	// validated (see scanRequest); the snapshot parser validates it.
	unchecked bool
}

// snapshotValid tells the snapshot parser whether the "snapshot" field is
// known to be valid, compact JSON.
func (r *request) snapshotValid() bool { return !r.unchecked }

// has reports whether field is present and not null.
func (r *request) has(field string) bool {
	raw, ok := r.fields[field]
	return ok && !bytes.Equal(raw, []byte("null"))
}

// str returns a required string field.
func (r *request) str(field string) (string, *Error) {
	if !r.has(field) {
		return "", tree.Invalidf("field %q is required for operation %q", field, r.called)
	}
	return r.optStr(field)
}

// optStr returns an optional string field ("" when absent or null). A
// stored text field (storedText) holding a lone surrogate escape is
// INVALID_ARGUMENT naming it: a Go string would keep U+FFFD in its place,
// and the title, label or summary stored would not be the one sent.
func (r *request) optStr(field string) (string, *Error) {
	if !r.has(field) {
		return "", nil
	}
	raw := r.fields[field]
	s, ok := jsonx.ParseString(raw)
	if !ok {
		return "", tree.Invalidf("field %q must be a string", field)
	}
	if storedText[field] && jsonx.LoneSurrogate(raw) >= 0 {
		return "", tree.Invalidf("field %q holds a lone UTF-16 surrogate (half of a character cut in two); titles, labels, summaries and command lines must be valid Unicode", field)
	}
	return s, nil
}

// storedText are the request fields whose string is stored as it is sent
// (docs/DECISIONS.md, Names): a session's title, a node's label, a branch
// summary's text, and a command's line (its words become titles, labels
// and names). Ids and branch names have their own check (nameField);
// message content is kept as its JSON, lone surrogates and all.
var storedText = map[string]bool{"title": true, "label": true, "summary": true, "line": true}

// sessionID returns the required, well-formed "sessionId" field.
func (r *request) sessionID() (string, *Error) {
	return r.idField("sessionId")
}

// idField returns a required session-id field checked by NameProblem.
func (r *request) idField(field string) (string, *Error) {
	id, err := r.str(field)
	if err != nil {
		return "", err
	}
	if err := r.nameField(field, id, MaxSessionIDLength); err != nil {
		return "", err
	}
	return id, nil
}

// branchName returns a branch-name field; required says whether it must be
// present. Names are checked by NameProblem (1–128 characters).
func (r *request) branchName(field string, required bool) (string, *Error) {
	if !r.has(field) {
		if required {
			return "", tree.Invalidf("field %q is required for operation %q", field, r.called)
		}
		return "", nil
	}
	name, err := r.optStr(field)
	if err != nil {
		return "", err
	}
	if err := r.nameField(field, name, MaxBranchNameLength); err != nil {
		return "", err
	}
	return name, nil
}

// existing returns the session named by "sessionId".
func (r *request) existing(st *Store) (*Session, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	return st.s.Lookup(id)
}

// ValueEnvelope returns {"ok":true,"value":…} for v, encoded like every
// value of Call (no HTML escaping). A value that cannot be encoded gives an
// INVALID_ARGUMENT envelope.
func ValueEnvelope(v any) []byte {
	out, err := jsonx.Marshal(v)
	if err != nil {
		return ErrorEnvelope(tree.Invalidf("internal error encoding a value: %v", err))
	}
	b := make([]byte, 0, len(out)+20)
	b = append(b, `{"ok":true,"value":`...)
	b = append(b, out...)
	return append(b, '}')
}
