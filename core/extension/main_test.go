package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// The test binary doubles as a stdio MCP server when this is set.
const serverEnv = "GOOSE_EXTENSION_TEST_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "1" {
		fmt.Fprintln(os.Stderr, "test server starting")
		startTestServer()
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
	pairs := make(chan struct{})
	s.AddTool(&mcp.Tool{Name: "pid", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(strconv.Itoa(os.Getpid())), nil
	})
	// pair returns once a second pair call is running too, then reports
	// progress with its own token, which it returns.
	s.AddTool(&mcp.Tool{Name: "pair", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if err := pair(ctx, pairs); err != nil {
			return nil, err
		}
		token := r.Params.GetProgressToken()
		_ = r.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: 1, Message: "paired"})
		return text(fmt.Sprint(token)), nil
	})
	s.AddTool(&mcp.Tool{Name: "grow", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.AddTool(&mcp.Tool{Name: "grown", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("grown"), nil
		})
		return text("grew"), nil
	})
	// ask elicits a name, naming the call in _meta when asked to (paired
	// with another call before and after when asked to).
	s.AddTool(&mcp.Tool{Name: "ask", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var p struct{ Meta, Pair bool }
		_ = json.Unmarshal(r.Params.Arguments, &p)
		if p.Pair {
			if err := pair(ctx, pairs); err != nil {
				return nil, err
			}
		}
		params := &mcp.ElicitParams{Message: "Your name?", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}}
		if p.Meta {
			params.Meta = mcp.Meta{MetaToolCallID: r.Params.Meta[MetaToolCallID]}
		}
		res, err := r.Session.Elicit(ctx, params)
		if p.Pair { // both calls stay running until both asked
			if err := pair(ctx, pairs); err != nil {
				return nil, err
			}
		}
		if err != nil {
			return text("elicit failed: " + err.Error()), nil
		}
		b, _ := json.Marshal(res.Content)
		return text(res.Action + " " + string(b)), nil
	})
	s.AddTool(&mcp.Tool{Name: "sample", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := r.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, Meta: mcp.Meta{MetaToolCallID: r.Params.Meta[MetaToolCallID]},
			Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}})
		if err != nil {
			return text("sampling failed: " + err.Error()), nil
		}
		return text(res.Content.(*mcp.TextContent).Text), nil
	})
	return s
}

// pair waits until another call of the same server is in pair too.
func pair(ctx context.Context, pairs chan struct{}) error {
	select {
	case pairs <- struct{}{}:
	case <-pairs:
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(10 * time.Second):
		return errors.New("no second call arrived")
	}
	return nil
}

// Environment of the stdio test server: it appends its pid to the
// spawnLogEnv file, exits at once while the failIfEnv file exists and
// sleeps delayEnv before serving.
const (
	spawnLogEnv = "GOOSE_EXTENSION_TEST_SPAWNLOG"
	failIfEnv   = "GOOSE_EXTENSION_TEST_FAIL_IF"
	delayEnv    = "GOOSE_EXTENSION_TEST_DELAY"
)

func startTestServer() {
	if p := os.Getenv(spawnLogEnv); p != "" {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintln(f, os.Getpid())
			_ = f.Close()
		}
	}
	if p := os.Getenv(failIfEnv); p != "" {
		if _, err := os.Stat(p); err == nil {
			fmt.Fprintln(os.Stderr, "failing on purpose")
			os.Exit(3)
		}
	}
	if d, err := time.ParseDuration(os.Getenv(delayEnv)); err == nil {
		time.Sleep(d)
	}
}

func headerOf(r *mcp.CallToolRequest, k string) string {
	if r.Extra == nil || r.Extra.Header == nil {
		return ""
	}
	return r.Extra.Header.Get(k)
}
