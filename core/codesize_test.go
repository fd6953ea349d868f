package core

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The size rules of the house (STYLE.md, issue 14): no non-test Go file of
// the module over maxFileLines lines, no function over maxFuncLines lines
// (from its func keyword to its closing brace), except sizeExceptions.
const (
	maxFileLines = 600
	maxFuncLines = 100
)

// sizeException lets one file (Func empty) or one function (Func is its
// name, Type.Method for a method) of the module be over its limit, up to
// Lines (its size when it was listed): it may shrink, not grow. An
// exception that is no longer needed fails the test, so the list stays
// what the code is.
type sizeException struct {
	File  string // relative to the module root, with slashes
	Func  string
	Lines int
	Why   string
}

// sizeExceptions are the files and functions over the limits, each with
// its reason. This list may only shrink: an entry's Lines may go down or
// the entry go away, never up, and no entry is added (split the function
// instead). It is empty: the three functions over 100 lines when the limit
// went from 120 to 100 (issue 23) were split.
var sizeExceptions = []sizeException{}

// sizeFinding is one file or function over its limit.
type sizeFinding struct {
	File  string
	Func  string // "" for the file itself
	Lines int
}

func (f sizeFinding) String() string {
	if f.Func == "" {
		return f.File + " has " + strconv.Itoa(f.Lines) + " lines (limit " + strconv.Itoa(maxFileLines) + ")"
	}
	return f.File + ": " + f.Func + " has " + strconv.Itoa(f.Lines) + " lines (limit " + strconv.Itoa(maxFuncLines) + ")"
}

// oversized parses one Go source file (name is its path, for the
// findings) and returns the file and the functions over the limits:
// function declarations by name (Type.Method for methods) and function
// literals outside any declaration (a package-level var = func…) as
// "func literal at line N".
func oversized(name string, src []byte) ([]sizeFinding, error) {
	var out []sizeFinding
	lines := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	if lines > maxFileLines {
		out = append(out, sizeFinding{File: name, Lines: lines})
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	span := func(n ast.Node) int { return fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1 }
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if n := span(d); n > maxFuncLines {
				out = append(out, sizeFinding{File: name, Func: funcName(d), Lines: n})
			}
		case *ast.GenDecl:
			ast.Inspect(d, func(n ast.Node) bool {
				lit, ok := n.(*ast.FuncLit)
				if !ok {
					return true
				}
				if l := span(lit); l > maxFuncLines {
					out = append(out, sizeFinding{File: name, Func: "func literal at line " + strconv.Itoa(fset.Position(lit.Pos()).Line), Lines: l})
				}
				return false // a literal inside it is within its lines
			})
		}
	}
	return out, nil
}

// funcName is a declaration's name, Type.Method for a method (the
// receiver's type without pointer or type parameters).
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + d.Name.Name
		}
		return d.Name.Name
	}
}

// sizeViolations checks findings against exceptions: a finding without an
// exception, or larger than its exception allows, is a violation; so is an
// exception that matches no finding (no longer needed: remove it).
func sizeViolations(findings []sizeFinding, exceptions []sizeException) []string {
	var out []string
	used := make([]bool, len(exceptions))
	for _, f := range findings {
		k := slices.IndexFunc(exceptions, func(e sizeException) bool { return e.File == f.File && e.Func == f.Func })
		switch {
		case k < 0:
			out = append(out, f.String()+": split it (or list it, with the reason, in sizeExceptions)")
		case f.Lines > exceptions[k].Lines:
			used[k] = true
			out = append(out, f.String()+": it grew past its exception's "+strconv.Itoa(exceptions[k].Lines))
		default:
			used[k] = true
		}
	}
	for k, e := range exceptions {
		if !used[k] {
			what := e.File
			if e.Func != "" {
				what += ": " + e.Func
			}
			out = append(out, what+" is within the limits now (or gone): remove its entry from sizeExceptions")
		}
	}
	return out
}

// TestSourceSizesStayWithinTheLimits parses every non-test .go file of the
// module (walkModuleSources) and fails on a file over 600 lines or a
// function over 100 not in sizeExceptions.
func TestSourceSizesStayWithinTheLimits(t *testing.T) {
	var findings []sizeFinding
	files := walkModuleSources(t, func(rel string, src []byte) error {
		found, err := oversized(rel, src)
		findings = append(findings, found...)
		return err
	})
	require.Greater(t, files, 40, "the walk found the module's sources")
	for _, v := range sizeViolations(findings, sizeExceptions) {
		t.Error(v)
	}
}

// walkModuleSources calls fn with the path (relative to the module root,
// slash-separated) and the bytes of every non-test .go file of the module
// (the directory with go.mod above core; nested modules such as tools/,
// testdata and node_modules left out) and returns how many it read.
func walkModuleSources(t *testing.T, fn func(rel string, src []byte) error) int {
	t.Helper()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.mod"))
	files := 0
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); p != root && err == nil {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files++
		return fn(filepath.ToSlash(rel), src)
	})
	require.NoError(t, err)
	return files
}

func TestSizeRulesCatchALongFileOrFunction(t *testing.T) {
	body := func(n int) string { return strings.Repeat("\tx++\n", n) }
	// fn is a function of n lines in all.
	fn := func(decl string, n int) string { return decl + " {\n" + body(n-2) + "}\n" }
	const head = "package p\n\ntype T struct{}\n\nvar x int\n\n"
	cases := []struct {
		name       string
		src        string
		exceptions []sizeException
		want       []string // substrings of the violations, in order
	}{
		{"a function of 100 lines passes", head + fn("func f()", 100), nil, nil},
		{"a function of 101 lines fails", head + fn("func f()", 101), nil, []string{"p.go: f has 101 lines"}},
		{"a method is named by its type", head + fn("func (t *T) M()", 130), nil, []string{"p.go: T.M has 130 lines"}},
		{"a generic type's method too", "package p\n\ntype G[E any] struct{}\n\nvar x int\n\n" + fn("func (g G[E]) M()", 125), nil, []string{"p.go: G.M has 125 lines"}},
		{"a package-level function literal counts", head + "var f = func() {\n" + body(125) + "}\n", nil, []string{"p.go: func literal at line 7 has 127 lines"}},
		{"a file of 600 lines passes", head + strings.Repeat("// line\n", 600-6), nil, nil},
		{"a file of 601 lines fails", head + strings.Repeat("// line\n", 601-6), nil, []string{"p.go has 601 lines (limit 600)"}},
		{"a file of 601 lines without a final newline fails", head + strings.Repeat("// line\n", 600-6) + "// last", nil, []string{"p.go has 601 lines"}},
		{"a listed function passes", head + fn("func f()", 150), []sizeException{{"p.go", "f", 150, "test"}}, nil},
		{"a listed function that grew fails", head + fn("func f()", 151), []sizeException{{"p.go", "f", 150, "test"}}, []string{"grew past its exception's 150"}},
		{"a listed file passes", head + strings.Repeat("// line\n", 700), []sizeException{{"p.go", "", 706, "test"}}, nil},
		{"an exception no longer needed fails", head + fn("func f()", 20), []sizeException{{"p.go", "f", 150, "test"}}, []string{"p.go: f is within the limits now (or gone)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			findings, err := oversized("p.go", []byte(tc.src))
			require.NoError(t, err)
			got := sizeViolations(findings, tc.exceptions)
			require.Len(t, got, len(tc.want), "sizeViolations = %q", got)
			for i, w := range tc.want {
				assert.Contains(t, got[i], w)
			}
		})
	}
}
