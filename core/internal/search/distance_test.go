package search

import (
	"math/rand/v2"
	"testing"

	"github.com/agnivade/levenshtein"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// osaDistance is the textbook full-matrix optimal string alignment
// distance, the reference for boundedDistance.
func osaDistance(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func TestBoundedDistance(t *testing.T) {
	var rows [3][]int
	tests := []struct {
		a, b string
		max  int
		want int
	}{
		{"deployment", "deploymant", 2, 1},
		{"deployment", "depolyment", 2, 1},
		{"deployment", "dpeloymnet", 2, 2},
		{"deployment", "dpeloymnte", 2, 3},
		{"failed", "fialde", 1, 2},
		{"limes", "smells", 1, 2},
		{"café", "cafe", 1, 1},
		{"", "abc", 3, 3},
		{"abc", "", 1, 2},
		{"teh", "the", 1, 1},
		{"kitten", "sitting", 3, 3},
	}
	for _, tt := range tests {
		got := boundedDistance([]rune(tt.a), []rune(tt.b), tt.max, &rows)
		assert.Equal(t, tt.want, got, "boundedDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.max, got, tt.want)
	}
}

// TestBoundedDistanceAgreesWithReferences compares boundedDistance with the
// full-matrix distance on random words of a small alphabet, and checks that
// it never exceeds the Levenshtein distance of agnivade/levenshtein (a
// transposition costs 2 there and 1 here; with no transposition they agree).
func TestBoundedDistanceAgreesWithReferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() []rune {
		w := make([]rune, rng.IntN(9))
		for i := range w {
			w[i] = rune("abcé"[rng.IntN(3)])
		}
		return w
	}
	var rows [3][]int
	for n := 0; n < 20000; n++ {
		a, b := word(), word()
		want := osaDistance(a, b)
		lev := levenshtein.ComputeDistance(string(a), string(b))
		require.LessOrEqual(t, want, lev)
		for max := 0; max <= 3; max++ {
			got := boundedDistance(a, b, max, &rows)
			require.Equal(t, min(want, max+1), got, "boundedDistance(%q, %q, %d)", string(a), string(b), max)
		}
	}
}
