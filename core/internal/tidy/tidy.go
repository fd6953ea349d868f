// Package tidy lays out a rooted, ordered tree as a tidy drawing: the x
// of every node, a parent centred over its children, subtrees as close as
// their contours allow (Walker's algorithm in Buchheim, Jünger and
// Leipert's linear-time form; see Layout). The session map (core's "map"
// operation) lays out its segments with it.
package tidy

// Layout returns the x of every node of the tree whose parent links are
// parent: nodes are numbered 0 … n−1 so that every parent comes before its
// children (parent[v] < v; −1 for a root), siblings ordered by number, and
// several roots are laid out side by side as the children of one virtual
// root. The x are in units of the minimum
// distance between neighbouring nodes of one level (leftmost node at 0),
// for a drawing where a node's level is its depth. It is the tidy-tree
// layout of Walker (1990) in the linear-time form of Buchheim, Jünger and
// Leipert, "Improving Walker's algorithm to run in linear time" (Graph
// Drawing 2002, LNCS 2528, pp. 344–353): a parent centred over its
// children, subtrees pushed apart by their contours (followed with
// threads), the push shared among the subtrees between (shift/change),
// identical subtrees drawn identically. Written as loops over arrays, in
// the paper's names, without recursion: the first walk runs over a
// post-order (the reverse of a pre-order that visits children right to
// left), the second over the numbering (parents first), so a chain of
// 1,000,000 nodes is fine. Time and memory O(n).
func Layout(parent []int32) []float64 {
	n := len(parent)
	if n == 0 {
		return nil
	}
	w := newWalk(parent)
	order := w.postOrder()
	for _, v := range order {
		w.firstVisit(v)
		if p := w.parent[v]; p >= 0 {
			w.defaultAncestor[p] = w.apportion(v, w.defaultAncestor[p])
		}
	}
	// Second walk: the numbering puts parents first; the virtual root
	// (number n) is the parent of every root.
	root := int32(n)
	x := make([]float64, n+1)
	m := make([]float64, n+1) // the sum of mod over the ancestors
	x[root] = w.prelim[root]
	m[root] = w.mod[root]
	minX := 0.0
	for v := 0; v < n; v++ {
		p := w.parent[v]
		x[v] = w.prelim[v] + m[p]
		m[v] = m[p] + w.mod[v]
		if v == 0 || x[v] < minX {
			minX = x[v]
		}
	}
	for v := 0; v < n; v++ {
		x[v] -= minX
	}
	return x[:n]
}

// walk holds the per-node fields of the BJL algorithm, one slice each,
// plus the child lists (first, last, next, previous sibling).
type walk struct {
	parent                     []int32 // −1 → the virtual root n
	first, last, next, prev    []int32 // children, −1 for none
	number                     []int32 // 1-based place among siblings
	thread, ancestor           []int32
	defaultAncestor            []int32
	prelim, mod, shift, change []float64
}

// newWalk builds the walk's fields for parent links (see Layout),
// with the virtual root n above every root.
func newWalk(parent []int32) *walk {
	n := len(parent) + 1
	w := &walk{parent: make([]int32, n)}
	for _, s := range []*[]int32{&w.first, &w.last, &w.next, &w.prev, &w.thread, &w.defaultAncestor} {
		*s = make([]int32, n)
		for i := range *s {
			(*s)[i] = -1
		}
	}
	w.number = make([]int32, n)
	w.ancestor = make([]int32, n)
	w.prelim = make([]float64, n)
	w.mod = make([]float64, n)
	w.shift = make([]float64, n)
	w.change = make([]float64, n)
	root := int32(n - 1)
	w.parent[root] = -1
	for v := int32(0); v < root; v++ {
		p := parent[v]
		if p < 0 {
			p = root
		}
		w.parent[v] = p
		w.ancestor[v] = v
		if w.last[p] < 0 {
			w.first[p] = v
			w.number[v] = 1
		} else {
			w.next[w.last[p]] = v
			w.prev[v] = w.last[p]
			w.number[v] = w.number[w.last[p]] + 1
		}
		w.last[p] = v
	}
	w.ancestor[root] = root
	for v := range w.defaultAncestor {
		w.defaultAncestor[v] = w.first[v]
	}
	return w
}

// postOrder returns every node, the virtual root last, children before
// their parent and left siblings' subtrees before right ones.
func (w *walk) postOrder() []int32 {
	n := len(w.parent)
	order := make([]int32, 0, n)
	stack := []int32{int32(n - 1)}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, v)
		for c := w.first[v]; c >= 0; c = w.next[c] {
			stack = append(stack, c) // the rightmost is popped first
		}
	}
	for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
		order[i], order[j] = order[j], order[i]
	}
	return order
}

// firstVisit is FirstWalk(v) once v's children are done: a leaf goes one
// unit right of its left sibling; a parent executes its children's shifts
// and is centred over them.
func (w *walk) firstVisit(v int32) {
	left := w.prev[v]
	if w.first[v] < 0 {
		if left >= 0 {
			w.prelim[v] = w.prelim[left] + 1
		}
		return
	}
	w.executeShifts(v)
	mid := (w.prelim[w.first[v]] + w.prelim[w.last[v]]) / 2
	if left >= 0 {
		w.prelim[v] = w.prelim[left] + 1
		w.mod[v] = w.prelim[v] - mid
	} else {
		w.prelim[v] = mid
	}
}

func (w *walk) nextLeft(v int32) int32 {
	if w.first[v] >= 0 {
		return w.first[v]
	}
	return w.thread[v]
}

func (w *walk) nextRight(v int32) int32 {
	if w.last[v] >= 0 {
		return w.last[v]
	}
	return w.thread[v]
}

// apportion pushes the subtree of v right of its left siblings' subtrees,
// following the contours level by level, and sets the threads where one
// contour is deeper than the other. It returns the new default ancestor.
func (w *walk) apportion(v, defaultAncestor int32) int32 {
	left := w.prev[v]
	if left < 0 {
		return defaultAncestor
	}
	vir, vor := v, v
	vil, vol := left, w.first[w.parent[v]]
	sir, sor := w.mod[vir], w.mod[vor]
	sil, sol := w.mod[vil], w.mod[vol]
	for w.nextRight(vil) >= 0 && w.nextLeft(vir) >= 0 {
		vil, vir = w.nextRight(vil), w.nextLeft(vir)
		vol, vor = w.nextLeft(vol), w.nextRight(vor)
		w.ancestor[vor] = v
		shift := (w.prelim[vil] + sil) - (w.prelim[vir] + sir) + 1
		if shift > 0 {
			a := defaultAncestor
			if w.parent[w.ancestor[vil]] == w.parent[v] {
				a = w.ancestor[vil]
			}
			w.moveSubtree(a, v, shift)
			sir += shift
			sor += shift
		}
		sil += w.mod[vil]
		sir += w.mod[vir]
		sol += w.mod[vol]
		sor += w.mod[vor]
	}
	if w.nextRight(vil) >= 0 && w.nextRight(vor) < 0 {
		w.thread[vor] = w.nextRight(vil)
		w.mod[vor] += sil - sor
	}
	if w.nextLeft(vir) >= 0 && w.nextLeft(vol) < 0 {
		w.thread[vol] = w.nextLeft(vir)
		w.mod[vol] += sir - sol
		defaultAncestor = v
	}
	return defaultAncestor
}

// moveSubtree moves the subtree of wr right by shift and records the
// share of each subtree between wl and wr (applied by executeShifts).
func (w *walk) moveSubtree(wl, wr int32, shift float64) {
	subtrees := float64(w.number[wr] - w.number[wl])
	w.change[wr] -= shift / subtrees
	w.shift[wr] += shift
	w.change[wl] += shift / subtrees
	w.prelim[wr] += shift
	w.mod[wr] += shift
}

// executeShifts applies the shifts moveSubtree recorded on v's children,
// right to left, in one pass.
func (w *walk) executeShifts(v int32) {
	shift, change := 0.0, 0.0
	for c := w.last[v]; c >= 0; c = w.prev[c] {
		w.prelim[c] += shift
		w.mod[c] += shift
		change += w.change[c]
		shift += w.shift[c] + change
	}
}
