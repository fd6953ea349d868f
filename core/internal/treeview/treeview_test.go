package treeview

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tree makes a Tree from each node's parent and branch, deriving depths
// and child counts; hidden lists the hidden roots.
func tree(parent []int32, branch []string, hidden ...int32) *Tree {
	t := &Tree{Parent: parent, Depth: make([]int32, len(parent)), Children: make([]int32, len(parent))}
	for i, p := range parent {
		t.Depth[i] = 1
		if p >= 0 {
			t.Depth[i] = t.Depth[p] + 1
			t.Children[p]++
		}
	}
	t.Branch = func(i int32) string { return branch[i] }
	for _, h := range hidden {
		if t.HiddenRoots == nil {
			t.HiddenRoots = map[int32]bool{}
		}
		t.HiddenRoots[h] = true
	}
	return t
}

// grow appends a node under parent on branch name to t, made by tree
// with branch (t reads the branches through it, as core's through the
// session's nodes).
func grow(t *Tree, branch *[]string, parent int32, name string) {
	t.Parent = append(t.Parent, parent)
	t.Depth = append(t.Depth, t.Depth[parent]+1)
	t.Children = append(t.Children, 0)
	t.Children[parent]++
	*branch = append(*branch, name)
	t.Branch = func(i int32) string { return (*branch)[i] }
}

// forked is core's map test session: main u1(0) → a1(1) → u2(2) → a2(3);
// "alt" at u2: u3(4) → a3(5); "side" at a1: a4(6).
func forked() ([]int32, []string) {
	return []int32{-1, 0, 1, 2, 2, 4, 1}, []string{"main", "main", "main", "main", "alt", "alt", "side"}
}

func TestRowOrder(t *testing.T) {
	cases := []struct {
		name   string
		parent []int32
		order  []int32
	}{
		{"an empty tree has no rows", nil, []int32{}},
		{"a chain is in append order", []int32{-1, 0, 1}, []int32{0, 1, 2}},
		{"children follow their parent, in append order, subtree by subtree", []int32{-1, 0, 1, 2, 2, 4, 1}, []int32{0, 1, 2, 3, 4, 5, 6}},
		{"a later child of an early node comes after the earlier child's subtree", []int32{-1, 0, 0, 1}, []int32{0, 1, 3, 2}},
		{"roots are in append order", []int32{-1, -1, 0, 1}, []int32{0, 2, 1, 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := RowOrder(tc.parent)
			assert.Equal(t, tc.order, r.Order, "RowOrder(%v).Order", tc.parent)
			for row, i := range r.Order {
				assert.Equal(t, int32(row), r.RowOf[i], "RowOf[%d]", i)
			}
			require.Len(t, r.Start, len(tc.parent)+1)
		})
	}
}

func TestChildLists(t *testing.T) {
	start, list, roots := ChildLists([]int32{-1, 0, -1, 0, 1})
	assert.Equal(t, []int32{0, 2}, roots)
	assert.Equal(t, []int32{1, 3}, list[start[0]:start[1]], "children of 0")
	assert.Equal(t, []int32{4}, list[start[1]:start[2]], "children of 1")
	assert.Empty(t, list[start[2]:start[3]], "children of 2")
}

func TestRowOrderOfAMillionDeepChainIsALoop(t *testing.T) {
	const n = 1_000_000
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i) - 1
	}
	r := RowOrder(parent)
	require.Len(t, r.Order, n)
	assert.Equal(t, int32(n-1), r.Order[n-1])
	assert.Equal(t, int32(n-1), r.RowOf[n-1])
}

func TestWindows(t *testing.T) {
	cases := []struct {
		name                 string
		centred              bool
		at, limit, count     int
		wantFrom, wantToRows int
	}{
		{"no limit sends every row from the offset", false, 3, -1, 10, 3, 10},
		{"a limit cuts the window", false, 3, 4, 10, 3, 7},
		{"an offset past the rows sends none", false, 12, 4, 10, 10, 10},
		{"a limit past the rows stops at the last", false, 8, 4, 10, 8, 10},
		{"a window around a row is centred on it", true, 5, 4, 10, 3, 7},
		{"a window around an early row starts at 0", true, 1, 4, 10, 0, 4},
		{"a window around a late row ends at the last", true, 9, 4, 10, 6, 10},
		{"a window larger than the rows holds them all", true, 2, 20, 10, 0, 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, name := Window, "Window"
			if tc.centred {
				f, name = Centred, "Centred"
			}
			from, to := f(tc.at, tc.limit, tc.count)
			assert.Equal(t, [2]int{tc.wantFrom, tc.wantToRows}, [2]int{from, to}, "%s(%d, %d, %d)", name, tc.at, tc.limit, tc.count)
		})
	}
}

func TestNamesAreNumberedInOrderOfFirstUse(t *testing.T) {
	n := NewNames()
	got := []int{n.Of("main"), n.Of("main"), n.Of("alt"), n.Of("main"), n.Of("side"), n.Of("alt")}
	assert.Equal(t, []int{0, 0, 1, 0, 2, 1}, got)
	assert.Equal(t, []string{"main", "alt", "side"}, n.List)
	assert.Equal(t, 2, n.Index["side"])
}

func TestSparseKeepsTheMarksInTheWindowByRow(t *testing.T) {
	rowOf := []int32{0, 1, 3, 2, 4}
	marks := map[int32]string{0: "root", 2: "late", 3: "early", 4: "past"}
	assert.Empty(t, Sparse(map[int32]string{}, rowOf, 0, 5))
	assert.Equal(t, []Mark{{2, "early"}, {3, "late"}}, Sparse(marks, rowOf, 1, 4))
	assert.Equal(t, []Mark{{0, "root"}, {2, "early"}, {3, "late"}, {4, "past"}}, Sparse(marks, rowOf, 0, 5))
}

func TestMapCutsRunsAtForksAndLaysThemOut(t *testing.T) {
	tr := tree(forked())
	m := NewMap(tr)
	// Segments: 0 [u1 a1] main, 1 [u2] main, 2 [a2] main, 3 [u3 a3] alt, 4 [a4] side.
	assert.Equal(t, []int32{0, 0, 1, 2, 3, 3, 4}, m.SegOf)
	assert.Equal(t, []int32{0, 2, 3, 4, 6}, m.First)
	assert.Equal(t, []int32{1, 2, 3, 5, 6}, m.Last)
	assert.Equal(t, []int32{-1, 0, 1, 1, 0}, m.Parent)
	assert.Equal(t, []int32{0, 1, 2, 3, 4}, m.Vis)
	assert.Equal(t, []float64{1, 0.5, 0, 1, 1.5}, m.X)
	assert.Equal(t, []int32{0, 1, 2, 2, 1}, m.Y)
	width, height := m.Size()
	assert.Equal(t, 1.5, width)
	assert.Equal(t, int32(2), height)
	assert.Equal(t, []uint8{SegOnPath, SegOnPath, SegOnPath, 0, 0}, m.Flags(3, -1), "the cursor on a2")
	assert.Equal(t, []uint8{SegOnPath | SegPreferred, SegOnPath | SegPreferred, SegOnPath, SegPreferred, 0}, m.Flags(3, 5))
	seg, off := m.Place(tr, 5)
	assert.Equal(t, [2]int32{3, 1}, [2]int32{seg, off}, "a3 is the second node of segment 3")
	assert.Equal(t, int32(2), m.Length(tr, 0))
	assert.Equal(t, len(tr.Parent), m.Base)
}

func TestMapDrawsAHiddenSubtreeCollapsed(t *testing.T) {
	parent, branch := forked()
	// Hiding u2 (2) hides its segment and those below it: 2 [a2], 3 [u3 a3].
	tr := tree(parent, branch, 2)
	m := NewMap(tr)
	assert.Equal(t, []bool{false, true, true, true, false}, m.Hidden)
	assert.Equal(t, []int32{0, 1, 4}, m.Vis, "the hidden root's segment stands for its subtree")
	assert.Equal(t, []int32{0, 4, 0, 0, 0}, m.HiddenTotals, "u2, a2, u3, a3")
	assert.Equal(t, []uint8{SegOnPath, SegOnPath | SegHiddenRoot, 0}, m.Flags(3, -1))
	seg, off := m.Place(tr, 5)
	assert.Equal(t, [2]int32{1, 0}, [2]int32{seg, off}, "a node inside the hidden subtree is placed at the end of the collapsed segment")
}

func TestMapExtendsARunOrRefuses(t *testing.T) {
	parent, branch := forked()
	tr := tree(parent, branch)
	m := NewMap(tr)
	rev := m.Revision(tr.Len())

	grow(tr, &branch, 3, "main")
	grow(tr, &branch, 7, "main")
	require.True(t, m.Extend(tr), "two nodes under a2 lengthen its segment")
	assert.Equal(t, int32(8), m.Last[2])
	assert.Equal(t, 9, len(m.SegOf))
	assert.Equal(t, int32(3), m.Length(tr, 2))
	from, ok := m.DeltaFrom(rev, tr.Len())
	require.True(t, ok)
	assert.Equal(t, []int32{2}, m.Grown(from, tr.Len()))

	cases := []struct {
		name   string
		parent int32
		branch string
	}{
		{"a fork", 3, "main"},
		{"another branch", 8, "late"},
		{"a new root", -1, "main"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is refused and leaves the map as it was", func(t *testing.T) {
			p, b := append([]int32(nil), tr.Parent...), append([]string(nil), branch...)
			t2 := tree(append(p, tc.parent), append(b, tc.branch))
			before := fmt.Sprint(*m)
			assert.False(t, m.Extend(t2))
			assert.Equal(t, before, fmt.Sprint(*m))
		})
	}
}

func TestMapRevisions(t *testing.T) {
	parent, branch := forked()
	tr := tree(parent, branch)
	m := NewMap(tr)
	other := NewMap(tr)
	require.NotEqual(t, m.ID, other.ID, "each layout has its own number")
	cases := []struct {
		name     string
		revision string
		n        int
		from     int
		ok       bool
	}{
		{"the current revision", m.Revision(7), 7, 7, true},
		{"another layout's revision", other.Revision(7), 7, 0, false},
		{"a count before the layout", m.Revision(6), 7, 0, false},
		{"a count past the tree", m.Revision(9), 7, 0, false},
		{"no dot", "12", 7, 0, false},
		{"not a number", "x.7", 7, 0, false},
		{"an empty string", "", 7, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			from, ok := m.DeltaFrom(tc.revision, tc.n)
			assert.Equal(t, tc.ok, ok, "DeltaFrom(%q, %d)", tc.revision, tc.n)
			assert.Equal(t, tc.from, from)
		})
	}
}

func TestNodeFlags(t *testing.T) {
	parent, branch := forked()
	plain, hidden := tree(parent, branch), tree(parent, branch, 2)
	assert.Nil(t, plain.HiddenFlags(), "nothing hidden")
	assert.Equal(t, []bool{false, false, true, true, true, true, false}, hidden.HiddenFlags(), "u2 and below")
	assert.Nil(t, plain.PathFlags(-1), "no path")
	assert.Equal(t, []bool{true, true, true, false, true, true, false}, plain.PathFlags(5), "root to a3")
	assert.Equal(t, []int32{7, 6, 4, 1, 2, 1, 1}, plain.SubtreeSizes())
}

func TestRowFlags(t *testing.T) {
	parent, branch := forked()
	tr := tree(parent, branch, 4)
	rows := RowOrder(tr.Parent).Order[2:6] // u2, a2, u3, a3
	got := tr.RowFlags(rows, 3, 5)
	assert.Equal(t, []uint8{
		RowOnPath | RowPreferred,
		RowOnPath | RowCursor,
		RowHidden | RowHiddenRoot | RowPreferred,
		RowHidden | RowPreferred,
	}, got, "RowFlags(%v, cursor a2, preferred a3)", rows)
	assert.Equal(t, []uint8{0, 0}, tree(parent, branch).RowFlags([]int32{0, 6}, -1, -1), "no cursor, nothing hidden or preferred")
}

// runsOf lists t's runs as "first|below|indent|nodes" (quiet ones with a "~").
func runsOf(t *Tree, showHidden bool) []string {
	var out []string
	for r := range t.Runs(showHidden) {
		quiet := ""
		if r.Quiet {
			quiet = "~"
		}
		out = append(out, fmt.Sprintf("%s%q|%q|%d|%v", quiet, r.First, r.Below, r.Indent, r.Nodes))
	}
	return out
}

func TestRuns(t *testing.T) {
	parent, branch := forked()
	assert.Equal(t, []string{
		`""|""|0|[0 1]`,
		`"├─ "|"│  "|1|[2]`,
		`"│  ├─ "|"│  │  "|2|[3]`,
		`"│  └─ "|"│     "|2|[4 5]`,
		`"└─ "|"   "|1|[6]`,
	}, runsOf(tree(parent, branch), false), "a1 forks (u2, a4), then u2 (a2, u3)")
	assert.Equal(t, []string{
		`""|""|0|[0 1]`,
		`"├─ "|"│  "|1|[2]`,
		`~"│  ├─ "|"│  │  "|2|[3]`,
		`~"│  └─ "|"│     "|2|[4 5]`,
		`"└─ "|"   "|1|[6]`,
	}, runsOf(tree(parent, branch, 2), false), "the runs under hidden u2 are quiet")
	assert.Equal(t, runsOf(tree(parent, branch), true), runsOf(tree(parent, branch, 2), true), "showHidden draws them")
}

func TestRunsStopWideningAtMaxIndent(t *testing.T) {
	// A comb: each node has a leaf and a next node, MaxIndent+3 levels deep.
	var parent []int32
	p := int32(-1)
	for k := 0; k < MaxIndent+3; k++ {
		parent = append(parent, p)
		parent = append(parent, int32(len(parent)-1)) // the leaf
		p = int32(len(parent) - 2)
	}
	branch := make([]string, len(parent))
	widest := 0
	deepest := 0
	for r := range tree(parent, branch).Runs(false) {
		widest = max(widest, len([]rune(r.Below)))
		deepest = max(deepest, r.Indent)
	}
	assert.Equal(t, 3*(MaxIndent-1), widest, "three characters a level below the root's, up to MaxIndent")
	assert.Greater(t, deepest, MaxIndent, "Indent still counts every level")
}

func TestRunsOfAMillionDeepChainAreOne(t *testing.T) {
	const n = 1_000_000
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i) - 1
	}
	count := 0
	for r := range (&Tree{Parent: parent}).Runs(false) {
		count++
		assert.Len(t, r.Nodes, n)
	}
	assert.Equal(t, 1, count)
}
