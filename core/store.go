package core

import "github.com/sessiontree/sessiontree/core/internal/store"

// Store holds every session of one page (or one process) and answers
// requests through Call, Run and CallInternal (dispatch.go). Its typed
// operations (Append, Jump, Branch, Fork, Context, Label, Import,
// Search, …) are the store's (core/internal/store). It is not safe for
// concurrent use: the wasm binding calls it from the JS event loop only;
// native callers serialise their calls.
type Store struct {
	*store.Store
}

// Options configure a Store (store.Options). The zero value uses the
// system clock and RandomID's ids.
type Options = store.Options

// New returns an empty store.
func New(opts Options) *Store { return &Store{store.New(opts)} }

// RandomID returns 8 lowercase hex characters, the id length the Pi coding
// agent uses (store.RandomID).
func RandomID() string { return store.RandomID() }

// MemoryInUse returns the bytes the program holds now (store.MemoryInUse,
// from runtime/metrics).
func MemoryInUse() int64 { return store.MemoryInUse() }

// The memory budget (see store.DefaultMemoryBudget and the others): the
// binding's default budget in bytes, the request size from which the
// binding asks before copying a request, and the growth factors of a
// request, an import and an import job.
const (
	DefaultMemoryBudget = store.DefaultMemoryBudget
	PrecheckBytes       = store.PrecheckBytes
	RequestGrowth       = store.RequestGrowth
	ImportGrowth        = store.ImportGrowth
	ImportJobGrowth     = store.ImportJobGrowth
)

// PagedOut is the code of a call that named a session whose nodes are not
// in memory; the shim loads it and calls again (store.PagedOut).
const PagedOut = store.PagedOut

// NothingToImport is the reason of import data no format reads
// (store.NothingToImport).
const NothingToImport = store.NothingToImport

// Imports is a table of imports sent in slices and run in steps
// (store.Imports).
type Imports = store.Imports

// NewImports returns an empty table of imports into st.
func NewImports(st *Store) *Imports { return store.NewImports(st.Store) }

// The values of the typed operations and their options (see core/internal/store).
type (
	AppendOptions   = store.AppendOptions
	ForkOptions     = store.ForkOptions
	ImportJob       = store.ImportJob
	ImportProgress  = store.ImportProgress
	ImportResult    = store.ImportResult
	ImportedSession = store.ImportedSession
	ImportSkipped   = store.ImportSkipped
	ImportFile      = store.ImportFile
	FileSession     = store.FileSession
	FilesResult     = store.FilesResult
	Export          = store.Export
	SearchHit       = store.SearchHit
	SearchResult    = store.SearchResult
	SearchOptions   = store.SearchOptions
	SessionSummary  = store.SessionSummary
	TrashItem       = store.TrashItem
	Erased          = store.Erased
	ContextView     = store.ContextView
	ContextTexts    = store.ContextTexts
)

// ParseFileManifest reads the manifest and data of an import of several
// files into their ImportFiles (store.ParseFileManifest); a bad manifest
// is INVALID_ARGUMENT naming the entry.
func ParseFileManifest(manifest, data []byte) ([]ImportFile, *Error) {
	return store.ParseFileManifest(manifest, data)
}

// DrainGroupNodes is the most nodes of one session a drained change
// carries in one record (store.DrainGroupNodes).
const DrainGroupNodes = store.DrainGroupNodes

// ExportFormats returns the names of the formats export writes
// (store.ExportFormats).
func ExportFormats() []string { return store.ExportFormats() }
