package developer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

// Without goose-acp-analyze anywhere, analyze is a tool error the model
// can read: where it looked and the command that builds the helper.
func TestAnalyzeWithoutHelper(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	dir := filepath.Dir(exe)
	want := "analyze is not available: its helper program " + analyze.HelperName + " was not found " +
		"(GOOSE_ACP_ANALYZE is not set, and it is neither in " + dir + " beside goose-acp nor on PATH). " +
		"It needs cgo and a C compiler (gcc or clang); build it from the goose-acp source into goose-acp's " +
		"directory: go build -o " + filepath.Join(dir, analyze.HelperName) + " ./cmd/goose-acp-analyze"
	for _, surface := range []Surface{Classic, Analyze} {
		home := t.TempDir()
		h := newHarness(t, Options{Surface: surface, Getenv: func(k string) string {
			switch k {
			case "HOME":
				return home
			case analyze.HelperEnv:
				return ""
			}
			return os.Getenv(k)
		}})
		os.WriteFile(filepath.Join(h.dir, "main.go"), []byte("package main\n"), 0o644)
		res, err := h.call(t, "analyze", map[string]any{"path": "main.go"})
		if surface == Classic {
			rpcError(t, err, jsonrpc.CodeInternalError, want)
		} else if err != nil || !res.IsError || texts(res)[0] != "Error: "+want {
			t.Fatalf("analyze surface: %v %q\nwant %q", err, texts(res), "Error: "+want)
		}
	}
}
