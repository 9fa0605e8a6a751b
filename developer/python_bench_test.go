//go:build !windows

package developer

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkPythonCell: one `x + 1` cell through MCP in a warm session
// (the kernel is started before the timer).
func BenchmarkPythonCell(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("no python3 on PATH")
	}
	srv, _ := newServerWithService(Options{Surface: Editor, WorkingDir: b.TempDir(), Getenv: func(k string) string {
		if k == devModeKey {
			return "python_session"
		}
		return os.Getenv(k)
	}})
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
	b.Cleanup(func() { cs.Close(); ss.Wait() })
	params := &mcp.CallToolParams{Name: "python", Arguments: map[string]any{"code": "x = 1"}, Meta: mcp.Meta{MetaSessionID: "b"}}
	if _, err := cs.CallTool(ctx, params); err != nil {
		b.Fatal(err)
	}
	params.Arguments = map[string]any{"code": "x + 1"}
	for b.Loop() {
		if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
			b.Fatal(err)
		}
	}
}
