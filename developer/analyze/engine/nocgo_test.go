//go:build !cgo

package engine

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

// Built without cgo there is no tree-sitter: every analysis, even of a
// file that exists, answers analyze.ErrNoCgo, and the helper's answer
// says how to rebuild it with cgo. Run with CGO_ENABLED=0 (TestNoCgoBuild
// does).
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
		if !errors.Is(err, analyze.ErrNoCgo) || out != "" {
			t.Fatalf("Analyze(%+v) = %q, %v; want analyze.ErrNoCgo", req, out, err)
		}
	}
	var out bytes.Buffer
	in := strings.NewReader(`{"path":"` + filepath.ToSlash(root) + `","max_depth":3}`)
	if err := Serve(context.Background(), in, &out, "/opt/goose/goose-acp-analyze"); err != nil {
		t.Fatal(err)
	}
	want := `{"text":"","error":{"kind":"no_cgo","message":"analyze is not available: /opt/goose/goose-acp-analyze ` +
		`was built without cgo (CGO_ENABLED=0), and analyze parses code with tree-sitter's C library. To get analyze, ` +
		`install a C compiler (gcc or clang) and rebuild the helper with cgo from the goose-acp source: ` +
		`CGO_ENABLED=1 go build -o /opt/goose/goose-acp-analyze ./cmd/goose-acp-analyze"}}` + "\n"
	if out.String() != want {
		t.Errorf("answer = %s\nwant     %s", out.String(), want)
	}
}
