package core

import (
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// modulePath is the module core belongs to (go.mod).
const modulePath = "github.com/sessiontree/sessiontree"

// layers lists every package under core/ (relative to the module) with the
// packages of the module it may import: imports only go down. A new
// package under core/ must be added here, in its place.
var layers = map[string][]string{
	"core/internal/jsonx":  {},
	"core/internal/search": {},
	// tidy: the tree layout the map draws with.
	"core/internal/tidy": {},
	// treeview: the views of a tree (row order, the map's segments), on
	// plain arrays, laid out with tidy.
	"core/internal/treeview": {"core/internal/tidy"},
	"core/internal/cite":     {"core/internal/jsonx"},
	"core/internal/msgtext":  {"core/internal/jsonx", "core/internal/search", "core/internal/cite"},
	"core/internal/formats":  {"core/internal/jsonx", "core/internal/cite"},
	// importplan: the pure parts of an import (encodings, the records
	// planned as a tree, batches), on formats' records.
	"core/internal/importplan": {"core/internal/jsonx", "core/internal/formats"},
	// names: the rules for session ids, node ids and branch names.
	"core/internal/names": {"core/internal/jsonx", "core/internal/formats"},
	// entries: the entry nodes' kinds, checks, JSON, text and state.
	"core/internal/entries": {"core/internal/jsonx", "core/internal/formats", "core/internal/msgtext"},
	// tree: the session tree itself (sessions, nodes, branches,
	// annotations, the snapshot codec, the context), typed, with no store.
	"core/internal/tree": {"core/internal/jsonx", "core/internal/formats", "core/internal/entries", "core/internal/msgtext", "core/internal/names", "core/internal/treeview"},
	// store: the sessions of a page by id, with the clock, the ids, the
	// change log, paging, the memory budget, the trash, imports and the
	// search index, and the typed operations on them.
	"core/internal/store": {"core/internal/cite", "core/internal/formats", "core/internal/jsonx", "core/internal/msgtext", "core/internal/names", "core/internal/search", "core/internal/tree"},
	// importer: the driver from the formats' conversations to the store's
	// sessions: jobs in steps, merges into sessions imported before,
	// folders of files, batches.
	"core/internal/importer": {"core/internal/formats", "core/internal/importplan", "core/internal/jsonx", "core/internal/msgtext", "core/internal/names", "core/internal/store", "core/internal/tree"},
	// command: the text commands (/tree jump …), parsed and run over the
	// store's typed operations, never through JSON.
	"core/internal/command": {"core/internal/formats", "core/internal/jsonx", "core/internal/msgtext", "core/internal/names", "core/internal/store", "core/internal/tree"},
	// views: the values of tree.rows, map and family, written straight
	// into the reply from the store's sessions and kept caches.
	"core/internal/views": {"core/internal/entries", "core/internal/formats", "core/internal/jsonx", "core/internal/msgtext", "core/internal/search", "core/internal/store", "core/internal/tree", "core/internal/treeview"},
	// benchdata: the benchmarks' corpora, imported by test files only.
	"core/internal/benchdata": {"core/internal/jsonx"},
	"core":                    {"core/internal/jsonx", "core/internal/search", "core/internal/formats", "core/internal/cite", "core/internal/msgtext", "core/internal/benchdata", "core/internal/tidy", "core/internal/treeview", "core/internal/importplan", "core/internal/entries", "core/internal/names", "core/internal/tree", "core/internal/store", "core/internal/importer", "core/internal/command", "core/internal/views"},
	"core/wire":               {"core", "core/internal/jsonx", "core/internal/benchdata"},
	// protocolgen: the program go generate runs to write the JS side of
	// the contract (js/protocol.js, blocks of js/sessiontree.d.ts).
	"core/protocolgen": {"core"},
}

// thirdParty lists, per package, the prefixes of the packages outside the
// module and the standard library its non-test files may import (search
// folds text with golang.org/x/text/unicode/norm). Tests may also use
// testing libraries.
var thirdParty = map[string][]string{
	"core/internal/search": {"golang.org/x/text/"},
	"core":                 {"golang.org/x/text/"},
}

// layerViolations returns what is wrong with package pkg (relative to the
// module) importing imports; test says the imports are a _test.go file's,
// which may use any library outside the module.
func layerViolations(pkg string, imports []string, test bool) []string {
	allowed, known := layers[pkg]
	if !known {
		return []string{pkg + " is not in the layers table of core/layers_test.go"}
	}
	var out []string
	for _, imp := range imports {
		switch {
		case imp == modulePath || strings.HasPrefix(imp, modulePath+"/"):
			rel := strings.TrimPrefix(strings.TrimPrefix(imp, modulePath), "/")
			if test && rel == pkg {
				continue // an external test package (examples) imports its own package
			}
			if !slices.Contains(allowed, rel) {
				out = append(out, pkg+" imports "+rel+", which is not below it")
			}
		case !strings.Contains(strings.Split(imp, "/")[0], "."):
			// The standard library.
		case !test && !slices.ContainsFunc(thirdParty[pkg], func(p string) bool { return strings.HasPrefix(imp, p) }):
			out = append(out, pkg+" imports "+imp+", which is not in its thirdParty list")
		}
	}
	return out
}

// TestImportsOnlyGoDown parses every .go file under core/ and checks its
// imports against the layers table: jsonx imports only the standard
// library; search and formats may import jsonx, not each other; no
// package under core imports core or anything above itself.
func TestImportsOnlyGoDown(t *testing.T) {
	imports := map[string]map[string]bool{} // package → its imports (non-test files)
	testImports := map[string]map[string]bool{}
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.Contains(p, "testdata") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := path.Join("core", filepath.ToSlash(filepath.Dir(p)))
		set := imports
		if strings.HasSuffix(p, "_test.go") {
			set = testImports
		}
		if set[pkg] == nil {
			set[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			v, _ := strconv.Unquote(imp.Path.Value)
			set[pkg][v] = true
		}
		return nil
	})
	require.NoError(t, err)
	for pkg := range layers {
		require.Contains(t, imports, pkg, "the walk found the sources of %s", pkg)
	}
	check := func(set map[string]map[string]bool, test bool) {
		for pkg, imps := range set {
			for _, v := range layerViolations(pkg, slices.Sorted(maps.Keys(imps)), test) {
				t.Error(v)
			}
		}
	}
	check(imports, false)
	check(testImports, true)
}

func TestLayerViolationsCatchAWrongImport(t *testing.T) {
	const m = modulePath + "/"
	cases := []struct {
		name    string
		pkg     string
		imports []string
		test    bool
		wrong   bool
	}{
		{"core importing its internal packages is allowed", "core", []string{"strings", m + "core/internal/jsonx", m + "core/internal/search", m + "core/internal/formats", "golang.org/x/text/unicode/norm"}, false, false},
		{"formats importing jsonx is allowed", "core/internal/formats", []string{"bytes", m + "core/internal/jsonx"}, false, false},
		{"an internal test using testify is allowed", "core/internal/jsonx", []string{"testing", "github.com/stretchr/testify/require"}, true, false},
		{"jsonx importing core is refused", "core/internal/jsonx", []string{m + "core"}, false, true},
		{"jsonx importing search is refused", "core/internal/jsonx", []string{m + "core/internal/search"}, false, true},
		{"search importing formats is refused", "core/internal/search", []string{m + "core/internal/formats"}, false, true},
		{"formats importing search is refused", "core/internal/formats", []string{m + "core/internal/search"}, false, true},
		{"formats importing core is refused", "core/internal/formats", []string{m + "core"}, false, true},
		{"core importing the binding is refused", "core", []string{m + "wasm"}, false, true},
		{"wire importing core and jsonx is allowed", "core/wire", []string{m + "core", m + "core/internal/jsonx"}, false, false},
		{"core importing wire is refused", "core", []string{m + "core/wire"}, false, true},
		{"wire's examples importing wire are allowed", "core/wire", []string{m + "core/wire", m + "core"}, true, false},
		{"wire importing itself outside tests is refused", "core/wire", []string{m + "core/wire"}, false, true},
		{"wire importing search is refused", "core/wire", []string{m + "core/internal/search"}, false, true},
		{"search folding with x/text is allowed", "core/internal/search", []string{"golang.org/x/text/unicode/norm"}, false, false},
		{"jsonx using x/text is refused", "core/internal/jsonx", []string{"golang.org/x/text/unicode/norm"}, false, true},
		{"an internal package using a third-party library is refused", "core/internal/search", []string{"github.com/agnivade/levenshtein"}, false, true},
		{"treeview laying out with tidy is allowed", "core/internal/treeview", []string{"sort", m + "core/internal/tidy"}, false, false},
		{"treeview importing jsonx is refused", "core/internal/treeview", []string{m + "core/internal/jsonx"}, false, true},
		{"a package missing from the table is refused", "core/internal/extra", []string{"strings"}, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := layerViolations(tc.pkg, tc.imports, tc.test)
			assert.Equal(t, tc.wrong, len(got) > 0, "layerViolations(%q, %q) = %q", tc.pkg, tc.imports, got)
		})
	}
}
