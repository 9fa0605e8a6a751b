package extension

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
)

func newManager(t *testing.T, opts Options) *Manager {
	t.Helper()
	if opts.Builtins == nil {
		opts.Builtins = map[string]BuiltinFactory{"t": func(context.Context, Env) (Server, error) { return MCP(testServer()), nil }}
	}
	m := New(opts)
	t.Cleanup(func() { _ = m.Close() })
	return m
}

func stdioConfig(name string) config.ExtensionConfig {
	exe, _ := os.Executable()
	return config.ExtensionConfig{Type: config.ExtensionStdio, Name: name, Cmd: exe, Args: []string{"-test.run=^$"},
		Envs: map[string]string{serverEnv: "1"}}
}

func toolNames(ts []Tool) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return strings.Join(out, ",")
}

func TestBuiltinToolsAndCall(t *testing.T) {
	m := newManager(t, Options{SessionID: "s1", WorkingDir: "/w"})
	if err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "t", AvailableTools: []string{"echo", "meta"}}); err != nil {
		t.Fatal(err)
	}
	tools := m.Tools(context.Background())
	if toolNames(tools) != "t__echo,t__meta" {
		t.Fatalf("tools = %s", toolNames(tools))
	}
	if !tools[0].ReadOnly() || tools[1].ReadOnly() {
		t.Fatal("readOnlyHint lost")
	}
	res, err := m.Call(context.Background(), "call-1", "t__meta", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].Text; got != `{"auth":"","cid":"call-1","progress":"call-1","sid":"s1","wd":"/w"}` {
		t.Fatalf("meta = %s", got)
	}
	if _, err := m.Call(context.Background(), "c", "t__spawn", nil); !errors.Is(err, ErrToolNotFound) || err.Error() != "tool not found: Tool 't__spawn' not found. Available tools: [t__echo, t__meta]" {
		t.Fatalf("filtered tool: %v", err)
	}
	if _, err := m.Call(context.Background(), "c", "nounderscore", nil); !errors.Is(err, ErrToolNotFound) || !strings.Contains(err.Error(), "Tool 'nounderscore' not found.") {
		t.Fatalf("bad name: %v", err)
	}
	infos := m.Extensions()
	if len(infos) != 1 || infos[0].Instructions != "Use the test tools." {
		t.Fatalf("infos = %+v", infos)
	}
}

func TestStdioEnvRefusals(t *testing.T) {
	m := newManager(t, Options{})
	bad := stdioConfig("bad")
	bad.Envs["LD_PRELOAD"] = "/evil.so"
	if err := m.Add(context.Background(), bad); !errors.Is(err, ErrDisallowedEnv) || !strings.Contains(err.Error(), "environment variable LD_PRELOAD not allowed to be overwritten") {
		t.Fatalf("err = %v", err)
	}
	missing := stdioConfig("missing")
	missing.EnvKeys = []string{"NOPE"}
	if err := m.Add(context.Background(), missing); !errors.Is(err, ErrMissingSecret) {
		t.Fatalf("err = %v", err)
	}
	results := m.AddAll(context.Background(), []config.ExtensionConfig{bad, stdioConfig("good")})
	if results[0].Success || !results[1].Success {
		t.Fatalf("results = %+v", results)
	}
}

func TestCancelSendsCancelled(t *testing.T) {
	serverSaw := make(chan error, 1)
	m := newManager(t, Options{Builtins: map[string]BuiltinFactory{"t": func(context.Context, Env) (Server, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "c", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "block", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			serverSaw <- ctx.Err()
			return nil, ctx.Err()
		})
		return MCP(s), nil
	}}})
	if err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "t"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := m.Call(ctx, "c", "t__block", nil); err == nil {
		t.Fatal("blocked call returned no error")
	}
	// The handler blocks until its context ends: this bound only turns a
	// hang into a failure, far above a loaded machine's delays.
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("cancellation did not stop the call (%v)", d)
	}
	// notifications/cancelled reached the server: its handler's ctx ended.
	select {
	case err := <-serverSaw:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("server saw %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("server never saw the cancellation")
	}
}

func TestExtensionTimeout(t *testing.T) {
	m := newManager(t, Options{})
	one := int64(1)
	if err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "t", Timeout: &one}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Call(context.Background(), "c", "t__block", nil); !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v", err)
	}
}

func TestNotificationsForwarded(t *testing.T) {
	var mu sync.Mutex
	var got []string
	m := newManager(t, Options{Hooks: Hooks{Notify: func(id string, n Notification) {
		mu.Lock()
		got = append(got, id+" "+n.Method)
		mu.Unlock()
	}}})
	if err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "t"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Call(context.Background(), "req-7", "t__notify", nil); err != nil {
		t.Fatal(err)
	}
	// Notifications are delivered asynchronously; wait for it.
	deadline := time.Now().Add(2 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, ";") != "req-7 notifications/progress" {
		t.Fatalf("notifications = %q", got)
	}
}

func TestHTTPExtensions(t *testing.T) {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return testServer() }, nil)
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	sse := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return testServer() }, nil))
	t.Cleanup(sse.Close)
	m := newManager(t, Options{Getenv: func(k string) string { return map[string]string{"HOME_TOKEN": "env-tok"}[k] }})
	cfgs := []config.ExtensionConfig{
		{Type: config.ExtensionStreamableHTTP, Name: "web", URI: srv.URL, Envs: map[string]string{"TOKEN": "abc"}, Headers: map[string]string{"Authorization": "Bearer ${TOKEN}/$HOME_TOKEN"}},
		{Type: config.ExtensionSSE, Name: "legacy", URI: sse.URL},
	}
	for _, r := range m.AddAll(context.Background(), cfgs) {
		if !r.Success {
			t.Fatalf("%s: %s", r.Name, r.Error)
		}
	}
	res, err := m.Call(context.Background(), "c", "web__meta", nil)
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	_ = json.Unmarshal([]byte(res.Content[0].Text), &meta)
	if meta["auth"] != "Bearer abc/env-tok" {
		t.Fatalf("meta = %v", meta)
	}
	if res, err := m.Call(context.Background(), "c", "legacy__echo", map[string]any{"a": 1}); err != nil || res.Content[0].Text != `echo:{"a":1}` {
		t.Fatalf("sse call: %v %+v", err, res)
	}
}

func TestFrontendAndInlinePython(t *testing.T) {
	m := newManager(t, Options{})
	fe := config.ExtensionConfig{Type: config.ExtensionFrontend, Name: "ui", Tools: []json.RawMessage{json.RawMessage(`{"name":"pick","description":"Pick.","inputSchema":{"type":"object"}}`)}}
	if err := m.Add(context.Background(), fe); err != nil {
		t.Fatal(err)
	}
	tools := m.Tools(context.Background())
	if len(tools) != 1 || tools[0].Name != "ui__pick" || !tools[0].Frontend {
		t.Fatalf("tools = %+v", tools)
	}
	if _, err := m.Call(context.Background(), "c", "ui__pick", nil); !errors.Is(err, ErrFrontendTool) {
		t.Fatalf("err = %v", err)
	}
	if m.Extensions()[0].Instructions != FrontendInstructions {
		t.Fatal("frontend instructions")
	}
	t.Setenv("PATH", t.TempDir())
	err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionInlinePython, Name: "py", Code: "print(1)"})
	if !errors.Is(err, ErrUvxMissing) {
		t.Fatalf("err = %v", err)
	}
}

func TestNames(t *testing.T) {
	if got := Normalize("My Ext 🚀"); got != "myext_" {
		t.Fatalf("normalize = %q", got)
	}
	taken := map[string]bool{"dev": true}
	k := uniqueKey("dev", func(s string) bool { return taken[s] })
	if len(k) != len("dev_")+6 || !strings.HasPrefix(k, "dev_") {
		t.Fatalf("collision key = %q", k)
	}
}

func TestConcurrentAddsOfOneName(t *testing.T) {
	m := newManager(t, Options{})
	cfg := config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "t"}
	for _, r := range m.AddAll(context.Background(), []config.ExtensionConfig{cfg, cfg, cfg}) {
		if !r.Success {
			t.Fatalf("%+v", r)
		}
	}
	if n := len(m.Extensions()); n != 1 {
		t.Fatalf("%d extensions", n)
	}
}

// goose ≥ 1.2x writes developer as a platform extension; a platform entry
// naming one of our builtins connects to that builtin.
func TestPlatformEntryNamingABuiltinConnects(t *testing.T) {
	m := newManager(t, Options{SessionID: "s1", WorkingDir: "/w"})
	if err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionPlatform, Name: "t"}); err != nil {
		t.Fatalf("platform entry for builtin t: %v", err)
	}
	if got := toolNames(m.Tools(context.Background())); !strings.HasPrefix(got, "t__") {
		t.Fatalf("tools = %s", got)
	}
	err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionPlatform, Name: "nosuch"})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), `unknown platform extension "nosuch"`) {
		t.Fatalf("unknown platform: %v", err)
	}
}
