package developer

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recordingEmitter keeps every event for assertions.
type recordingEmitter struct {
	mu     sync.Mutex
	events []Event
}

func (r *recordingEmitter) Emit(_ context.Context, ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

func (r *recordingEmitter) kinds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		out = append(out, e.Kind)
	}
	return out
}

// harness is a developer server connected to a go-sdk client in memory.
type harness struct {
	cs  *mcp.ClientSession
	svc *service
	dir string
}

func newHarness(t testing.TB, opts Options) *harness {
	t.Helper()
	if opts.WorkingDir == "" {
		opts.WorkingDir = t.TempDir()
	}
	if opts.Getenv == nil {
		home := t.TempDir()
		opts.Getenv = func(k string) string {
			switch k {
			case "HOME":
				return home
			case "GOOSE_PATH_ROOT":
				return filepath.Join(home, "goose")
			}
			return os.Getenv(k)
		}
	}
	srv, svc := newServerWithService(opts)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		svc.outDir.remove()
	})
	return &harness{cs: cs, svc: svc, dir: opts.WorkingDir}
}

func (h *harness) call(t *testing.T, name string, args map[string]any) (*mcp.CallToolResult, error) {
	t.Helper()
	return h.callMeta(t, name, args, nil)
}

func (h *harness) callMeta(t *testing.T, name string, args map[string]any, meta mcp.Meta) (*mcp.CallToolResult, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return h.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args, Meta: meta})
}

func (h *harness) mustCall(t *testing.T, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := h.call(t, name, args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	return res
}

// texts returns each content's text.
func texts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

// rpcError asserts a JSON-RPC error with code and message.
func rpcError(t *testing.T, err error, code int64, msg string) {
	t.Helper()
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		t.Fatalf("want JSON-RPC error %d %q, got %v", code, msg, err)
	}
	if je.Code != code || je.Message != msg {
		t.Fatalf("got error %d %q, want %d %q", je.Code, je.Message, code, msg)
	}
}

func TestClassicLifecycleListsToolsAndPrompts(t *testing.T) {
	h := newHarness(t, Options{})
	init := h.cs.InitializeResult()
	if init.ServerInfo.Name != "goose-developer" || init.Capabilities.Tools == nil || init.Capabilities.Prompts == nil {
		t.Fatalf("initialize result: %+v", init)
	}
	if !strings.Contains(init.Instructions, "current directory: "+h.dir) {
		t.Fatalf("instructions lack working dir: %q", init.Instructions)
	}
	if got := toolNames(t, h); got != "analyze,image_processor,list_windows,screen_capture,shell,text_editor" {
		t.Fatalf("classic tools = %s", got)
	}
	prompts, err := h.cs.ListPrompts(context.Background(), nil)
	if err != nil || len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "diff_edit_test" {
		t.Fatalf("prompts = %+v, %v", prompts, err)
	}
	got, err := h.cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "diff_edit_test", Arguments: map[string]string{"additional_info": "cover CRLF"}})
	if err != nil {
		t.Fatal(err)
	}
	msg := got.Messages[0].Content.(*mcp.TextContent).Text
	if !strings.HasSuffix(msg, "Your test should verify these behaviors.\n\ncover CRLF") || got.Messages[0].Role != "user" {
		t.Fatalf("prompt text = %q", msg)
	}
	_, err = h.cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "diff_edit_test", Arguments: map[string]string{"additional_info": "../etc"}})
	rpcError(t, err, jsonrpc.CodeInvalidParams, "Arguments contain potentially unsafe pattern: ../")
}

func TestEditorSurfaceToolsAndAnnotations(t *testing.T) {
	h := newHarness(t, Options{Surface: Editor})
	if h.cs.InitializeResult().ServerInfo.Name != "developer" {
		t.Fatalf("server info: %+v", h.cs.InitializeResult().ServerInfo)
	}
	tools, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name == "tree" && !tl.Annotations.ReadOnlyHint {
			t.Fatalf("tree should be read-only: %+v", tl.Annotations)
		}
	}
	// goose 1.54's developer: no read unless the client reads files for
	// it, no web_fetch, analyze an extension of its own.
	if got := toolNames(t, h); got != "edit,read_image,shell,tree,write" {
		t.Fatalf("editor tools = %s", got)
	}
	if got := toolNames(t, newHarness(t, Options{Surface: Editor, ReadTool: true})); got != "edit,read,read_image,shell,tree,write" {
		t.Fatalf("editor tools with read = %s", got)
	}
	a := newHarness(t, Options{Surface: Analyze})
	if info := a.cs.InitializeResult(); info.ServerInfo.Name != "analyze" || info.ServerInfo.Title != "Analyze" || info.Instructions != analyzeInstructions {
		t.Fatalf("analyze server: %+v %q", info.ServerInfo, info.Instructions)
	}
	if got := toolNames(t, a); got != "analyze" {
		t.Fatalf("analyze tools = %s", got)
	}
}

// toolNames lists the server's tools, sorted and comma-joined.
func toolNames(t *testing.T, h *harness) string {
	t.Helper()
	tools, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

func TestSchemasAreStableJSON(t *testing.T) {
	for _, s := range []string{textEditorSchema, shellSchema, shellOutputSchema, readSchema, writeSchema, editSchema, treeSchema} {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil || m["type"] != "object" {
			t.Fatalf("schema %s: %v", s, err)
		}
	}
}
