//go:build !windows

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/acp"
)

// analyzeFixture is the engine's test tree and the golden of its main.go.
func analyzeFixture(t *testing.T) (file, want string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "developer", "analyze", "engine", "testdata", "tree"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "..", "golden", "file_go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "main.go"), strings.ReplaceAll(string(b), "ROOT", root)
}

// The cgo-free agent answers analyze through the real goose-acp-analyze
// beside it: the model gets the engine's exact text.
func TestAnalyzeOverACPRunsTheHelper(t *testing.T) {
	file, want := analyzeFixture(t)
	env := newAgentEnv(t, toolCallTurn("a1", "analyze", map[string]any{"path": file}), textTurn("done"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	if r := c.prompt(sess.SessionID, "analyze main.go"); r.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", r.StopReason, c.stderr.String())
	}
	got := viewRequest(t, env.LLM.Requests()[1].Body).results
	if len(got) != 1 || got[0] != want {
		t.Fatalf("analyze result to the model:\n%q\nwant\n%q", got, want)
	}
}

// A goose-acp with no helper beside it (and none on PATH) answers the
// model a tool error saying where it looked and how to build one.
func TestAnalyzeOverACPWithoutHelper(t *testing.T) {
	file, _ := analyzeFixture(t)
	dir := t.TempDir()
	lonely := filepath.Join(dir, filepath.Base(binary))
	b, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lonely, b, 0o755); err != nil {
		t.Fatal(err)
	}
	env := newAgentEnv(t, toolCallTurn("a1", "analyze", map[string]any{"path": file}), textTurn("no helper"))
	env.Vars["PATH"] = t.TempDir()
	c := startAgentAt(t, lonely, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	if r := c.prompt(sess.SessionID, "analyze main.go"); r.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", r.StopReason, c.stderr.String())
	}
	name := filepath.Base(analyzeHelper)
	want := "Error: analyze is not available: its helper program " + name + " was not found " +
		"(GOOSE_ACP_ANALYZE is not set, and it is neither in " + dir + " beside goose-acp nor on PATH). " +
		"It needs cgo and a C compiler (gcc or clang); build it from the goose-acp source into goose-acp's " +
		"directory: go build -o " + filepath.Join(dir, name) + " ./cmd/goose-acp-analyze"
	got := viewRequest(t, env.LLM.Requests()[1].Body).results
	if len(got) != 1 || got[0] != want {
		t.Fatalf("analyze result to the model:\n%q\nwant\n%q", got, want)
	}
}

// `goose-acp mcp developer` (the classic surface) analyzes through the
// same helper beside the binary: goose's two contents, the analysis for
// the assistant and for the user.
func TestMCPDeveloperAnalyzeRunsTheHelper(t *testing.T) {
	file, want := analyzeFixture(t)
	ctx, cs := mcpDeveloper(t)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "analyze", Arguments: map[string]any{"path": file}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("analyze: %+v", res)
	}
	for i, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); !ok || tc.Text != want {
			t.Errorf("content %d = %#v, want the analysis\n%s", i, c, want)
		}
	}
}
