// Package treeview computes the views of a session tree that a page
// draws: the display order of its rows (core's tree.rows and tree), and
// the map: its runs cut into segments, laid out as a tidy tree, the marks
// placed on it, and what an answer given an earlier revision says grew.
//
// It works on plain typed data, a Tree (parent, depth and child-count
// arrays by node index, each node's branch, the hidden roots) and node
// indexes; it knows no session, message or JSON. core gathers a Tree from
// a session, keeps what these functions return between calls (by
// session, in the Store) and encodes the answers. Every walk is a loop,
// never recursion, so a 1,000,000-deep chain is fine. Nothing here is
// safe for concurrent use but the layout counter (Map.ID).
package treeview

// Tree is what the views read of a session tree. Nodes are numbered by
// index in append order, 0 … Len()−1; every parent comes before its
// children. The slices may be the session's own: the views read them and
// never write them, and a session only grows, so a Tree taken again
// later is the earlier one with nodes appended.
type Tree struct {
	// Parent is each node's parent index, −1 for a root.
	Parent []int32
	// Depth is each node's depth, 1 for a root (len(Depth) == len(Parent)).
	Depth []int32
	// Children is each node's number of children.
	Children []int32
	// Branch returns the name of the branch node i is on; the map cuts a
	// run where it changes.
	Branch func(i int32) string
	// HiddenRoots holds the nodes a hide annotation is on (nil or empty
	// when nothing is hidden); their subtrees are drawn collapsed.
	HiddenRoots map[int32]bool
}

// Len returns the number of nodes.
func (t *Tree) Len() int { return len(t.Parent) }

// ChildLists returns, for every node of parent (as Tree.Parent), its
// children in append order, as offsets into one shared slice: node i's
// children are list[start[i]:start[i+1]] (len(start) is len(parent)+1).
// roots are the nodes without a parent, in append order. A counting sort:
// no per-node allocation.
func ChildLists(parent []int32) (start []int32, list []int32, roots []int32) {
	n := len(parent)
	start = make([]int32, n+1)
	for i := 0; i < n; i++ {
		if p := parent[i]; p >= 0 {
			start[p+1]++
		}
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}
	fill := append([]int32(nil), start[:n]...)
	list = make([]int32, start[n])
	for i := 0; i < n; i++ {
		if p := parent[i]; p >= 0 {
			list[fill[p]] = int32(i)
			fill[p]++
		} else {
			roots = append(roots, int32(i))
		}
	}
	return start, list, roots
}
