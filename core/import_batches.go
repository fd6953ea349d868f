package core

import (
	"sort"

	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// A folder too large to import in one go (its bytes and the sessions read
// from them past the memory budget) is imported in batches, each stored
// before the next is read, so memory follows a batch, not the folder
// (js/folder-import.js). Which files go together is core's to say: a
// group of files read as one import (an OpenCode storage tree, a Cline
// task folder; groupFiles) is never cut, and a file no format reads is
// left out with its reason, so its bytes are never copied in.

// ImportBatches is the value of import.batches.
type ImportBatches struct {
	// Batches lists the files of each batch by their index in the
	// request's list, in the list's order.
	Batches [][]int `json:"batches"`
	// Skipped gives each file left out: [index, reason].
	Skipped [][2]any `json:"skipped"`
}

// opImportBatches answers how to import a list of files in batches of at
// most "bytes" bytes each (a group larger than that is a batch of its own):
//
//	{"operation":"import.batches","files":[{"path","size"}…],"bytes":N}
//
// INVALID_ARGUMENT when files is not a list of {path, size} with a
// non-negative integer size, or bytes is not a positive integer.
func opImportBatches(st *Store, r *request) (any, *Error) {
	var list []struct {
		Path string `json:"path"`
		Size int64  `json:"size"`
	}
	if err := jsonx.Unmarshal(r.fields["files"], &list); err != nil || !r.has("files") {
		return nil, invalidf("field \"files\" must be a list of {path, size} for operation \"import.batches\"")
	}
	var limit int64
	if err := jsonx.Unmarshal(r.fields["bytes"], &limit); err != nil || limit <= 0 {
		return nil, invalidf("field \"bytes\" must be a positive integer for operation \"import.batches\"")
	}
	files := make([]ImportFile, len(list))
	for i, f := range list {
		if f.Size < 0 {
			return nil, invalidf("import.batches: file %d (%q) has a negative size", i, f.Path)
		}
		files[i].Path = cleanPath(f.Path)
	}
	groups, skipped := groupFiles(files)
	v := &ImportBatches{Batches: [][]int{}, Skipped: [][2]any{}}
	for i, why := range skipped {
		if why != "" {
			v.Skipped = append(v.Skipped, [2]any{i, why})
		}
	}
	var batch []int
	var size int64
	for _, g := range groups {
		var n int64
		for _, k := range g.files {
			n += list[k].Size
		}
		if len(batch) > 0 && size+n > limit {
			sort.Ints(batch)
			v.Batches = append(v.Batches, batch)
			batch, size = nil, 0
		}
		batch = append(batch, g.files...)
		size += n
	}
	if len(batch) > 0 {
		sort.Ints(batch)
		v.Batches = append(v.Batches, batch)
	}
	return v, nil
}
