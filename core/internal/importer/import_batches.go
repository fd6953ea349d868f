package importer

import (
	"github.com/sessiontree/sessiontree/core/internal/jsonx"
)

// A folder too large to import in one go (its bytes and the sessions read
// from them past the memory budget) is imported in batches, each stored
// before the next is read, so memory follows a batch, not the folder
// (js/folder-import.js). Which files go together is core's to say: a
// group of files read as one import (an OpenCode storage tree, a Cline
// task folder; formats.GroupFiles) is never cut, and a file no format reads is
// left out with its reason, so its bytes are never copied in.

// Batches is the value of import.batches.
type Batches struct {
	// Batches lists the files of each batch by their index in the
	// request's list, in the list's order.
	Batches [][]int `json:"batches"`
	// Skipped gives each file left out: [index, reason].
	Skipped [][2]any `json:"skipped"`
}

// BatchFile is a file of an import.batches request.
type BatchFile struct {
	Path string
	Size int64
}

// pathSizeFields are the keys of a file's path and size.
var pathSizeFields = []string{"path", "size"}

// ReadBatchFile reads a file el of import.batches into f and reports
// whether it is an object whose path is a string and size an integer.
func ReadBatchFile(el []byte, f *BatchFile) bool {
	ok := true
	ok = jsonx.ReadObject(el, pathSizeFields, func(field int, v []byte) {
		if field == 0 {
			ok = jsonx.ReadString(v, &f.Path) && ok
		} else {
			n := int(f.Size) // an int has 64 bits on every target core builds for
			ok = jsonx.ReadInt(v, &n) && ok
			f.Size = int64(n)
		}
	}) && ok
	return ok
}
