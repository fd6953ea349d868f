package core

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// undocumented returns "file:line: Name has no doc comment" for each
// exported identifier of src (a Go file named name) without one: a
// function, a method of an exported type, a type, a constant or a
// variable. A spec inside a parenthesised group is documented by the
// group's comment, its own or the comment at the end of its line. Struct
// fields are left to their type's comment. Directives (//go:noinline) are
// no doc; a function's or a lone type's doc must start with its name.
func undocumented(name string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var out []string
	report := func(id *ast.Ident) {
		if id.IsExported() {
			out = append(out, fset.Position(id.Pos()).String()+": "+id.Name+" has no doc comment")
		}
	}
	// starts checks that doc, a function's or a lone type's, names id
	// first ("// Name does …", "// A Name is …" and the like allowed).
	starts := func(id *ast.Ident, doc *ast.CommentGroup) {
		words := strings.Fields(doc.Text())
		if !id.IsExported() || len(words) == 0 {
			return
		}
		for _, w := range words[:min(3, len(words))] {
			if strings.TrimRight(w, ",:.") == id.Name || strings.HasPrefix(w, id.Name+"'") {
				return
			}
		}
		out = append(out, fset.Position(id.Pos()).String()+": the doc of "+id.Name+" does not start with its name")
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && !ast.IsExported(receiverType(d)) {
				break
			}
			if d.Doc.Text() == "" {
				report(d.Name)
			} else {
				starts(d.Name, d.Doc)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				documented := d.Doc.Text() != ""
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					if !documented && sp.Doc.Text() == "" && sp.Comment.Text() == "" {
						report(sp.Name)
					} else if d.Doc.Text() != "" && !d.Lparen.IsValid() {
						starts(sp.Name, d.Doc)
					}
				case *ast.ValueSpec:
					if !documented && sp.Doc.Text() == "" && sp.Comment.Text() == "" {
						for _, id := range sp.Names {
							report(id)
						}
					}
				}
			}
		}
	}
	return out, nil
}

// receiverType returns the name of a method's receiver type.
func receiverType(d *ast.FuncDecl) string {
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t := t.(type) {
	case *ast.IndexExpr:
		t2, _ := t.X.(*ast.Ident)
		return t2.Name
	case *ast.IndexListExpr:
		t2, _ := t.X.(*ast.Ident)
		return t2.Name
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// TestEveryExportedNameHasADocComment holds STYLE.md's rule over every
// non-test Go file of the module.
func TestEveryExportedNameHasADocComment(t *testing.T) {
	files := walkModuleSources(t, func(rel string, src []byte) error {
		found, err := undocumented(rel, src)
		for _, f := range found {
			t.Error(f)
		}
		return err
	})
	require.Greater(t, files, 40, "the walk found the module's sources")
}

func TestTheDocRuleCatchesAnUndocumentedName(t *testing.T) {
	src := `package p

// F is documented.
func F() {}

func G() {}

type t struct{}

func (t) M() {}

// T is documented.
type T struct{}

func (T) N() {}

// The codes.
const (
	A = 1
	B = 2
)

const (
	C = 3 // C is documented at the end of its line.
	D = 4
)

var E, h = 5, 6

// I is documented by a directive only below.
//
//go:noinline
func I() {}

//go:noinline
func J() {}

// This sentence does not name K.
func K() {}

// A L is fine: "A", "An" and "The" may come first.
type L int
`
	got, err := undocumented("p.go", []byte(src))
	require.NoError(t, err)
	assert.Equal(t, []string{
		"p.go:6:6: G has no doc comment",
		"p.go:15:10: N has no doc comment",
		"p.go:25:2: D has no doc comment",
		"p.go:28:5: E has no doc comment",
		"p.go:36:6: J has no doc comment",
		"p.go:39:6: the doc of K does not start with its name",
	}, got)
}
