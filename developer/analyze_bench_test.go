package developer

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchAnalyze calls the analyze tool (Analyze surface) through an
// in-memory MCP client, as a session's tool call reaches it, after one
// untimed call: the figure is a later call's (the helper running, the
// language's queries compiled).
func benchAnalyze(b *testing.B, args map[string]any) {
	cs := benchClient(b, Options{Surface: Analyze, WorkingDir: b.TempDir()})
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "analyze", Arguments: args}
	if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
		b.Fatalf("%v %v", err, res)
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res)
		}
	}
}

// BenchmarkAnalyzeToolFile is one file's details through the tool: a
// request to the running helper, the parse, the MCP round trip.
func BenchmarkAnalyzeToolFile(b *testing.B) {
	p, err := filepath.Abs(filepath.Join("analyze", "engine", "testdata", "tree", "main.go"))
	if err != nil {
		b.Fatal(err)
	}
	benchAnalyze(b, map[string]any{"path": p})
}

// BenchmarkAnalyzeToolRepo is the directory overview of this repository
// through the tool with goose's defaults (BenchmarkAnalyzeRepo's work).
func BenchmarkAnalyzeToolRepo(b *testing.B) {
	root, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	benchAnalyze(b, map[string]any{"path": root, "force": true})
}
