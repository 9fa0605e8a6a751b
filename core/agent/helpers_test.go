package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// step is one scripted provider answer.
type step struct {
	text  []string // streamed text chunks
	tools []conversation.Content
	err   error
	hang  bool // block after the text until ctx is done
	usage *provider.Usage
}

func say(chunks ...string) step { return step{text: chunks} }

func call(id, name string, args map[string]any) conversation.Content {
	if args == nil {
		args = map[string]any{}
	}
	return conversation.ToolRequestContent(id, name, args)
}

func calls(c ...conversation.Content) step { return step{tools: c} }

// fakeProvider replays steps in order and records every request.
type fakeProvider struct {
	mu        sync.Mutex
	steps     []step
	requests  []provider.Request
	completes []provider.Request
	// complete answers Complete calls (summaries, titles, judge).
	complete func(req provider.Request) (conversation.Message, error)
	limit    int
	// uniqueIDs gives each reply its own id (resp1, resp2, …) instead of
	// "resp".
	uniqueIDs bool
}

func (f *fakeProvider) Metadata() provider.Metadata { return provider.Metadata{Name: "fake"} }

func (f *fakeProvider) ModelConfig() model.Config {
	c := model.Config{ModelName: "fake-model"}
	if f.limit > 0 {
		c.ContextLimit = &f.limit
	}
	return c
}

func (f *fakeProvider) FetchModels(context.Context) ([]string, error) {
	return []string{"fake-model"}, nil
}

func (f *fakeProvider) Complete(_ context.Context, req provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	f.mu.Lock()
	f.completes = append(f.completes, req)
	fn := f.complete
	f.mu.Unlock()
	if fn == nil {
		return conversation.AssistantText(0, "Summary title"), provider.ProviderUsage{Model: "fake-model", Usage: provider.NewUsage(10, 5)}, nil
	}
	m, err := fn(req)
	return m, provider.ProviderUsage{Model: "fake-model", Usage: provider.NewUsage(10, 5)}, err
}

func (f *fakeProvider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Chunk, error] {
	f.mu.Lock()
	f.requests = append(f.requests, req)
	var st step
	if len(f.steps) == 0 {
		st = step{err: fmt.Errorf("fake provider: no scripted step left")}
	} else {
		st, f.steps = f.steps[0], f.steps[1:]
	}
	respID := "resp"
	if f.uniqueIDs {
		respID = fmt.Sprintf("resp%d", len(f.requests))
	}
	f.mu.Unlock()
	return func(yield func(provider.Chunk, error) bool) {
		for _, t := range st.text {
			m := conversation.AssistantText(0, t).WithID(respID)
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
			m := conversation.NewMessage(conversation.RoleAssistant, 0).WithID(respID).With(st.tools...)
			if !yield(provider.Chunk{Message: &m}, nil) {
				return
			}
		}
		if st.usage != nil {
			if !yield(provider.Chunk{Usage: &provider.ProviderUsage{Model: "fake-model", Usage: *st.usage}}, nil) {
				return
			}
		}
		if st.err != nil {
			yield(provider.Chunk{}, st.err)
		}
	}
}

func (f *fakeProvider) request(i int) provider.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[i]
}

func (f *fakeProvider) numRequests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// mapConfig is a ConfigReader over a map.
type mapConfig map[string]any

func (m mapConfig) Get(k string) (any, bool) { v, ok := m[k]; return v, ok }
func (m mapConfig) Secret(k string) (string, bool) {
	v, ok := m[k].(string)
	return v, ok
}

// testServer is an in-process MCP server with tools the loop tests use.
type testServer struct {
	mu      sync.Mutex
	calls   []string
	barrier chan struct{}
	arrived int
	need    int
}

func (ts *testServer) factory(ctx context.Context, env extension.Env) (extension.Server, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "tt", Version: "1"}, &mcp.ServerOptions{Instructions: "Test tools."})
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ts.record("echo")
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo:" + string(r.Params.Arguments)}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "read", InputSchema: obj, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ts.record("read")
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "contents"}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "big", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(make([]byte, LargeResponseLimit+1))}}}, nil
	})
	// barrier returns only once `need` calls are in flight together, so
	// it proves the calls run in parallel.
	s.AddTool(&mcp.Tool{Name: "barrier", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ts.mu.Lock()
		ts.arrived++
		if ts.arrived == ts.need {
			close(ts.barrier)
		}
		b := ts.barrier
		ts.mu.Unlock()
		select {
		case <-b:
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "together"}}}, nil
		case <-time.After(5 * time.Second):
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "alone"}}}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	s.AddTool(&mcp.Tool{Name: "block", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ts.record("block")
		<-ctx.Done()
		return nil, ctx.Err()
	})
	s.AddTool(&mcp.Tool{Name: "progress", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		tok := r.Params.GetProgressToken()
		_ = r.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "half"})
		// go-sdk hands notifications to the client's handler on another
		// goroutine than results; a real tool keeps working after it
		// reports progress, so give the notification time to land.
		time.Sleep(50 * time.Millisecond)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("meta:%v", r.Params.Meta[extension.MetaToolCallID])}}}, nil
	})
	// report tells the agent where it worked, as the developer tools do.
	s.AddTool(&mcp.Tool{Name: "report", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		id, _ := r.Params.Meta[extension.MetaToolCallID].(string)
		env.Progress(ctx, extension.ToolProgress{ToolCallID: id, Kind: extension.ProgressLocations, Path: "/work/a.go", Lines: []int{3}})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "reported"}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "ask", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := r.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Your name?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "elicit: " + err.Error()}}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s:%v", res.Action, res.Content["name"])}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "sample", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := r.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "say hi"}}}})
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "sample: " + err.Error()}}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sampled:" + res.Content.(*mcp.TextContent).Text + ":" + res.Model}}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "review", Description: "Review code", Arguments: []*mcp.PromptArgument{{Name: "file"}}},
		func(ctx context.Context, r *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Please review " + r.Params.Arguments["file"]}}}}, nil
		})
	return extension.MCP(s), nil
}

func (ts *testServer) record(name string) {
	ts.mu.Lock()
	ts.calls = append(ts.calls, name)
	ts.mu.Unlock()
}

// harness wires an Agent with a fake provider, memory store and the test
// MCP server as builtin "tt".
type harness struct {
	t     *testing.T
	a     *Agent
	store *memStore
	prov  *fakeProvider
	ts    *testServer
	id    string
}

func newHarness(t *testing.T, cfg mapConfig, steps ...step) *harness {
	t.Helper()
	return newHarnessWith(t, cfg, nil, steps...)
}

func newHarnessWith(t *testing.T, cfg mapConfig, edit func(*Options), steps ...step) *harness {
	t.Helper()
	h := &harness{t: t, store: newMemStore(), prov: &fakeProvider{steps: steps}, ts: &testServer{}}
	if cfg == nil {
		cfg = mapConfig{}
	}
	if _, ok := cfg["GOOSE_DISABLE_SESSION_NAMING"]; !ok {
		cfg["GOOSE_DISABLE_SESSION_NAMING"] = "true"
	}
	var n atomic.Int64
	opts := Options{
		Store:     h.store,
		Providers: func(context.Context, string, model.Config) (provider.Provider, error) { return h.prov, nil },
		Config:    cfg,
		Builtins:  map[string]extension.BuiltinFactory{"tt": h.ts.factory},
		Clock:     func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		NewID: func() string {
			return fmt.Sprintf("id%d", n.Add(1))
		},
		TempDir: t.TempDir(),
	}
	if edit != nil {
		edit(&opts)
	}
	h.a = New(opts)
	t.Cleanup(func() { _ = h.a.Close() })
	return h
}

func (h *harness) start(opts StartOptions) {
	h.t.Helper()
	if opts.WorkingDir == "" {
		opts.WorkingDir = h.t.TempDir()
	}
	opts.Extensions = append([]config.ExtensionConfig{{Type: config.ExtensionBuiltin, Name: "tt"}}, opts.Extensions...)
	sess, res, err := h.a.StartSession(context.Background(), opts)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, r := range res {
		if !r.Success {
			h.t.Fatalf("extension %s: %s", r.Name, r.Error)
		}
	}
	h.id = sess.ID
}

// reply runs one turn and collects its events.
func (h *harness) reply(ctx context.Context, text string, onEvent func(Event)) (Outcome, []Event) {
	h.t.Helper()
	var evs []Event
	out, err := h.a.Reply(ctx, h.id, conversation.UserText(1, text).WithID("u1"), func(e Event) {
		evs = append(evs, e)
		if onEvent != nil {
			onEvent(e)
		}
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out, evs
}

// messages returns the text of the message events, skipping usage.
func messages(evs []Event) []conversation.Message {
	var out []conversation.Message
	for _, e := range evs {
		if m, ok := e.(MessageEvent); ok {
			out = append(out, m.Message)
		}
	}
	return out
}

func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
