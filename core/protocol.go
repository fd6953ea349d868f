package core

import "slices"

//go:generate go run ./protocolgen

// The contract core shares with the JS shim, written once: the operation
// table (dispatch.go) with the request and value types below, the error
// codes (errors.go), the envelope heads and the constants the shim's
// IndexedDB records follow. `go generate ./...` (core/protocolgen) writes
// it into js/protocol.js and the operations block of js/sessiontree.d.ts;
// core/protocolgen's test fails when either is stale.

// StorageError is the code of the JS shim's own failures (a change that
// could not be written to IndexedDB, a store that stopped): never
// answered by core, listed here so the shim takes it from the contract.
const StorageError Code = "STORAGE_ERROR"

// The heads of every envelope core writes (Call, CallInternal, the
// binding's answers): an answer starts with exactly one of them, so a
// reader of the envelope's text can tell the outcome, and cut out the
// value's exact text, without parsing it.
const (
	EnvelopeOKHead     = `{"ok":true,"value":`
	EnvelopeFailedHead = `{"ok":false,"error":{"code":`
	// EnvelopeColumnsHead starts the binding's context answer in columns
	// (wasm/convert.go), in place of EnvelopeOKHead.
	EnvelopeColumnsHead = `{"ok":true,"columns":`
)

// SnapshotMembers are the members of a snapshot in the order
// snapshot.save writes them (appendSnapshot); "title" and "annotations"
// only when the session has them.
var SnapshotMembers = []string{"version", "sessionId", "title", "cursor", "activeBranch", "nodes", "annotations"}

// OperationSpec is one operation of the contract: its OperationInfo, its
// request fields and the TypeScript types js/sessiontree.d.ts gives its
// request and value.
type OperationSpec struct {
	OperationInfo
	// Fields are the request's members besides "operation", in the table's
	// order; any other member is INVALID_ARGUMENT.
	Fields []string
	// Types are the TypeScript types of Fields (same order), with "?" after
	// the name of an optional one already applied: `title?: string`.
	Types []string
	// Request is the TypeScript type of the whole request when Types do not
	// say it (append: a message or an entry); "" otherwise.
	Request string
	// Value is the TypeScript type of the ok envelope's value; "" for an
	// internal operation.
	Value string
	// Doc is the comment the .d.ts puts above the operation ("" for none).
	Doc string
}

// ProtocolSpec is everything of the contract, for core/protocolgen.
type ProtocolSpec struct {
	// Operations: every operation of the table, sorted by name.
	Operations []OperationSpec
	// Codes: core's six codes, in SPEC.md's order; ShimCodes: the shim's
	// own (StorageError); InternalCodes: codes core answers only to the
	// shim's internal paths (PagedOut), never to a caller.
	Codes, ShimCodes, InternalCodes []Code
	// Reasons: every Reason an envelope's error may carry.
	Reasons []Reason
	// ChunkSize is the number of nodes in a chunk record of the shim's
	// store (DrainGroupNodes: the drain cuts a session only there).
	ChunkSize int
	// SnapshotVersion and SnapshotMembers: see their declarations.
	SnapshotVersion int
	SnapshotMembers []string
	// MaxTitleLength: see its declaration (the shim checks a restore
	// point's name by the same rule).
	MaxTitleLength int
	// MaxQueryLength: the longest search query (the pages' search boxes
	// limit what is typed to it).
	MaxQueryLength int
	// EnvelopeOKHead, EnvelopeFailedHead, EnvelopeColumnsHead: see the
	// constants.
	EnvelopeOKHead, EnvelopeFailedHead, EnvelopeColumnsHead string
}

// opContract is what the contract says of a public operation besides its
// fields: the value's type, the request fields it needs, the fields whose
// type is not fieldTypes' and the .d.ts comment.
type opContract struct {
	value    string
	required []string
	types    map[string]string // field → type, over fieldTypes
	request  string            // the whole request's type, when fields do not say it
	doc      string
}

// fieldTypes returns the TypeScript types of request fields, by name: one
// name means one thing in every operation (an operation's opContract may
// say otherwise). A function, as opContracts, not a package-level map:
// only Protocol (go generate, the tests) reads them, and a map variable
// was built at every start of the wasm program, which never reads it
// (now the linker drops both).
func fieldTypes() map[string]string {
	return map[string]string{
		"sessionId": "string", "newSessionId": "string", "nodeId": "string", "title": "string",
		"branch": "string", "summary": "string", "label": "string", "hidden": "boolean",
		"showHidden": "boolean", "offset": "number", "limit": "number", "around": "string",
		"snapshot": "Snapshot", "from": "string", "to": "string", "line": "string",
		"data": "string | object", "format": "ImportFormat", "scope": "ExportScope",
		"query": "string", "roles": "string[]", "message": "Message", "entry": "Entry",
		"ids": "boolean", "permanent": "boolean", "messages": "Message[]", "create": "boolean",
		"tool": "string", "project": "string", "revision": "string",
	}
}

// opContracts returns, per public operation of the table, its value type
// and required fields (TestEveryPublicOperationHasAContract holds the two
// tables together: an operation added to dispatch.go needs its line here,
// then `go generate ./...`); see fieldTypes for why it is a function.
func opContracts() map[string]opContract {
	return map[string]opContract{
		"create":         {value: "SessionStatus", required: []string{"sessionId"}},
		"append":         {value: "Node", request: "AppendRequest"},
		"list":           {value: "ListItem[]", required: []string{"sessionId"}},
		"node":           {value: "Node", required: []string{"sessionId", "nodeId"}},
		"branches":       {value: "BranchInfo[]", required: []string{"sessionId"}},
		"tree":           {value: "Tree", required: []string{"sessionId"}, doc: "showHidden: draw hidden subtrees too (default false)."},
		"tree.rows":      {value: "TreeRows", required: []string{"sessionId"}},
		"jump":           {value: "SessionStatus", required: []string{"sessionId", "nodeId"}},
		"map":            {value: "SessionMap | SessionMapDelta", required: []string{"sessionId"}, doc: "The session cut into runs without a fork (segments), laid out as a tidy tree; given the revision of an earlier answer whose layout still stands, only what grew (a SessionMapDelta, applied by static/map-model.js applyMapDelta)."},
		"family":         {value: "Family", required: []string{"sessionId"}, doc: "Read-only: the sessions linked to this one by fork, clone and import, as a graph."},
		"fork":           {value: "SessionStatus", required: []string{"sessionId", "nodeId"}, doc: "The value is the status of the NEW session."},
		"clone":          {value: "SessionStatus", required: []string{"sessionId"}, doc: "The value is the status of the NEW session."},
		"context":        {value: "Context | ContextWithIds", required: []string{"sessionId"}, doc: "ids: true adds each message's node id and that node's siblings (ContextWithIds)."},
		"session":        {value: "SessionStatus", required: []string{"sessionId"}},
		"branch":         {value: "SessionStatus", required: []string{"sessionId", "nodeId", "branch"}},
		"branch.summary": {value: "SummaryNode", required: []string{"sessionId", "nodeId", "branch", "summary"}, doc: "The value is the new summary node."},
		"snapshot.save":  {value: "Snapshot", required: []string{"sessionId"}},
		"snapshot.load":  {value: "SessionStatus", required: []string{"sessionId", "snapshot"}},
		"sessions":       {value: "SessionSummary[]", types: map[string]string{"order": `"created" | "updated"`, "before": "SessionPageKey"}, doc: `order "updated": newest first (updatedAt, then sessionId, descending, as UTF-16 code units); limit (1–2³¹−1) and before (the updatedAt and sessionId of the last summary of the page before) page it.`},
		"label":          {value: "Marks", required: []string{"sessionId", "nodeId", "label"}, doc: `label "" clears the label.`},
		"hide":           {value: "Marks", required: []string{"sessionId", "nodeId"}, doc: "hidden defaults to true."},
		"prefer":         {value: "Marks", required: []string{"sessionId", "nodeId"}, types: map[string]string{"nodeId": "string | null"}, doc: "nodeId null clears the preferred path."},
		"diff":           {value: "Diff", required: []string{"sessionId", "from", "to"}, doc: "from and to: node ids or branch names."},
		"command":        {value: "CommandResult", required: []string{"line"}},
		"remote.list":    {value: "PanelView", required: []string{"sessionId"}},
		"remote.session": {value: "PanelView", required: []string{"sessionId"}},
		"remote.jump":    {value: "PanelView", required: []string{"sessionId", "nodeId"}},
		"remote.fork":    {value: "PanelView", required: []string{"sessionId", "nodeId"}},
		"import":         {value: "ImportResult", required: []string{"data"}, doc: "data: the export's text, or its JSON value (an object or an array)."},
		"export":         {value: "ExportFile", required: []string{"sessionId", "format"}, types: map[string]string{"format": "ExportFormat"}},
		"leaf":           {value: "Leaf", required: []string{"sessionId"}, doc: "Read-only: the newest leaf under nodeId (of the whole session without it)."},
		"switch":         {value: "SessionStatus", required: []string{"sessionId"}, doc: "Exactly one of nodeId (go to the newest leaf under it) and branch (go to its tip)."},
		"rename":         {value: "SessionStatus", required: []string{"sessionId", "title"}, doc: `An appended title record; "" clears the title. The session's updatedAt stays (a title is not activity).`},
		"delete":         {value: "TrashItem | Erased", required: []string{"sessionId"}, doc: "To the trash; permanent: true erases at once (value Erased)."},
		"trash.list":     {value: "TrashItem[]"},
		"trash.restore":  {value: "SessionStatus", required: []string{"sessionId"}},
		"trash.empty":    {value: "Erased", doc: "Without sessionId: every session in the trash."},
		"append.many":    {value: "AppendManyResult", required: []string{"sessionId", "messages"}, doc: "A chain of messages in one call, all or nothing; create: true makes the session first."},
		"search":         {value: "SearchResult", required: []string{"query"}, doc: `limit 1–1000 (default 20); roles keep these roles ("summary" for summary nodes); branch keeps nodes of that branch.`},
	}
}

// Protocol returns the contract: every operation of the table with its
// flags, fields and types, the codes, the envelope heads and the shim's
// constants. The value is new on every call.
func Protocol() ProtocolSpec {
	p := ProtocolSpec{
		Codes:               []Code{InvalidArgument, SessionNotFound, SessionAlreadyExists, NodeNotFound, InvalidSnapshot, NotFound},
		ShimCodes:           []Code{StorageError},
		InternalCodes:       []Code{PagedOut},
		Reasons:             []Reason{NothingToImport},
		ChunkSize:           DrainGroupNodes,
		SnapshotVersion:     SnapshotVersion,
		SnapshotMembers:     append([]string(nil), SnapshotMembers...),
		MaxTitleLength:      MaxTitleLength,
		MaxQueryLength:      MaxQueryLength,
		EnvelopeOKHead:      EnvelopeOKHead,
		EnvelopeFailedHead:  EnvelopeFailedHead,
		EnvelopeColumnsHead: EnvelopeColumnsHead,
	}
	contracts, types := opContracts(), fieldTypes()
	for _, info := range OperationInfos() {
		op := operations[info.Name]
		c := contracts[info.Name]
		spec := OperationSpec{OperationInfo: info, Fields: append([]string(nil), op.fields...), Request: c.request, Value: c.value, Doc: c.doc}
		for _, f := range op.fields {
			t, ok := c.types[f]
			if !ok {
				t = types[f]
			}
			if t == "" {
				t = "unknown"
			}
			name := f
			if !slices.Contains(c.required, f) {
				name += "?"
			}
			spec.Types = append(spec.Types, name+": "+t)
		}
		p.Operations = append(p.Operations, spec)
	}
	return p
}
