package treeview

import "iter"

// MaxIndent caps the drawn nesting of the ASCII tree: below this level a
// run's connectors no longer widen its prefix, so a line never grows
// without bound (Run.Indent still counts every level).
const MaxIndent = 24

// Run is one linear run of the ASCII tree (core's tree operation): a node
// and the single children that follow it, drawn at one indent, a branch
// point's children each opening a run of their own with a connector. The
// runs come in the rows' display order (RowOrder), so their nodes, one
// after the other, are the rows.
type Run struct {
	// Nodes is the run's nodes, first to last. The slice is reused: it is
	// valid until the loop asks for the next run.
	Nodes []int32
	// Indent is the drawing level: 0 for a root's run, one more below each
	// node with more than one child.
	Indent int
	// First is drawn before the run's first line: the prefix and its
	// connector ("├─ " for a child with siblings after it, "└─ " for the
	// last child, "" for a root or a single child).
	First string
	// Below is drawn before the run's other lines: the prefix continued
	// ("│  " where a sibling below goes on, "   " where none does).
	Below string
	// Quiet is set for a run inside a folded hidden subtree: it has rows
	// but no lines.
	Quiet bool
}

// Runs returns the runs of t in display order. A hidden root ends its run
// and the runs below it are quiet, unless showHidden (then hidden
// subtrees are drawn as any other). A loop with its own stack, never
// recursion.
func (t *Tree) Runs(showHidden bool) iter.Seq[Run] {
	return func(yield func(Run) bool) {
		start, list, roots := ChildLists(t.Parent)
		// A frame is a run to draw: it starts at node and follows single
		// children.
		type frame struct {
			node      int32
			indent    int
			prefix    string // drawn before the run's first connector
			connector string // "├─ ", "└─ " or ""
			quiet     bool
		}
		stack := make([]frame, 0, 64)
		for k := len(roots) - 1; k >= 0; k-- {
			stack = append(stack, frame{node: roots[k]})
		}
		var run []int32
		for len(stack) > 0 {
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			run = run[:0]
			for i := f.node; ; {
				run = append(run, i)
				kids := list[start[i]:start[i+1]]
				if len(kids) != 1 || (!f.quiet && !showHidden && t.HiddenRoots[i]) {
					break
				}
				i = kids[0]
			}
			below := f.prefix
			if f.indent < MaxIndent {
				switch f.connector {
				case "├─ ":
					below += "│  "
				case "└─ ":
					below += "   "
				}
			}
			if !yield(Run{Nodes: run, Indent: f.indent, First: f.prefix + f.connector, Below: below, Quiet: f.quiet}) {
				return
			}
			last := run[len(run)-1]
			kids := list[start[last]:start[last+1]]
			quiet := f.quiet || (!showHidden && t.HiddenRoots[last])
			if len(kids) == 1 {
				stack = append(stack, frame{node: kids[0], indent: f.indent, prefix: below, quiet: quiet})
				continue
			}
			for k := len(kids) - 1; k >= 0; k-- {
				conn := "├─ "
				if k == len(kids)-1 {
					conn = "└─ "
				}
				stack = append(stack, frame{node: kids[k], indent: f.indent + 1, prefix: below, connector: conn, quiet: quiet})
			}
		}
	}
}
