package acphttp

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsNothingOfOurs keeps the transport a leaf: both faces that
// serve /acp (cmd's serve, httpapi's goosed alias) import it, and it reaches
// the ACP server only through ServeFunc.
func TestImportsNothingOfOurs(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(path, "github.com/goose-acp/goose-acp") {
				t.Errorf("%s imports %s", p, path)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("checked only %d files", checked)
	}
}
