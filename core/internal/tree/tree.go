package tree

import (
	"strings"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
	"github.com/sessiontree/sessiontree/core/internal/msgtext"
)

// TreeRow is one node of the value of tree, in display order (a preorder
// walk, children in append order).
type TreeRow struct {
	ID       string  `json:"id"`
	ParentID *string `json:"parentId"`
	Branch   string  `json:"branch"`
	Kind     string  `json:"kind"`
	Role     string  `json:"role"`
	Preview  string  `json:"preview"`
	// Depth is the number of nodes from the root to this one (1 for a root).
	Depth int `json:"depth"`
	// Indent is the drawing level: it grows only below a node with more
	// than one child, so a linear run stays at one level.
	Indent     int  `json:"indent"`
	ChildCount int  `json:"childCount"`
	OnPath     bool `json:"onPath"`
	Cursor     bool `json:"cursor"`
	// TipOf names the branch whose tip this node is ("" when none).
	TipOf string `json:"tipOf,omitempty"`
	// Label is the node's label annotation ("" when none).
	Label string `json:"label,omitempty"`
	// Hidden: the node or an ancestor is hidden (a hide annotation);
	// HiddenRoot: the hide annotation is on this very node.
	Hidden     bool `json:"hidden"`
	HiddenRoot bool `json:"hiddenRoot,omitempty"`
	// Preferred: the node is on the preferred path (a prefer annotation).
	Preferred bool `json:"preferred"`
}

// Tree is the value of tree: rows for a panel (every node, hidden ones
// flagged) and a text rendering (see Session.Tree).
type Tree struct {
	SessionID    string    `json:"sessionId"`
	Cursor       *string   `json:"cursor"`
	ActiveBranch string    `json:"activeBranch"`
	Roots        []string  `json:"roots"`
	Rows         []TreeRow `json:"rows"`
	Text         string    `json:"text"`
}

// TextPreviewLength is the preview length in the ASCII tree, in characters.
const TextPreviewLength = 60

// Elision of linear runs: a stretch of more than MaxPlain plain nodes is
// drawn as its first KeepPlain nodes, one "···" line and its last
// KeepPlain nodes.
const (
	MaxPlain  = 12
	KeepPlain = 2
)

// Tree builds the value of tree. The text draws one line per node in the
// manner of the Pi coding agent's tree view: a linear run stays at one
// indent, a branch point opens "├─ "/"└─ " connectors. Beyond Pi:
//
//   - inside a linear run, a stretch of more than MaxPlain plain nodes is
//     drawn as its first and last KeepPlain nodes around one line
//     "··· N nodes (first … last)"; a node is plain unless it starts or ends
//     the run, is the cursor, has a label, is a branch tip or ends the
//     preferred path — a 10,000-node chain takes 7 lines;
//   - a hidden subtree is drawn as one line "ID [hidden: N nodes]";
//   - marks after the preview: "[branch]" on a branch tip ("*" for the
//     active branch), "[label: …]", "★ preferred" at the end of the
//     preferred path, "← cursor" (or "← cursor inside" on a hidden line).
//
// Previews are cut between whole characters (Preview). Rows hold every
// node in the same preorder, hidden or elided ones included.
func (s *Session) Tree() Tree { return s.TreeView(false) }

// TreeView is Tree; with showHidden the text also draws hidden subtrees,
// marking the hidden node "(hidden)" instead of folding it into one line.
func (s *Session) TreeView(showHidden bool) Tree {
	t := Tree{
		SessionID:    s.id,
		Cursor:       Nullable(s.NodeID(s.Cursor)),
		ActiveBranch: s.Active,
		Roots:        []string{},
		Rows:         make([]TreeRow, 0, len(s.Nodes)),
	}
	vt := s.ViewTree()
	onPath := vt.PathFlags(s.Cursor) // nil without a cursor
	tipOf := make(map[int32]string, len(s.Branches))
	for _, b := range s.Branches {
		if b.Tip >= 0 {
			tipOf[b.Tip] = b.Name
		}
	}
	hidden, preferred := vt.HiddenFlags(), vt.PathFlags(s.Preferred)
	var size []int32 // subtree sizes, only when something is hidden
	if hidden != nil {
		size = vt.SubtreeSizes()
	}
	for i, p := range s.Parent {
		if p < 0 {
			t.Roots = append(t.Roots, s.Nodes[i].ID)
		}
	}
	var text strings.Builder
	for run := range vt.Runs(showHidden) {
		for _, i := range run.Nodes {
			n := s.Nodes[i]
			t.Rows = append(t.Rows, TreeRow{
				ID:         n.ID,
				ParentID:   Nullable(n.ParentID),
				Branch:     n.Branch,
				Kind:       n.Kind,
				Role:       n.Role(),
				Preview:    n.PreviewText(),
				Depth:      int(s.Depth[i]),
				Indent:     run.Indent,
				ChildCount: int(s.Children[i]),
				OnPath:     onPath != nil && onPath[i],
				Cursor:     i == s.Cursor,
				TipOf:      tipOf[i],
				Label:      s.Labels[i],
				Hidden:     hidden != nil && hidden[i],
				HiddenRoot: s.hiddenRoots[i],
				Preferred:  preferred != nil && preferred[i],
			})
		}
		if !run.Quiet {
			s.drawRun(&text, run.Nodes, run.First, run.Below, lineMarks{tipOf, size, onPath, showHidden})
		}
	}
	t.Text = text.String()
	return t
}

// lineMarks is what drawLine needs besides the node: branch tips, subtree
// sizes (for hidden lines), the cursor path (nil without a cursor) and
// whether hidden subtrees are drawn.
type lineMarks struct {
	tipOf      map[int32]string
	size       []int32
	onPath     []bool
	showHidden bool
}

// drawRun writes the text lines of one linear run: the first with first as
// its prefix, the others with below. Only the last node of a run can be a
// hidden root; it is drawn as a placeholder line.
func (s *Session) drawRun(text *strings.Builder, run []int32, first, below string, m lineMarks) {
	plain := func(k int) bool {
		i := run[k]
		_, labeled := s.Labels[i]
		return k > 0 && k < len(run)-1 && i != s.Cursor && !labeled && m.tipOf[i] == "" && i != s.Preferred && !s.hiddenRoots[i]
	}
	for k := 0; k < len(run); k++ {
		prefix := below
		if k == 0 {
			prefix = first
		}
		if plain(k) {
			end := k
			for end+1 < len(run) && plain(end+1) {
				end++
			}
			if end-k+1 > MaxPlain {
				for _, j := range run[k : k+KeepPlain] {
					s.drawLine(text, j, prefix, m)
					prefix = below
				}
				from, to := k+KeepPlain, end-KeepPlain
				jsonx.Fprintf(text, "%s··· %d nodes (%s … %s)\n", prefix, to-from+1, s.Nodes[run[from]].ID, s.Nodes[run[to]].ID)
				for _, j := range run[to+1 : end+1] {
					s.drawLine(text, j, prefix, m)
				}
				k = end
				continue
			}
		}
		s.drawLine(text, run[k], prefix, m)
	}
}

// drawLine writes the text line of node i.
func (s *Session) drawLine(text *strings.Builder, i int32, prefix string, m lineMarks) {
	n := s.Nodes[i]
	text.WriteString(prefix)
	text.WriteString(n.ID)
	if s.hiddenRoots[i] && !m.showHidden {
		jsonx.Fprintf(text, " [hidden: %s]", Plural(int(m.size[i]), "node"))
		if m.onPath != nil && m.onPath[i] {
			text.WriteString("  ← cursor inside")
		}
		text.WriteByte('\n')
		return
	}
	text.WriteByte(' ')
	text.WriteString(n.Role())
	text.WriteString(": ")
	text.WriteString(msgtext.Preview(NodeText(n), TextPreviewLength))
	if tip := m.tipOf[i]; tip != "" {
		text.WriteString("  [")
		text.WriteString(tip)
		if tip == s.Active {
			text.WriteByte('*')
		}
		text.WriteByte(']')
	}
	if label, ok := s.Labels[i]; ok {
		text.WriteString("  [label: ")
		text.WriteString(label)
		text.WriteByte(']')
	}
	if i == s.Preferred {
		text.WriteString("  ★ preferred")
	}
	if s.hiddenRoots[i] {
		text.WriteString("  (hidden)")
	}
	if i == s.Cursor {
		text.WriteString("  ← cursor")
	}
	text.WriteByte('\n')
}

// Plural returns "1 node", "2 nodes", "3 branches", "0 leaves".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	switch {
	case noun == "leaf":
		noun = "leaves"
	case strings.HasSuffix(noun, "ch"):
		noun += "es"
	default:
		noun += "s"
	}
	return jsonx.Sprintf("%d %s", n, noun)
}

// MarshalJSON encodes the tree as encoding/json would (same fields, same
// order, no HTML escaping) without reflection: a panel asks for it after
// every click, and reflection costs about as much as building the rows.
func (t Tree) MarshalJSON() ([]byte, error) {
	return t.AppendJSON(make([]byte, 0, 64+len(t.Text)+len(t.Rows)*192)), nil
}

// AppendJSON appends the bytes MarshalJSON returns to b and returns the
// extended buffer.
func (t *Tree) AppendJSON(b []byte) []byte {
	b = append(b, `{"sessionId":`...)
	b = jsonx.AppendString(b, t.SessionID)
	b = append(b, `,"cursor":`...)
	b = jsonx.AppendOptString(b, t.Cursor)
	b = append(b, `,"activeBranch":`...)
	b = jsonx.AppendString(b, t.ActiveBranch)
	b = append(b, `,"roots":[`...)
	for k, r := range t.Roots {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, r)
	}
	b = append(b, `],"rows":[`...)
	for k := range t.Rows {
		if k > 0 {
			b = append(b, ',')
		}
		b = t.Rows[k].AppendJSON(b)
	}
	b = append(b, `],"text":`...)
	b = jsonx.AppendString(b, t.Text)
	return append(b, '}')
}

// AppendJSON appends the row's JSON encoding (the bytes encoding/json
// gives for it) to b and returns the extended buffer.
func (r *TreeRow) AppendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = jsonx.AppendString(b, r.ID)
	b = append(b, `,"parentId":`...)
	b = jsonx.AppendOptString(b, r.ParentID)
	b = append(b, `,"branch":`...)
	b = jsonx.AppendString(b, r.Branch)
	b = append(b, `,"kind":`...)
	b = jsonx.AppendString(b, r.Kind)
	b = append(b, `,"role":`...)
	b = jsonx.AppendString(b, r.Role)
	b = append(b, `,"preview":`...)
	b = jsonx.AppendString(b, r.Preview)
	b = append(b, `,"depth":`...)
	b = jsonx.AppendInt(b, r.Depth)
	b = append(b, `,"indent":`...)
	b = jsonx.AppendInt(b, r.Indent)
	b = append(b, `,"childCount":`...)
	b = jsonx.AppendInt(b, r.ChildCount)
	b = append(b, `,"onPath":`...)
	b = jsonx.AppendBool(b, r.OnPath)
	b = append(b, `,"cursor":`...)
	b = jsonx.AppendBool(b, r.Cursor)
	if r.TipOf != "" {
		b = append(b, `,"tipOf":`...)
		b = jsonx.AppendString(b, r.TipOf)
	}
	if r.Label != "" {
		b = append(b, `,"label":`...)
		b = jsonx.AppendString(b, r.Label)
	}
	b = append(b, `,"hidden":`...)
	b = jsonx.AppendBool(b, r.Hidden)
	if r.HiddenRoot {
		b = append(b, `,"hiddenRoot":true`...)
	}
	b = append(b, `,"preferred":`...)
	b = jsonx.AppendBool(b, r.Preferred)
	return append(b, '}')
}
