package httpapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The faces (acp/, httpapi/) never change a session themselves: they import
// no store implementation, their Options hold only the read half of the
// store (agent.SessionReader), and no code of theirs calls a mutating
// session.Store method. Changes go through core/agent, so a third face
// writes none of it again.

// mutatingStoreMethods are session.Store's methods that change anything.
var mutatingStoreMethods = map[string]bool{
	"Create": true, "AppendMessage": true, "ReplaceConversation": true, "Update": true,
	"Delete": true, "Fork": true, "Truncate": true, "Import": true,
}

// storeImplementations are packages a face must not import.
var storeImplementations = []string{
	"github.com/goose-acp/goose-acp/core/session/sqlite",
	"github.com/goose-acp/goose-acp/core/session/memory",
}

func faceFiles(t *testing.T) map[string]*ast.File {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string]*ast.File{}
	for _, dir := range []string{".", "../acp"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = f
		}
	}
	if len(out) < 20 {
		t.Fatalf("found only %d face files; is the test running from httpapi/?", len(out))
	}
	return out
}

func TestFacesImportNoStoreImplementation(t *testing.T) {
	for path, f := range faceFiles(t) {
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, bad := range storeImplementations {
				if p == bad {
					t.Errorf("%s imports %s", path, p)
				}
			}
		}
	}
}

// Every Store a face keeps is typed agent.SessionReader, so a mutating call
// does not compile; the call check below catches a store reached any other
// way (a local variable, a type assertion).
func TestFacesHoldOnlyTheReadHalfOfTheStore(t *testing.T) {
	found := 0
	for path, f := range faceFiles(t) {
		ast.Inspect(f, func(n ast.Node) bool {
			field, ok := n.(*ast.Field)
			if !ok {
				return true
			}
			for _, name := range field.Names {
				if name.Name != "Store" {
					continue
				}
				found++
				if got := exprString(field.Type); got != "agent.SessionReader" {
					t.Errorf("%s: field Store is %s, want agent.SessionReader", path, got)
				}
			}
			return true
		})
	}
	if found < 2 {
		t.Fatalf("found %d Store fields, want acp's and httpapi's Options", found)
	}
}

func TestFacesCallNoMutatingStoreMethod(t *testing.T) {
	for path, f := range faceFiles(t) {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !mutatingStoreMethods[sel.Sel.Name] {
				return true
			}
			if recv := exprString(sel.X); mentionsStore(recv) {
				t.Errorf("%s: %s.%s changes the session store; call core/agent instead", path, recv, sel.Sel.Name)
			}
			return true
		})
	}
}

// mentionsStore reports a receiver expression that names a session store.
func mentionsStore(recv string) bool {
	for _, part := range strings.FieldsFunc(recv, func(r rune) bool { return r == '.' || r == '(' || r == ')' }) {
		if l := strings.ToLower(part); l == "store" || strings.HasSuffix(l, "store") && strings.Contains(l, "session") {
			return true
		}
	}
	return false
}

func exprString(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(x.X)
	case *ast.CallExpr:
		return exprString(x.Fun) + "()"
	case *ast.TypeAssertExpr:
		return exprString(x.X) + ".(" + exprString(x.Type) + ")"
	case *ast.ParenExpr:
		return "(" + exprString(x.X) + ")"
	case *ast.IndexExpr:
		return exprString(x.X) + "[]"
	}
	return ""
}

// The checks above must fail on the code they forbid.
func TestBoundaryCheckCatchesAStoreWrite(t *testing.T) {
	src := "package x\nfunc f(s *S) { s.opts.Store.Update(nil, \"id\", u); s.opts.Store.Get(nil, \"id\", false) }\n"
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var hits []string
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && mutatingStoreMethods[sel.Sel.Name] && mentionsStore(exprString(sel.X)) {
				hits = append(hits, sel.Sel.Name)
			}
		}
		return true
	})
	if len(hits) != 1 || hits[0] != "Update" {
		t.Fatalf("hits %v", hits)
	}
	if _, err := os.Stat("../acp/server.go"); err != nil {
		t.Fatal(err)
	}
}
