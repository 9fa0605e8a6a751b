package developer

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchClient serves opts's tools to an in-memory MCP client, closed when
// the benchmark ends.
func benchClient(b *testing.B, opts Options) *mcp.ClientSession {
	srv, svc := newServerWithService(opts)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); ss.Wait(); svc.outDir.remove() })
	return cs
}

// BenchmarkShellTrueThroughMCP is the end-to-end overhead of a `true` shell
// call: in-memory MCP client → server → spawn → result.
func BenchmarkShellTrueThroughMCP(b *testing.B) {
	if runtime.GOOS == "windows" {
		b.Skip("uses a POSIX shell")
	}
	cs := benchClient(b, Options{WorkingDir: b.TempDir(), Getenv: func(k string) string {
		if k == "SHELL" {
			return "/bin/sh"
		}
		return os.Getenv(k)
	}})
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "shell", Arguments: map[string]any{"command": "true"}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res)
		}
	}
}

// BenchmarkStrReplace10MB is one text_editor str_replace on a 10 MB file
// (read through FileIO, unique match, write back).
func BenchmarkStrReplace10MB(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "big.txt")
	line := strings.Repeat("abcdefghij", 9) + "\n"
	base := strings.Repeat(line, 10<<20/len(line))
	h := newService(Options{WorkingDir: dir, Getenv: func(string) string { return "" }})
	ctx := context.Background()
	b.SetBytes(int64(len(base)))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		os.WriteFile(p, []byte(base[:len(base)/2]+"UNIQUE-MARKER\n"+base[len(base)/2:]), 0o644)
		b.StartTimer()
		if _, err := h.teReplace(ctx, callContext{workingDir: dir}, p, "UNIQUE-MARKER", "REPLACED"); err != nil {
			b.Fatal(err)
		}
	}
}
