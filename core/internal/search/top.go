package search

// topBuffer is how many candidates a top holds, in units of the number it
// keeps, before it selects the best of them again (see top.push).
const topBuffer = 4

// topMinBuffer is the least a top buffers before a selection, whatever
// the number it keeps: a few candidates kept would otherwise mean a
// selection every few pushes.
const topMinBuffer = 1024

// top keeps the best n candidates (by Index.better) of those pushed, in
// any order of arrival. A heap of n did the same, but when the matches
// come in rising order (a history indexed oldest first, and newer ranks
// first) every one of them beat its root and sank through the heap: at
// 500,000 matches that was 90 % of a query's time. Here candidates are
// appended to a buffer; once it holds topBuffer·n (at least topMinBuffer)
// the best n are selected in linear time (quickselect) and the rest
// dropped, and any later candidate no better than the worst of those n
// is dropped at once. Each candidate costs a few comparisons whatever
// the order.
type top struct {
	ix    *Index
	n     int
	buf   []candidate
	floor candidate // the worst of the n kept at the last selection
	full  bool      // a selection kept n: floor is set
}

// newTop returns a top keeping the best n (at least 1) candidates.
func newTop(ix *Index, n int) *top {
	n = max(n, 1)
	return &top{ix: ix, n: n, buf: make([]candidate, 0, max(topBuffer*n, topMinBuffer))}
}

// push offers c.
func (t *top) push(c candidate) {
	if t.full && !t.ix.better(c, t.floor) {
		return
	}
	t.buf = append(t.buf, c)
	if len(t.buf) == cap(t.buf) {
		t.cut()
	}
}

// best returns the best n candidates pushed (all of them when fewer), in
// no particular order.
func (t *top) best() []candidate {
	if len(t.buf) > t.n {
		t.cut()
	}
	return t.buf
}

// cut keeps the best n of the buffer and notes the worst of them.
func (t *top) cut() {
	t.ix.selectBest(t.buf, t.n)
	t.buf = t.buf[:t.n]
	worst := 0
	for i := 1; i < len(t.buf); i++ {
		if t.ix.better(t.buf[worst], t.buf[i]) {
			worst = i
		}
	}
	t.floor, t.full = t.buf[worst], true
}

// selectBest reorders c so that its best k candidates (by better, a strict
// total order) come first, in no particular order: Hoare's quickselect
// ("Algorithm 65: Find", Communications of the ACM 4(7), 1961) with the
// median of three as pivot, linear on average. k must be 1 … len(c).
func (ix *Index) selectBest(c []candidate, k int) {
	lo, hi := 0, len(c)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if ix.better(c[mid], c[lo]) {
			c[mid], c[lo] = c[lo], c[mid]
		}
		if ix.better(c[hi], c[lo]) {
			c[hi], c[lo] = c[lo], c[hi]
		}
		if ix.better(c[hi], c[mid]) {
			c[hi], c[mid] = c[mid], c[hi]
		}
		pivot := c[mid] // c[lo] is no worse, c[hi] no better: both stop the scans below
		i, j := lo, hi
		for i <= j {
			for ix.better(c[i], pivot) {
				i++
			}
			for ix.better(pivot, c[j]) {
				j--
			}
			if i <= j {
				c[i], c[j] = c[j], c[i]
				i++
				j--
			}
		}
		// c[lo..j] are no worse than the pivot, c[i..hi] no better, and any
		// between them are the pivot itself.
		switch {
		case k-1 <= j:
			hi = j
		case k-1 >= i:
			lo = i
		default:
			return
		}
	}
}
