package tidy

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestLayoutTidy(t *testing.T) {
	tests := []struct {
		name   string
		parent []int32
		want   []float64
	}{
		{"one node sits at zero", []int32{-1}, []float64{0}},
		{"a parent is centred over three leaves", []int32{-1, 0, 0, 0}, []float64{1, 0, 1, 2}},
		{"a leaf beside a subtree keeps one unit from its parent's sibling", []int32{-1, 0, 0, 1, 1}, []float64{1, 0.5, 1.5, 0, 1}},
		{"two wide subtrees are pushed apart by their contours", []int32{-1, 0, 0, 1, 1, 2, 2}, []float64{1.5, 0.5, 2.5, 0, 1, 2, 3}},
		{"a leaf between two pushed subtrees is spread to the middle", []int32{-1, 0, 0, 0, 1, 1, 1, 1, 3, 3, 3, 3}, []float64{3.5, 1.5, 3.5, 5.5, 0, 1, 2, 3, 4, 5, 6, 7}},
		{"two roots sit side by side", []int32{-1, -1, 0}, []float64{0, 1, 0}},
		{"a contour deeper on the left is followed by a thread", []int32{-1, 0, 0, 1, 3, 3, 2, 2}, []float64{1.25, 0.5, 2, 0.5, 0, 1, 1.5, 2.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, Layout(tt.parent))
		})
	}
}

func TestLayoutTidyKeepsLevelsApart(t *testing.T) {
	// A random-ish tree of 3,000 nodes: on every level, neighbours are at
	// least one unit apart and each parent is centred over its children.
	n := 3000
	parent := make([]int32, n)
	depth := make([]int32, n)
	parent[0] = -1
	for v := 1; v < n; v++ {
		parent[v] = int32((v * 7919) % v)
		if v%5 == 0 {
			parent[v] = int32(v - 1)
		}
		depth[v] = depth[parent[v]] + 1
	}
	x := Layout(parent)
	byLevel := map[int32][]float64{}
	for v := 0; v < n; v++ {
		byLevel[depth[v]] = append(byLevel[depth[v]], x[v])
	}
	for d, xs := range byLevel {
		// Nodes of a level in numbering order are not in x order across
		// subtrees; sort a copy.
		sorted := append([]float64(nil), xs...)
		sortFloats(sorted)
		for k := 1; k < len(sorted); k++ {
			require.GreaterOrEqual(t, sorted[k]-sorted[k-1], 1-1e-9, "level %d", d)
		}
	}
	first, last := map[int32]float64{}, map[int32]float64{}
	for v := n - 1; v >= 1; v-- {
		first[parent[v]] = x[v]
		if _, ok := last[parent[v]]; !ok {
			last[parent[v]] = x[v]
		}
	}
	for p, f := range first {
		require.InDelta(t, (f+last[p])/2, x[p], 1e-9, "node %d", p)
	}
}

func TestLayoutTidyMillionDeepChain(t *testing.T) {
	n := 1_000_000
	parent := make([]int32, n)
	for v := range parent {
		parent[v] = int32(v - 1)
	}
	x := Layout(parent)
	require.Len(t, x, n)
	require.Equal(t, 0.0, x[n-1])
}

func sortFloats(a []float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
