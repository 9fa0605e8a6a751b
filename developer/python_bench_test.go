//go:build !windows

package developer

import (
	"context"
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
	h := pyHarness(b, nil)
	cs, ctx := h.cs, context.Background()
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
