package extension

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// The test binary doubles as a stdio MCP server when this is set.
const serverEnv = "GOOSE_EXTENSION_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "1" {
		fmt.Fprintln(os.Stderr, "test server starting")
		if err := testServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// testServer serves the tools the manager tests call, in-process or over
// stdio.
func testServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{Instructions: "Use the test tools."})
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo.", InputSchema: obj, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("echo:" + string(r.Params.Arguments)), nil
		})
	s.AddTool(&mcp.Tool{Name: "env", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var p struct{ Name string }
		_ = json.Unmarshal(r.Params.Arguments, &p)
		return text(os.Getenv(p.Name)), nil
	})
	s.AddTool(&mcp.Tool{Name: "meta", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		b, _ := json.Marshal(map[string]any{
			"wd": r.Params.Meta[MetaWorkingDir], "sid": r.Params.Meta[MetaSessionID], "cid": r.Params.Meta[MetaToolCallID],
			"progress": r.Params.GetProgressToken(), "auth": headerOf(r, "Authorization"),
		})
		return text(string(b)), nil
	})
	s.AddTool(&mcp.Tool{Name: "spawn", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		cmd := exec.Command("sleep", "30")
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		go func() { _ = cmd.Wait() }()
		return text(strconv.Itoa(cmd.Process.Pid)), nil
	})
	s.AddTool(&mcp.Tool{Name: "block", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	s.AddTool(&mcp.Tool{Name: "notify", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_ = r.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: r.Params.GetProgressToken(), Progress: 1, Message: "step"})
		return text("done"), nil
	})
	return s
}

func headerOf(r *mcp.CallToolRequest, k string) string {
	if r.Extra == nil || r.Extra.Header == nil {
		return ""
	}
	return r.Extra.Header.Get(k)
}
