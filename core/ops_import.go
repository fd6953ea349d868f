package core

import (
	"bytes"
	"slices"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/importer"
	"github.com/sessiontree/sessiontree/core/internal/importplan"
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/tree"
	"github.com/sessiontree/sessiontree/core/internal/views"
)

// opAppendMany answers
//
//	{"operation":"append.many","sessionId":…,"messages":[message…],"branch"?:…,"create"?:bool,"title"?:…}
//
// The messages are appended as a chain: the first where append would put
// it (under the cursor on the active branch, or on the tip of branch),
// each next one under the one before; the cursor ends at the last. With
// "create": true the session is made first (SESSION_ALREADY_EXISTS when
// it exists, so a migration run twice adds nothing), titled title, and
// messages may then be empty. Every message is checked before anything is
// added: a bad one is INVALID_ARGUMENT naming it (messages[3].role) and
// changes nothing.
func opAppendMany(st *Store, r *request) (any, *Error) {
	id, err := r.sessionID()
	if err != nil {
		return nil, err
	}
	create, err := r.optBool("create")
	if err != nil {
		return nil, err
	}
	title, err := r.optStr("title")
	if err == nil {
		err = tree.CheckTitle(title) // as rename takes one
	}
	if err != nil {
		return nil, err
	}
	if r.has("title") && !create {
		return nil, tree.Invalidf("field \"title\" of operation \"append.many\" is only for a session it creates (\"create\": true); rename a session with operation \"rename\"")
	}
	msgs, roles, err := r.messageList("messages", create)
	if err != nil {
		return nil, err
	}
	var s *Session
	switch {
	case create && st.s.Taken(id) != nil:
		return nil, st.s.Taken(id)
	case create:
		s = tree.NewSession(id, title, st.s.Timestamp())
	default:
		// A paged-out session faults (the caller loads it and asks again), as every other operation's does.
		if s, err = st.s.Lookup(id); err != nil {
			return nil, err
		}
	}
	p, err := r.placement(s)
	if err != nil {
		return nil, err
	}
	return st.s.AppendChain(s, create, msgs, roles, p, r.op), nil
}

// messageList reads a field holding an array of chat messages, each
// checked as append checks its message; empty is an error unless
// allowEmpty.
func (r *request) messageList(field string, allowEmpty bool) ([]RawMessage, []string, *Error) {
	raw := bytes.TrimSpace(r.fields[field])
	if !r.has(field) {
		return nil, nil, tree.Invalidf("field %q (an array of chat messages) is required for operation %q", field, r.op)
	}
	if raw[0] != '[' {
		return nil, nil, tree.Invalidf("field %q must be an array of chat messages", field)
	}
	var msgs []RawMessage
	var roles []string
	sc := jsonx.Scanner{Data: raw, Valid: true}
	perr := sc.Elements(func(k int, v []byte, _ bool) error {
		m, role, err := tree.ValidateMessageOf(v, jsonx.Sprintf("%s[%d]", field, k), true)
		if err != nil {
			return err
		}
		msgs, roles = append(msgs, m), append(roles, role)
		return nil
	})
	if perr != nil {
		if e, ok := perr.(*Error); ok {
			return nil, nil, e
		}
		return nil, nil, tree.Invalidf("field %q is not valid JSON: %s", field, jsonx.ErrorText(perr))
	}
	if len(msgs) == 0 && !allowEmpty {
		return nil, nil, tree.Invalidf("field %q must hold at least one message", field)
	}
	return msgs, roles, nil
}

// opExport answers export: {sessionId, format, scope?}. scope is "path" or
// "tree"; absent, the format's own (markdown and openai write the path,
// snapshot and pi the whole tree). A scope the format cannot write is
// INVALID_ARGUMENT naming the scopes it can.
func opExport(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	format, err := r.str("format")
	if err != nil {
		return nil, err
	}
	ex, ok := formats.Exporters[format]
	if !ok {
		return nil, tree.Invalidf("field \"format\": unknown export format %q (known: %s)", format, strings.Join(ExportFormats(), ", "))
	}
	scope, err := r.optStr("scope")
	if err != nil {
		return nil, err
	}
	if scope == "" && !r.has("scope") {
		scope = ex.Scope
	}
	if !slices.Contains(ex.Scopes(), scope) {
		return nil, tree.Invalidf("field \"scope\": export format %q writes scope %s, not %q", format, strings.Join(ex.Scopes(), " or "), scope)
	}
	var text []byte
	switch {
	case ex.Write == nil:
		text = append(s.AppendSnapshot(nil), '\n')
	case scope != ex.Scope:
		text = ex.WriteTree(views.ExportView(s, ex.Text, ex.Context, true))
	default:
		text = ex.Write(views.ExportView(s, ex.Text, ex.Context, false))
	}
	return Export{Format: format, Scope: scope, Filename: formats.ExportFilename(s.ID()) + ex.Ext, MimeType: ex.MIME, Text: string(text)}, nil
}

func opImport(st *Store, r *request) (any, *Error) {
	if !r.has("data") {
		return nil, tree.Invalidf("field \"data\" is required for operation \"import\" (the export's text, or its JSON value)")
	}
	format, err := r.optStr("format")
	if err != nil {
		return nil, err
	}
	data := []byte(r.fields["data"])
	if data[0] != '"' && data[0] != '{' && data[0] != '[' {
		return nil, tree.Invalidf("field \"data\" must be the export's text (a string) or its JSON object or array, not %s", tree.Clip(data))
	}
	if data[0] == '"' {
		var text string
		if !jsonx.ReadString(data, &text) {
			return nil, tree.Invalidf("field \"data\" is not a valid JSON string")
		}
		data = []byte(text)
	}
	return st.Import(data, format)
}

// opImportBatches answers how to import a list of files in batches of at
// most "bytes" bytes each (a group larger than that is a batch of its own):
//
//	{"operation":"import.batches","files":[{"path","size"}…],"bytes":N}
//
// INVALID_ARGUMENT when files is not a list of {path, size} with a
// non-negative integer size, or bytes is not a positive integer.
func opImportBatches(st *Store, r *request) (any, *Error) {
	var list []importer.BatchFile
	if !jsonx.ReadList(r.fields["files"], &list, importer.ReadBatchFile) || !r.has("files") {
		return nil, tree.Invalidf("field \"files\" must be a list of {path, size} for operation \"import.batches\"")
	}
	var n int
	if !jsonx.ReadInt(r.fields["bytes"], &n) || n <= 0 {
		return nil, tree.Invalidf("field \"bytes\" must be a positive integer for operation \"import.batches\"")
	}
	limit := int64(n)
	files := make([]ImportFile, len(list))
	sizes := make([]int64, len(list))
	for i, f := range list {
		if f.Size < 0 {
			return nil, tree.Invalidf("import.batches: file %d (%q) has a negative size", i, f.Path)
		}
		files[i].Path, sizes[i] = formats.CleanPath(f.Path), f.Size
	}
	groups, skipped := formats.GroupFiles(files)
	v := &importer.Batches{Batches: [][]int{}, Skipped: [][2]any{}}
	for i, why := range skipped {
		if why != "" {
			v.Skipped = append(v.Skipped, [2]any{i, why})
		}
	}
	v.Batches = importplan.Batches(groups, sizes, limit)
	return v, nil
}

// opImportReport answers the import report's entry of a session as an
// import that made it whole would give it (existing false, every node
// added, no warnings):
//
//	{"operation":"import.report","sessionId":…}
//
// importFile's snapshot fast path (js/local-import.js importSnapshot)
// loads a file with snapshot.load, then asks this, so its report is
// core's as on every other import path. SESSION_NOT_FOUND for an unknown
// session; PAGED_OUT for a stub (the shim loads it and asks again).
func opImportReport(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return importer.NewSessionReport(s, false, len(s.Nodes)), nil
}
