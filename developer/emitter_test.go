package developer

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// panickingEmitter stands for an adapter whose notification channel broke.
type panickingEmitter struct{ calls atomic.Int64 }

func (p *panickingEmitter) Emit(context.Context, Event) {
	p.calls.Add(1)
	panic("notification channel closed")
}

// A failing notification never breaks the command or the edit.
func TestFailingEmitterNeverBreaksTools(t *testing.T) {
	em := &panickingEmitter{}
	h := newHarness(t, Options{Surface: Editor, Emitter: em})
	res := h.mustCall(t, "shell", map[string]any{"command": "echo one; echo two"})
	if res.IsError || texts(res)[0] != "one\ntwo" {
		t.Fatalf("shell: %v %q", res.IsError, texts(res))
	}
	f := filepath.Join(h.dir, "n.txt")
	res = h.mustCall(t, "write", map[string]any{"path": f, "content": "x\n"})
	if res.IsError || !strings.Contains(texts(res)[0], "n.txt") {
		t.Fatalf("write: %v %q", res.IsError, texts(res))
	}
	if em.calls.Load() < 3 {
		t.Fatalf("emitter called %d times; the test did not exercise it", em.calls.Load())
	}
}

// A direct server with an emitter reports when each call starts running,
// with the call's id, before anything the tool itself reports.
func TestDirectServerReportsStart(t *testing.T) {
	em := &recordingEmitter{}
	dir := t.TempDir()
	srv := NewDirect(Options{Surface: Editor, WorkingDir: dir, Emitter: em})
	defer srv.Close()
	f := filepath.Join(dir, "n.txt")
	args, _ := json.Marshal(map[string]any{"path": f, "content": "x\n"})
	res, err := srv.CallTool(context.Background(), nil, &mcp.CallToolParamsRaw{Name: "write", Arguments: args,
		Meta: mcp.Meta{MetaToolCallID: "call-7"}})
	if err != nil || res.IsError {
		t.Fatalf("write: %v %+v", err, res)
	}
	kinds := em.kinds()
	if len(kinds) < 2 || kinds[0] != "started" {
		t.Fatalf("events %v, want started first", kinds)
	}
	if em.events[0].ToolCallID != "call-7" {
		t.Errorf("started carries %q", em.events[0].ToolCallID)
	}
	// Without an emitter nothing is reported, and a server over MCP
	// (goose-acp mcp developer) reports no start.
	quiet := NewDirect(Options{Surface: Editor, WorkingDir: dir})
	defer quiet.Close()
	if _, err := quiet.CallTool(context.Background(), nil, &mcp.CallToolParamsRaw{Name: "write", Arguments: args}); err != nil {
		t.Fatal(err)
	}
}
