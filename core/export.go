package core

import (
	"slices"
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/entries"
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/tree"
)

// Export is the value of export: a file to save. Text is the file's
// contents; Filename is derived from the session id (characters outside
// A–Z a–z 0–9 . _ - become "_", at most 100 bytes); MimeType is what a
// browser download should carry; Scope says what part of the session the
// file holds: "path" (the root→cursor path) or "tree" (every node).
type Export struct {
	Format   string `json:"format"`
	Scope    string `json:"scope"`
	Filename string `json:"filename"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
}

// ExportFormats returns the names of the export formats, sorted.
func ExportFormats() []string {
	return formats.ExportFormats()
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
		text = ex.WriteTree(exportView(s, ex.Text, ex.Context, true))
	default:
		text = ex.Write(exportView(s, ex.Text, ex.Context, false))
	}
	return Export{Format: format, Scope: scope, Filename: formats.ExportFilename(s.ID()) + ex.Ext, MimeType: ex.MIME, Text: string(text)}, nil
}

// exportView hands the session to an exporter: its nodes, path and
// annotations, without the store's indexes, and the path's texts (every
// node's when all) and the context messages when text and context say so.
func exportView(s *Session, text, context, all bool) *formats.ExportSession {
	v := &formats.ExportSession{ID: s.ID(), Title: s.Title, CreatedAt: s.CreatedAt, Active: s.Active,
		Nodes: make([]formats.ExportNode, len(s.Nodes)), Cursor: s.Cursor, Path: s.Path(s.Cursor),
		Annotations: make([]RawMessage, len(s.Annotations))}
	if context {
		v.Context = s.Context().Messages
	}
	for i, n := range s.Nodes {
		v.Nodes[i] = formats.ExportNode{ID: n.ID, ParentID: n.ParentID, Branch: n.Branch, Kind: n.Kind, Timestamp: n.Timestamp,
			Role: n.Role(), Message: n.Message, Summary: n.Summary, Entry: n.Entry, Label: s.Labels[int32(i)], Source: n.Source}
	}
	texts := v.Path
	if all {
		texts = make([]int32, len(v.Nodes))
		for i := range texts {
			texts[i] = int32(i)
		}
	}
	for _, i := range texts {
		if !text {
			break
		}
		n := &v.Nodes[i]
		switch {
		case n.Kind == KindMessage:
			n.Text = MessageText(n.Message)
		case n.Kind == KindSummary:
			n.Text = n.Summary
		case n.Entry != nil:
			n.Text = entries.Text(n.Kind, n.Entry)
		}
	}
	for k, a := range s.Annotations {
		v.Annotations[k] = a.AppendJSON(nil)
		if a.Kind == AnnotationLabel {
			v.Labels = append(v.Labels, formats.ExportLabel{NodeID: a.NodeID, Label: a.Label, Timestamp: a.Timestamp})
		}
	}
	return v
}
