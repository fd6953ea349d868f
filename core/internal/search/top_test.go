package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTopKeepsTheBestInAnyOrder: whatever the order candidates arrive in
// (rising as a history indexed oldest first, falling, shuffled) and
// however many tie on points and time, top keeps exactly the n best that
// sorting them all by better would give.
func TestTopKeepsTheBestInAnyOrder(t *testing.T) {
	ix := NewIndex()
	ix.less = func(a, b uint32) bool { return a > b } // not the numeric order, as a store's owners
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, 7, 1023, 1024, 1025, 5000, 30000} {
		all := make([]candidate, size)
		for i := range all {
			// Few distinct points and times: long runs of ties, broken by owner, then node.
			all[i] = candidate{owner: uint32(rng.IntN(5) + 1), node: int32(i), points: uint64(rng.IntN(3)) << rareBits, millis: int64(i / 100)}
		}
		sorted := slices.Clone(all)
		slices.SortFunc(sorted, func(a, b candidate) int {
			if ix.better(a, b) {
				return -1
			}
			return 1
		})
		orders := map[string][]candidate{"rising": all, "falling": slices.Clone(all), "shuffled": slices.Clone(all)}
		slices.Reverse(orders["falling"])
		rng.Shuffle(size, func(i, j int) {
			orders["shuffled"][i], orders["shuffled"][j] = orders["shuffled"][j], orders["shuffled"][i]
		})
		for name, in := range orders {
			for _, n := range []int{1, 20, 200, 2000} {
				t.Run(fmt.Sprintf("%d %s n=%d", size, name, n), func(t *testing.T) {
					tp := newTop(ix, n)
					for _, c := range in {
						tp.push(c)
					}
					got := slices.Clone(tp.best())
					slices.SortFunc(got, func(a, b candidate) int {
						if ix.better(a, b) {
							return -1
						}
						return 1
					})
					want := sorted[:min(n, size)]
					require.Len(t, got, len(want))
					assert.Equal(t, want, got)
				})
			}
		}
	}
}

// TestSelectBestPutsTheBestFirst: after selectBest(c, k) no candidate of
// c[k:] is better than one of c[:k], for every k.
func TestSelectBestPutsTheBestFirst(t *testing.T) {
	ix := NewIndex()
	ix.less = func(a, b uint32) bool { return a < b }
	rng := rand.New(rand.NewPCG(3, 4))
	c := make([]candidate, 300)
	for i := range c {
		c[i] = candidate{owner: uint32(rng.IntN(3) + 1), node: int32(i), points: uint64(rng.IntN(2)), millis: int64(rng.IntN(4))}
	}
	for k := 1; k <= len(c); k++ {
		rng.Shuffle(len(c), func(i, j int) { c[i], c[j] = c[j], c[i] })
		ix.selectBest(c, k)
		worstKept := c[0]
		for _, x := range c[1:k] {
			if ix.better(worstKept, x) {
				worstKept = x
			}
		}
		for _, x := range c[k:] {
			require.False(t, ix.better(x, worstKept), "k=%d: %+v left out, better than %+v kept", k, x, worstKept)
		}
	}
}
