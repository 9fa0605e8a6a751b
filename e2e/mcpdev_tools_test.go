package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpDeveloper connects an MCP client to `goose-acp mcp developer` run in
// a fresh home; both end with the test (or after 30 s).
func mcpDeveloper(t *testing.T) (context.Context, *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	home := t.TempDir()
	cmd := exec.Command(binary, "mcp", "developer")
	cmd.Dir = home
	cmd.Env = append(os.Environ(), "HOME="+home, "GOOSE_PATH_ROOT="+filepath.Join(home, "goose"))
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return ctx, cs
}

// TestMCPDeveloperToolsList: what `goose-acp mcp developer` lists is
// exactly the classic surface pinned in developer/testdata (names, schemas,
// descriptions, annotations and each tool's declared kind and arguments).
func TestMCPDeveloperToolsList(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "developer", "testdata", "tools_classic.json"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cs := mcpDeveloper(t)
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	enc := json.NewEncoder(&got)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(res.Tools); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("tools/list of goose-acp mcp developer differs from developer/testdata/tools_classic.json:\n%s", got.Bytes())
	}
}
