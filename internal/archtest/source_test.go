package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// moduleRoot is the directory holding go.mod, above this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}

// goFile is one parsed Go file of the module.
type goFile struct {
	rel  string // slash path from the module root
	dir  string // its package directory, slash path
	file *ast.File
	test bool
}

// sourceFiles parses every non-test .go file of the module (testdata and
// node_modules skipped) for imports and declarations.
func sourceFiles(t *testing.T) []goFile {
	t.Helper()
	var out []goFile
	for _, f := range goFiles(t) {
		if !f.test {
			out = append(out, f)
		}
	}
	return out
}

// goFiles parses every .go file of the module, tests included, with its
// comments.
func goFiles(t *testing.T) []goFile {
	t.Helper()
	root := moduleRoot(t)
	fset := token.NewFileSet()
	var out []goFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "node_modules", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		out = append(out, goFile{rel: rel, dir: filepath.ToSlash(filepath.Dir(rel)), file: f, test: strings.HasSuffix(path, "_test.go")})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatal("no Go files found")
	}
	return out
}
