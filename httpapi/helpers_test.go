package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const testSecret = "test-secret-0123456789"

// step is one scripted provider answer.
type step struct {
	text  []string
	tools []conversation.Content
	hang  bool
	usage *provider.Usage
}

func say(chunks ...string) step { return step{text: chunks} }

func callTool(id, name string) step {
	return step{tools: []conversation.Content{conversation.ToolRequestContent(id, name, map[string]any{"x": 1})}}
}

// fakeProvider replays steps; past the script it says "done".
type fakeProvider struct {
	mu    sync.Mutex
	steps []step
	n     int
	// completeText answers Complete (default "title").
	completeText string
	// cfgs are the model configs the provider was built with.
	cfgs []model.Config
}

func (f *fakeProvider) Metadata() provider.Metadata { return provider.Metadata{Name: "fake"} }
func (f *fakeProvider) ModelConfig() model.Config   { return model.Config{ModelName: "fake-model"} }
func (f *fakeProvider) FetchModels(context.Context) ([]string, error) {
	return []string{"fake-model", "fake-large"}, nil
}

func (f *fakeProvider) Complete(context.Context, provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	f.mu.Lock()
	text := f.completeText
	f.mu.Unlock()
	if text == "" {
		text = "title"
	}
	return conversation.AssistantText(0, text), provider.ProviderUsage{Model: "fake-model"}, nil
}

func (f *fakeProvider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Chunk, error] {
	f.mu.Lock()
	st := say("done")
	if len(f.steps) > 0 {
		st, f.steps = f.steps[0], f.steps[1:]
	}
	f.n++
	id := fmt.Sprintf("resp%d", f.n)
	f.mu.Unlock()
	return func(yield func(provider.Chunk, error) bool) {
		for _, t := range st.text {
			m := conversation.AssistantText(0, t).WithID(id)
			if !yield(provider.Chunk{Message: &m}, nil) {
				return
			}
		}
		if st.hang {
			<-ctx.Done()
			yield(provider.Chunk{}, ctx.Err())
			return
		}
		if len(st.tools) > 0 {
			m := conversation.NewMessage(conversation.RoleAssistant, 0).WithID(id).With(st.tools...)
			if !yield(provider.Chunk{Message: &m}, nil) {
				return
			}
		}
		if st.usage != nil {
			yield(provider.Chunk{Usage: &provider.ProviderUsage{Model: "fake-model", Usage: *st.usage}}, nil)
		}
	}
}

// echoServer is the in-process MCP server of builtin "tt".
func echoServer(ctx context.Context, env extension.Env) (extension.Server, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "tt", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object","properties":{"x":{"type":"number"},"a":{"type":"string"}}}`)
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo the arguments", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo:" + string(r.Params.Arguments)}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "notify", Description: "Report progress", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_ = r.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: r.Params.GetProgressToken(), Progress: 1, Total: 2, Message: "half"})
		// Notifications are asynchronous: give it time to arrive while
		// the call is still running (the agent drops late ones).
		time.Sleep(100 * time.Millisecond)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "notified"}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "ask", Description: "Ask the user", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := r.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Your name?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "elicit: " + err.Error()}}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s:%v", res.Action, res.Content["name"])}}}, nil
	})
	s.AddResource(&mcp.Resource{URI: "ui://tt/page", Name: "page", MIMEType: "text/html"}, func(ctx context.Context, r *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "ui://tt/page", MIMEType: "text/html", Text: "<p>hi</p>"}}}, nil
	})
	return extension.MCP(s), nil
}

// cfgReader adapts config.Config to agent.ConfigReader.
type cfgReader struct{ c *config.Config }

func (r cfgReader) Get(k string) (any, bool) { v, err := r.c.Get(k); return v, err == nil }
func (r cfgReader) Secret(k string) (string, bool) {
	v, err := r.c.GetSecret(k)
	s, ok := v.(string)
	return s, err == nil && ok
}

// testEnv is a Server over a memory store, a config dir and the fake
// provider, served by httptest.
type testEnv struct {
	t     testing.TB
	once  sync.Once
	stop  func()
	srv   *Server
	http  *httptest.Server
	prov  *fakeProvider
	cfg   *config.Config
	root  string
	agent *agent.Agent
	store *memory.Store
}

const testConfigYAML = `GOOSE_PROVIDER: fake
GOOSE_MODEL: fake-model
GOOSE_DISABLE_SESSION_NAMING: true
extensions:
  tt:
    enabled: true
    type: builtin
    name: tt
    description: test tools
`

func newTestEnv(t *testing.T, mode string, steps ...step) *testEnv {
	t.Helper()
	return newTestEnvWith(t, mode, nil, steps...)
}

// newBenchEnv is a testEnv for benchmarks (auto mode).
func newBenchEnv(b *testing.B, steps ...step) *testEnv {
	return newTestEnvWith(b, "auto", nil, steps...)
}

// close stops the server now (cleanup does it otherwise).
func (e *testEnv) close() { e.once.Do(e.stop) }

func newTestEnvWith(t testing.TB, mode string, edit func(*Options), steps ...step) *testEnv {
	t.Helper()
	root := t.TempDir()
	paths := config.Paths{Config: filepath.Join(root, "config"), Data: filepath.Join(root, "data"), State: filepath.Join(root, "state")}
	if err := os.MkdirAll(paths.Config, 0o755); err != nil {
		t.Fatal(err)
	}
	yaml := testConfigYAML + "GOOSE_MODE: " + mode + "\n"
	if err := os.WriteFile(paths.ConfigFile(), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GOOSE_DISABLE_KEYRING": "1"}
	cfg, err := config.Open(config.Options{Paths: paths, Getenv: func(k string) string { return env[k] }, SystemFile: filepath.Join(root, "none.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	perms, err := config.OpenPermissions(paths.PermissionFile())
	if err != nil {
		t.Fatal(err)
	}
	prov := &fakeProvider{steps: steps}
	clock := func() time.Time { return time.Date(2026, 5, 12, 9, 41, 0, 0, time.UTC) }
	store := memory.New(clock)
	factory := func(_ context.Context, _ string, c model.Config) (provider.Provider, error) {
		prov.mu.Lock()
		prov.cfgs = append(prov.cfgs, c)
		prov.mu.Unlock()
		return prov, nil
	}
	a := agent.New(agent.Options{Store: store, Providers: factory, Config: cfgReader{cfg}, Permissions: permission.FromConfig(perms),
		Builtins: map[string]extension.BuiltinFactory{"tt": echoServer}, TempDir: t.TempDir(), ConfigDir: paths.Config, DataDir: paths.Data})
	opts := Options{Agent: a, Store: store, Config: cfg, SecretKey: testSecret,
		ConfigDir: paths.Config, DataDir: paths.Data, StateDir: paths.State, Version: "1.33.0-test",
		Clock: clock, PingInterval: 50 * time.Millisecond}
	if edit != nil {
		edit(&opts)
	}
	s := New(opts)
	hs := httptest.NewServer(s)
	e := &testEnv{t: t, srv: s, http: hs, prov: prov, cfg: cfg, root: root, agent: a, store: store}
	e.stop = func() {
		hs.CloseClientConnections()
		hs.Close()
		_ = s.Close()
		_ = a.Close()
	}
	t.Cleanup(e.close)
	return e
}

// do sends a request with the secret and a JSON body (nil: none).
func (e *testEnv) do(method, path string, body any) *http.Response {
	e.t.Helper()
	return e.doHeaders(method, path, body, map[string]string{"X-Secret-Key": testSecret})
}

func (e *testEnv) doHeaders(method, path string, body any, headers map[string]string) *http.Response {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case string:
			rd = strings.NewReader(b)
		default:
			rd = strings.NewReader(string(mustJSON(b)))
		}
	}
	req, err := http.NewRequest(method, e.http.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := e.http.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp
}

// call sends a request and returns status and body.
func (e *testEnv) call(method, path string, body any) (int, string) {
	e.t.Helper()
	resp := e.do(method, path, body)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// callJSON sends a request, wants status, and decodes the body into out.
func (e *testEnv) callJSON(method, path string, body any, want int, out any) {
	e.t.Helper()
	code, b := e.call(method, path, body)
	if code != want {
		e.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, code, want, b)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(b), out); err != nil {
			e.t.Fatalf("%s %s: decoding %q: %v", method, path, b, err)
		}
	}
}

// startSession calls /agent/start and returns the session id.
func (e *testEnv) startSession() string {
	e.t.Helper()
	var sess struct {
		ID string `json:"id"`
	}
	e.callJSON("POST", "/agent/start", map[string]any{"working_dir": e.root}, 200, &sess)
	return sess.ID
}
