package views

import (
	"github.com/sessiontree/sessiontree/core/internal/entries"
	"github.com/sessiontree/sessiontree/core/internal/formats"
	"github.com/sessiontree/sessiontree/core/internal/msgtext"
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

// ExportView hands the session to an exporter: its nodes, path and
// annotations, without the store's indexes, and the path's texts (every
// node's when all) and the context messages when text and context say so.
func ExportView(s *tree.Session, text, context, all bool) *formats.ExportSession {
	v := &formats.ExportSession{ID: s.ID(), Title: s.Title, CreatedAt: s.CreatedAt, Active: s.Active,
		Nodes: make([]formats.ExportNode, len(s.Nodes)), Cursor: s.Cursor, Path: s.Path(s.Cursor),
		Annotations: make([]tree.RawMessage, len(s.Annotations))}
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
		case n.Kind == formats.KindMessage:
			n.Text = msgtext.MessageText(n.Message)
		case n.Kind == formats.KindSummary:
			n.Text = n.Summary
		case n.Entry != nil:
			n.Text = entries.Text(n.Kind, n.Entry)
		}
	}
	for k, a := range s.Annotations {
		v.Annotations[k] = a.AppendJSON(nil)
		if a.Kind == tree.AnnotationLabel {
			v.Labels = append(v.Labels, formats.ExportLabel{NodeID: a.NodeID, Label: a.Label, Timestamp: a.Timestamp})
		}
	}
	return v
}
