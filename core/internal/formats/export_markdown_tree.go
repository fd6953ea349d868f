package formats

import (
	"bytes"
	"slices"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// exportMarkdownTree writes every node of the session readably, in tree
// order: depth first from each root (roots and siblings in the order the
// session added them), so that a branch's nodes follow its fork point. The
// file's first lines say it holds the whole tree and how it is ordered;
// each node is written as exportMarkdown writes a path's (see
// writeMarkdownNode), its line also naming its parent, its branch, how many
// replies it has when more than one, and whether it is on the path to the
// cursor or is the cursor. Every field is escaped as exportMarkdown
// escapes it. The walk is a loop with a stack (no recursion), so a
// 1,000,000-deep chain is written like a short one.
func exportMarkdownTree(s *ExportSession) []byte {
	var b bytes.Buffer
	writeMarkdownTitle(&b, s)
	roots, children := s.childLists()
	jsonx.Fprintf(&b, "Scope: the whole tree (%d nodes, %d %s, depth first; ● marks the path to the cursor) · session %s · cursor %s · branch %s\n",
		len(s.Nodes), len(roots), plural(len(roots), "root", "roots"), markdownCode(s.ID), markdownCode(s.nodeID(s.Cursor)), markdownCode(s.Active))
	onPath := make(map[int32]bool, len(s.Path))
	for _, i := range s.Path {
		onPath[i] = true
	}
	stack := make([]int32, 0, len(roots))
	for k := len(roots) - 1; k >= 0; k-- {
		stack = append(stack, roots[k])
	}
	var extra bytes.Buffer
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &s.Nodes[i]
		extra.Reset()
		if n.ParentID == "" {
			extra.WriteString(" · root")
		} else {
			jsonx.Fprintf(&extra, " · reply to %s", markdownCode(n.ParentID))
		}
		jsonx.Fprintf(&extra, " · branch %s", markdownCode(n.Branch))
		if c := len(children[i]); c > 1 {
			jsonx.Fprintf(&extra, " · %d replies", c)
		}
		switch {
		case i == s.Cursor:
			extra.WriteString(" · ● cursor")
		case onPath[i]:
			extra.WriteString(" · ●")
		}
		writeMarkdownNode(&b, n, extra.String())
		for k := len(children[i]) - 1; k >= 0; k-- {
			stack = append(stack, children[i][k])
		}
	}
	return b.Bytes()
}

// childLists returns the indexes of the roots and, per node, of its
// children, each in the order the session added them. A node whose parent
// is not in Nodes counts as a root.
func (s *ExportSession) childLists() (roots []int32, children [][]int32) {
	index := make(map[string]int32, len(s.Nodes))
	children = make([][]int32, len(s.Nodes))
	for i := range s.Nodes {
		n := &s.Nodes[i]
		index[n.ID] = int32(i)
		p, ok := index[n.ParentID]
		if n.ParentID == "" || !ok {
			roots = append(roots, int32(i))
			continue
		}
		children[p] = append(children[p], int32(i))
	}
	return slices.Clip(roots), children
}

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
