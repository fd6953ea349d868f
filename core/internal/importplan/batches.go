package importplan

import (
	"sort"

	"github.com/sessiontree/sessiontree/core/internal/formats"
)

// Batches cuts a folder's file groups (formats.GroupFiles) into batches
// of at most limit bytes each, sizes giving each file's size in bytes by
// its index: the groups in their order, a batch closed when the next
// group would take it past limit, a group never cut (a group larger than
// limit is a batch of its own). Each batch lists its files' indexes in
// ascending order; a file in no group is in no batch. The result is
// empty, not nil, when there are no groups.
func Batches(groups []formats.FileGroup, sizes []int64, limit int64) [][]int {
	out := [][]int{}
	var batch []int
	var size int64
	for _, g := range groups {
		var n int64
		for _, k := range g.Files {
			n += sizes[k]
		}
		if len(batch) > 0 && size+n > limit {
			sort.Ints(batch)
			out = append(out, batch)
			batch, size = nil, 0
		}
		batch = append(batch, g.Files...)
		size += n
	}
	if len(batch) > 0 {
		sort.Ints(batch)
		out = append(out, batch)
	}
	return out
}
