package importplan

// Branching says how a node an import adds gets its branch (see
// Tree.Branches). The path to the cursor is the default branch; every
// other child of a branch point opens a branch.
type Branching uint8

const (
	// BranchKept: the node keeps the branch its record names (the
	// conversation keeps its branches and the name is valid).
	BranchKept Branching = iota
	// BranchMain: a root on the path to the cursor, on the default branch.
	BranchMain
	// BranchRoot: another root; it opens a branch named after its
	// record's branch hint, else after the default branch.
	BranchRoot
	// BranchParent: the node continues its parent's branch.
	BranchParent
	// BranchOpen: the node opens a branch named after its record's
	// branch hint, else after its parent's branch.
	BranchOpen
)

// Branches returns the branching of each record (by record index), given
// the order and cursor Plan returned. The path to the cursor continues
// its branch at every node; off it, the first child (in order) of a node
// continues the node's branch and its other children open branches.
// keep, when not nil, reports whether a record's own branch name is kept
// (BranchKept); it is asked of every record in order.
func (t *Tree) Branches(order []int32, cursor int32, keep func(name string) bool) []Branching {
	n := len(t.Records)
	onMain := make([]bool, n)
	cont := make([]int32, n) // the child that continues each node's branch
	for i := range cont {
		cont[i] = -1
	}
	for j := cursor; j >= 0; j = t.Par[j] {
		onMain[j] = true
		if p := t.Par[j]; p >= 0 {
			cont[p] = j
		}
	}
	out := make([]Branching, n)
	for _, i := range order {
		p := t.Par[i]
		switch {
		case keep != nil && keep(t.Records[i].Branch):
			out[i] = BranchKept
		case p < 0 && onMain[i]:
			out[i] = BranchMain
		case p < 0:
			out[i] = BranchRoot
		case cont[p] == i:
			out[i] = BranchParent
		case cont[p] < 0 && !onMain[p]:
			cont[p] = i
			out[i] = BranchParent
		default:
			out[i] = BranchOpen
		}
	}
	return out
}
