package main

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/sessiontree/sessiontree/core"
)

// genFile is one generated file: its path under the module root, with
// slashes, and its whole text.
type genFile struct {
	path string
	text []byte
}

const (
	protocolPath = "js/protocol.js"
	dtsPath      = "js/sessiontree.d.ts"
	handlePath   = "wasm/handle.go"
)

// generate builds every generated file from core.Protocol() and the
// handle's method table in root's wasm/handle.go; the .d.ts is read from
// root and only its marked blocks are replaced.
func generate(root string) ([]genFile, error) {
	methods, err := handleMethods(filepath.Join(root, handlePath))
	if err != nil {
		return nil, err
	}
	p := core.Protocol()
	dts, err := os.ReadFile(filepath.Join(root, dtsPath))
	if err != nil {
		return nil, err
	}
	text := string(dts)
	for _, b := range []struct{ name, body string }{{"ERROR CODES", errorCodeType(p)}, {"OPERATIONS", operationsInterface(p)}} {
		if text, err = spliceBlock(text, b.name, b.body); err != nil {
			return nil, errors.New(dtsPath + ": " + err.Error())
		}
	}
	return []genFile{{protocolPath, []byte(protocolJS(p, methods))}, {dtsPath, []byte(text)}}, nil
}

// handleMethods reads the names of the wasm handle's methods: the string
// names of the package-level table `methods` in the file at path (a
// list of {"name", f} entries, or a map keyed by name), sorted.
func handleMethods(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			if len(v.Names) != 1 || v.Names[0].Name != "methods" || len(v.Values) != 1 {
				continue
			}
			lit, ok := v.Values[0].(*ast.CompositeLit)
			if !ok {
				continue
			}
			for _, el := range lit.Elts {
				// A map's entry "name": f, or a list's {"name", f}.
				var first ast.Expr
				switch el := el.(type) {
				case *ast.KeyValueExpr:
					first = el.Key
				case *ast.CompositeLit:
					if len(el.Elts) > 0 {
						first = el.Elts[0]
					}
				}
				if key, ok := first.(*ast.BasicLit); ok && key.Kind == token.STRING {
					name, err := strconv.Unquote(key.Value)
					if err != nil {
						return nil, err
					}
					names = append(names, name)
				}
			}
		}
	}
	if len(names) == 0 {
		return nil, errors.New(path + ": no literal var methods whose entries start with a string (a map's keys or a list's names)")
	}
	sort.Strings(names)
	return names, nil
}

// The marker comments around a generated block of the .d.ts.
func beginMarker(name string) string {
	return "// BEGIN GENERATED " + name + " (go generate ./...: core/protocolgen; do not edit by hand)\n"
}
func endMarker(name string) string { return "// END GENERATED " + name + "\n" }

// spliceBlock replaces what lies between the markers of block name in
// text by body; an error when the markers are missing or out of order.
func spliceBlock(text, name, body string) (string, error) {
	begin, end := beginMarker(name), endMarker(name)
	i := strings.Index(text, begin)
	j := strings.Index(text, end)
	if i < 0 || j < i {
		return "", errors.New("the markers of the generated " + name + " block are missing: add the lines " + strconv.Quote(strings.TrimSpace(begin)) + " and " + strconv.Quote(strings.TrimSpace(end)))
	}
	return text[:i+len(begin)] + body + text[j:], nil
}

// errorCodeType is the .d.ts's ErrorCode union: core's codes, then the
// shim's own with its comment.
func errorCodeType(p core.ProtocolSpec) string {
	var b strings.Builder
	b.WriteString("/** The error codes of every envelope: core's six, then the JS shim's own. */\nexport type ErrorCode =\n")
	for _, c := range p.Codes {
		b.WriteString("  | " + strconv.Quote(string(c)) + "\n")
	}
	for k, c := range p.ShimCodes {
		if k == 0 {
			b.WriteString(shimCodeDoc)
		}
		b.WriteString("  | " + strconv.Quote(string(c)))
		if k == len(p.ShimCodes)-1 {
			b.WriteString(";")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// shimCodeDoc is the .d.ts comment of STORAGE_ERROR.
const shimCodeDoc = `  /**
   * Only from the JS shim, never from core: a change could not be written
   * to IndexedDB (quota exceeded, connection closed by a newer tab). The
   * change was undone in memory too. The message starts "storage full:"
   * for a QuotaExceededError, "storage error:" otherwise.
   */
`

// operationsInterface is the .d.ts's Operations interface: every public
// operation with its request fields and value type.
func operationsInterface(p core.ProtocolSpec) string {
	var b strings.Builder
	b.WriteString(`/**
 * Every public operation of call(), by name: its request fields (besides
 * ` + "`operation`" + `) and the value of its ok envelope (SPEC.md's table). A field
 * core does not know for the operation is INVALID_ARGUMENT at run time, and
 * a compile error here.
 */
export interface Operations {
`)
	for _, o := range p.Operations {
		if !o.Public {
			continue
		}
		if o.Doc != "" {
			b.WriteString("  /** " + o.Doc + " */\n")
		}
		request := o.Request
		if request == "" {
			request = "{}"
			if len(o.Types) > 0 {
				request = "{ " + strings.Join(o.Types, "; ") + " }"
			}
		}
		b.WriteString("  " + tsKey(o.Name) + ": { request: " + request + "; value: " + o.Value + " };\n")
	}
	b.WriteString("}\n")
	b.WriteString(changeOperations(p))
	return b.String()
}

// changeOperations is the .d.ts's ChangeOperationName: every operation
// that may change the store (public or internal, not read-only), the
// names a ChangeEvent's type can take besides "sync".
func changeOperations(p core.ProtocolSpec) string {
	var names []string
	for _, o := range p.Operations {
		if !o.ReadOnly {
			names = append(names, strconv.Quote(o.Name))
		}
	}
	return "\n/** The operations that may change the store (public or internal): what a ChangeEvent's type names, besides \"sync\". */\nexport type ChangeOperationName =\n  | " + strings.Join(names, "\n  | ") + ";\n"
}

// tsKey is name as a TypeScript member name: quoted unless it is an
// identifier.
func tsKey(name string) string {
	for i, r := range name {
		if !(r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return strconv.Quote(name)
		}
	}
	return name
}
