package core

import (
	"github.com/sessiontree/sessiontree/core/internal/importer"
	"github.com/sessiontree/sessiontree/core/internal/store"
	"github.com/sessiontree/sessiontree/core/internal/views"
)

// Store holds every session of one page (or one process) and answers
// requests through Call, Run and CallInternal (dispatch.go) or its typed
// methods (api.go: Create, Append, Jump, Branch, Fork, Context, Label,
// Search, Import, …), over the store of core/internal/store. Make one with
// New: the zero value is not usable. It is not safe for concurrent use:
// the wasm binding calls it from the JS event loop only; native callers
// serialise their calls.
type Store struct {
	// s is the store of the sessions (core/internal/store); Store's typed
	// methods (api.go) forward to it, its handlers (ops*.go) use it.
	s *store.Store
	// views is what tree.rows, map and context keep of each session
	// between calls, dropped when the session leaves the store.
	views views.Caches
}

// Options configure a Store (store.Options). The zero value uses the
// system clock and RandomID's ids.
type Options = store.Options

// New returns an empty store.
func New(opts Options) *Store {
	st := &Store{s: store.New(opts)}
	st.s.OnLeave = st.views.Forget
	return st
}

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
// (importer.NothingToImport).
const NothingToImport = importer.NothingToImport

// Imports is a table of imports sent in slices and run in steps
// (importer.Imports).
type Imports = importer.Imports

// NewImports returns an empty table of imports into st.
func NewImports(st *Store) *Imports { return importer.NewImports(st.s) }

// The values of the typed operations and their options (see core/internal/store).
type (
	AppendOptions   = store.AppendOptions
	ForkOptions     = store.ForkOptions
	ImportJob       = importer.Job
	ImportProgress  = importer.Progress
	ImportResult    = importer.Result
	ImportedSession = importer.SessionReport
	ImportSkipped   = importer.Skipped
	ImportFile      = importer.File
	FileSession     = importer.FileSession
	FilesResult     = importer.FilesResult
	Export          = views.Export
	SearchHit       = store.SearchHit
	SearchResult    = store.SearchResult
	SkippedSession  = store.SkippedSession
	SearchOptions   = store.SearchOptions
	SessionSummary  = store.SessionSummary
	TrashItem       = store.TrashItem
	Erased          = store.Erased
	ContextView     = views.ContextView
	ContextTexts    = views.ContextTexts
)

// ParseFileManifest reads the manifest and data of an import of several
// files into their ImportFiles (importer.ParseFileManifest); a bad manifest
// is INVALID_ARGUMENT naming the entry.
func ParseFileManifest(manifest, data []byte) ([]ImportFile, *Error) {
	return importer.ParseFileManifest(manifest, data)
}

// DrainGroupNodes is the most nodes of one session a drained change
// carries in one record (store.DrainGroupNodes).
const DrainGroupNodes = store.DrainGroupNodes

// Import reads an export (data: its bytes) in the named format ("" or
// "auto" detects it) and adds one session per conversation
// (importer.Import). The result reports the sessions made, the
// conversations skipped and warnings for what was skipped or guessed. A
// conversation that is already a session adds only the nodes the session
// does not have, so a second import adds nothing. An import that yields no
// session is INVALID_ARGUMENT; one that would grow a session not in memory
// is PAGED_OUT, having added nothing.
func (st *Store) Import(data []byte, format string) (*ImportResult, *Error) {
	return importer.Import(st.s, data, format)
}

// StartImport detects or looks up the format of data and returns a job
// that reads it in steps (importer.StartImport, ImportJob). Errors are
// INVALID_ARGUMENT: empty data, an unknown format name, a format that
// cannot be detected, data that is not JSON or JSON lines (naming line and
// column), data whose import would pass the memory budget.
func (st *Store) StartImport(data []byte, format string) (*ImportJob, *Error) {
	return importer.Start(st.s, data, format)
}

// ImportFiles imports a set of files at once, as a coding agent or chat
// app keeps them on disk (importer.ImportFiles): each group of files is
// read, then every session found is added or grown. A file that cannot be
// read is reported in Files and never fails the others; nothing is added
// when no file gives a session (INVALID_ARGUMENT naming each file's
// reason).
func (st *Store) ImportFiles(files []ImportFile) (*FilesResult, *Error) {
	return importer.ImportFiles(st.s, files)
}

// The limits of search (see store.DefaultSearchLimit and the others): the
// hits answered when the request gives no limit and the most it may ask,
// the longest query in characters, a snippet's length in characters, the
// bytes of stored sessions a search may load before it is refused, and
// when the kept index is written again (a share of its documents changed,
// or this long, a time.Duration, passed with any change).
const (
	DefaultSearchLimit = store.DefaultSearchLimit
	MaxSearchLimit     = store.MaxSearchLimit
	MaxQueryLength     = store.MaxQueryLength
	SnippetLength      = store.SnippetLength
	LoadedNodeBytes    = store.LoadedNodeBytes
	KeepSearchShare    = store.KeepSearchShare
	KeepSearchEvery    = store.KeepSearchEvery
)

// The flags of a packed stub summary (Store.PageStubPacked): which
// optional members follow.
const (
	StubHasTitle        = store.StubHasTitle
	StubHasCursor       = store.StubHasCursor
	StubHasActiveBranch = store.StubHasActiveBranch
	StubHasSource       = store.StubHasSource
	StubHasSourceNodeID = store.StubHasSourceNodeID
)

// AppendMany is the value of append.many (store.AppendMany).
type AppendMany = store.AppendMany

// DefaultStepBudget is the work an import job's Step does when given no
// budget, in bytes of the export read (importer.DefaultStepBudget).
const DefaultStepBudget = importer.DefaultStepBudget

// ExportFormats returns the names of the formats export writes
// (views.ExportFormats).
func ExportFormats() []string { return views.ExportFormats() }
