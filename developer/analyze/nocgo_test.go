//go:build !cgo

package analyze

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// A binary built without cgo has no tree-sitter: every analyze call, even
// of a file that exists, answers ErrNoCgo, which tells the user how to get
// a build that has analyze. Run with CGO_ENABLED=0 (TestNoCgoBuild does).
func TestAnalyzeWithoutCgo(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "tree"))
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []Request{
		{Path: root, MaxDepth: 3},
		{Path: filepath.Join(root, "main.go")},
		{Path: root, Focus: "helper", FollowDepth: 2},
	} {
		out, err := Analyze(context.Background(), req)
		if !errors.Is(err, ErrNoCgo) || out != "" {
			t.Fatalf("Analyze(%+v) = %q, %v; want ErrNoCgo", req, out, err)
		}
	}
	want := "analyze is not available in this goose-acp: the binary was built without cgo (CGO_ENABLED=0), " +
		"and analyze parses code with tree-sitter's C library. To get a goose-acp with analyze, install a C " +
		"compiler (gcc or clang) and build with cgo: CGO_ENABLED=1 go build ./cmd/goose-acp"
	if ErrNoCgo.Error() != want {
		t.Errorf("message = %q\nwant      %q", ErrNoCgo.Error(), want)
	}
}
