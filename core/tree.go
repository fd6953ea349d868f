package core

import "strings"

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
}

// Tree is the value of tree: rows for a panel and an ASCII rendering.
type Tree struct {
	SessionID    string    `json:"sessionId"`
	Cursor       *string   `json:"cursor"`
	ActiveBranch string    `json:"activeBranch"`
	Roots        []string  `json:"roots"`
	Rows         []TreeRow `json:"rows"`
	Text         string    `json:"text"`
}

// maxIndent caps the drawn nesting of the ASCII tree; deeper branch points
// are drawn at this level so a line never grows without bound.
const maxIndent = 24

// textPreviewLength is the preview length in the ASCII tree, in characters.
const textPreviewLength = 60

// childLists returns, for every node, its children in append order, as
// offsets into one shared slice (a counting sort: no per-node allocation),
// plus the roots.
func (s *Session) childLists() (start []int32, list []int32, roots []int32) {
	n := len(s.nodes)
	start = make([]int32, n+1)
	for i := 0; i < n; i++ {
		if p := s.parent[i]; p >= 0 {
			start[p+1]++
		}
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}
	fill := append([]int32(nil), start[:n]...)
	list = make([]int32, start[n])
	for i := 0; i < n; i++ {
		if p := s.parent[i]; p >= 0 {
			list[fill[p]] = int32(i)
			fill[p]++
		} else {
			roots = append(roots, int32(i))
		}
	}
	return start, list, roots
}

func opTree(st *Store, r *request) (any, *Error) {
	s, err := r.existing(st)
	if err != nil {
		return nil, err
	}
	return s.tree(), nil
}

func (s *Session) tree() Tree {
	t := Tree{
		SessionID:    s.id,
		Cursor:       nullable(s.nodeID(s.cursor)),
		ActiveBranch: s.active,
		Roots:        []string{},
		Rows:         make([]TreeRow, 0, len(s.nodes)),
	}
	onPath := make([]bool, len(s.nodes))
	for _, i := range s.path(s.cursor) {
		onPath[i] = true
	}
	tipOf := make(map[int32]string, len(s.branches))
	for _, b := range s.branches {
		if b.tip >= 0 {
			tipOf[b.tip] = b.name
		}
	}
	start, list, roots := s.childLists()
	for _, root := range roots {
		t.Roots = append(t.Roots, s.nodes[root].ID)
	}

	type frame struct {
		node      int32
		indent    int
		prefix    string // drawn before this node's connector
		connector string // "├─ ", "└─ " or ""
	}
	var text strings.Builder
	stack := make([]frame, 0, 64)
	for k := len(roots) - 1; k >= 0; k-- {
		stack = append(stack, frame{node: roots[k]})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i := f.node
		n := s.nodes[i]
		kids := list[start[i]:start[i+1]]
		row := TreeRow{
			ID:         n.ID,
			ParentID:   nullable(n.ParentID),
			Branch:     n.Branch,
			Kind:       n.Kind,
			Role:       n.Role(),
			Preview:    n.previewText(),
			Depth:      int(s.depth[i]),
			Indent:     f.indent,
			ChildCount: len(kids),
			OnPath:     onPath[i],
			Cursor:     i == s.cursor,
			TipOf:      tipOf[i],
		}
		t.Rows = append(t.Rows, row)

		text.WriteString(f.prefix)
		text.WriteString(f.connector)
		text.WriteString(n.ID)
		text.WriteByte(' ')
		text.WriteString(row.Role)
		text.WriteString(": ")
		text.WriteString(Preview(nodeText(n), textPreviewLength))
		if row.TipOf != "" {
			text.WriteString("  [")
			text.WriteString(row.TipOf)
			if row.TipOf == s.active {
				text.WriteByte('*')
			}
			text.WriteByte(']')
		}
		if row.Cursor {
			text.WriteString("  ← cursor")
		}
		text.WriteByte('\n')

		// The prefix under this node: continue the line of a sibling
		// below it ("│  ") or leave blank space.
		below := f.prefix
		if f.indent < maxIndent {
			switch f.connector {
			case "├─ ":
				below += "│  "
			case "└─ ":
				below += "   "
			}
		}
		if len(kids) == 1 {
			stack = append(stack, frame{node: kids[0], indent: f.indent, prefix: below})
			continue
		}
		indent := f.indent + 1
		for k := len(kids) - 1; k >= 0; k-- {
			conn := "├─ "
			if k == len(kids)-1 {
				conn = "└─ "
			}
			stack = append(stack, frame{node: kids[k], indent: indent, prefix: below, connector: conn})
		}
	}
	t.Text = text.String()
	return t
}
