package treeview

import "sort"

// Rows is a tree's display order: the rows of core's tree and tree.rows,
// a preorder walk, roots and children in append order. Made by RowOrder
// for a node count (len(RowOf)); it stands until a node is added, so a
// caller may keep it while the tree has that many nodes. Read only.
type Rows struct {
	// Order is the nodes in display order: row r shows node Order[r].
	Order []int32
	// RowOf is each node's row: RowOf[Order[r]] == r.
	RowOf []int32
	// Start is ChildLists' start: node i has Start[i+1]−Start[i] children.
	Start []int32
}

// RowOrder returns the display order of the tree whose parents are parent
// (as Tree.Parent). A loop over integers: no text, no per-node
// allocation, 12 bytes a node kept.
func RowOrder(parent []int32) *Rows {
	start, list, roots := ChildLists(parent)
	n := len(parent)
	order := make([]int32, 0, n)
	rowOf := make([]int32, n)
	stack := make([]int32, 0, 64)
	for k := len(roots) - 1; k >= 0; k-- {
		stack = append(stack, roots[k])
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for {
			rowOf[i] = int32(len(order))
			order = append(order, i)
			kids := list[start[i]:start[i+1]]
			if len(kids) == 0 {
				break
			}
			for k := len(kids) - 1; k > 0; k-- {
				stack = append(stack, kids[k])
			}
			i = kids[0] // a linear run continues without the stack
		}
	}
	return &Rows{Order: order, RowOf: rowOf, Start: start}
}

// Window returns the rows [from, to) of a window of count rows that
// starts at offset (clamped to count) and holds at most limit rows (all
// that follow when limit < 0).
func Window(offset, limit, count int) (from, to int) {
	from = min(offset, count)
	to = count
	if limit >= 0 && from+limit < to {
		to = from + limit
	}
	return from, to
}

// Centred returns the rows [from, to) of a window of limit rows (≥ 0)
// around row at, moved to fit in 0 … count.
func Centred(at, limit, count int) (from, to int) {
	if limit >= count {
		return 0, count
	}
	from = at - limit/2
	from = max(0, min(from, count-limit))
	return from, from + limit
}

// Names is a table of names in order of first use, for the name columns
// of an answer (branches, kinds, roles). The zero value is not ready:
// use NewNames.
type Names struct {
	// List is the names in order of first use: name List[k] has index k.
	List []string
	// Index is each name's index in List.
	Index map[string]int
	last  int // index of the name asked last (consecutive rows mostly share one)
}

// NewNames returns an empty table.
func NewNames() *Names { return &Names{Index: map[string]int{}, last: -1} }

// Of returns the index of name, adding it when new.
func (t *Names) Of(name string) int {
	if t.last >= 0 && t.List[t.last] == name {
		return t.last
	}
	i, ok := t.Index[name]
	if !ok {
		i = len(t.List)
		t.Index[name] = i
		t.List = append(t.List, name)
	}
	t.last = i
	return i
}

// Mark is a sparse column entry: a row (or a node index) and a text (a
// branch tip's branch, a label).
type Mark struct {
	Row  int32
	Text string
}

// Sparse returns the marks of the nodes in m (node → text) whose rows
// (rowOf, as Rows.RowOf) lie in [from, to), as rows, by row.
func Sparse(m map[int32]string, rowOf []int32, from, to int) []Mark {
	var out []Mark
	for i, text := range m {
		if r := int(rowOf[i]); r >= from && r < to {
			out = append(out, Mark{int32(r), text})
		}
	}
	SortMarks(out)
	return out
}

// SortMarks sorts marks by Row.
func SortMarks(marks []Mark) {
	sort.Slice(marks, func(a, b int) bool { return marks[a].Row < marks[b].Row })
}
