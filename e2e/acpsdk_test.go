package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// sdkClient is a second, independent ACP client: github.com/coder/acp-go-sdk's
// client side. Its generated types validate every inbound request and
// notification; anything it rejects is logged at error level, which fails
// the test.
type sdkClient struct {
	t    *testing.T
	conn *sdk.ClientSideConnection
	cmd  *exec.Cmd

	mu          sync.Mutex
	updates     []sdk.SessionNotification
	permissions []sdk.RequestPermissionRequest
	reads       []sdk.ReadTextFileRequest
	writes      []sdk.WriteTextFileRequest
	buffers     map[string]string
	answer      string
	sdkErrors   []string
	changed     chan struct{}
}

var _ sdk.Client = (*sdkClient)(nil)

func startSDKClient(t *testing.T, env *agentEnv) *sdkClient {
	t.Helper()
	c := &sdkClient{t: t, buffers: map[string]string{}, answer: "allow_once", changed: make(chan struct{}, 1)}
	c.cmd = exec.Command(binary)
	c.cmd.Env = env.environ()
	c.cmd.Dir = env.Root
	stderr := &lockedBuffer{}
	c.cmd.Stderr = stderr
	stdin, err := c.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c.conn = sdk.NewClientSideConnection(c, stdin, stdout)
	c.conn.SetLogger(slog.New(&errorRecorder{c: c}))
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- c.cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			c.cmd.Process.Kill()
			<-done
			t.Errorf("goose-acp did not exit after stdin closed\n%s", stderr.String())
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, e := range c.sdkErrors {
			t.Errorf("acp-go-sdk rejected a frame: %s", e)
		}
	})
	return c
}

// errorRecorder collects the SDK's error logs (frames it could not parse
// or validate).
type errorRecorder struct{ c *sdkClient }

func (h *errorRecorder) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (h *errorRecorder) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool { fmt.Fprintf(&b, " %s=%v", a.Key, a.Value); return true })
	h.c.mu.Lock()
	h.c.sdkErrors = append(h.c.sdkErrors, b.String())
	h.c.mu.Unlock()
	return nil
}
func (h *errorRecorder) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *errorRecorder) WithGroup(string) slog.Handler      { return h }

func (c *sdkClient) signal() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

func (c *sdkClient) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	c.updates = append(c.updates, n)
	c.mu.Unlock()
	c.signal()
	return nil
}

func (c *sdkClient) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.permissions = append(c.permissions, p)
	answer := c.answer
	c.mu.Unlock()
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(answer))}, nil
}

func (c *sdkClient) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads = append(c.reads, p)
	if text, ok := c.buffers[p.Path]; ok {
		return sdk.ReadTextFileResponse{Content: text}, nil
	}
	return sdk.ReadTextFileResponse{}, &sdk.RequestError{Code: -32002, Message: "Resource not found", Data: p.Path}
}

func (c *sdkClient) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, p)
	c.buffers[p.Path] = p.Content
	return sdk.WriteTextFileResponse{}, nil
}

func (c *sdkClient) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, sdk.NewMethodNotFound("terminal/create")
}
func (c *sdkClient) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, sdk.NewMethodNotFound("terminal/kill")
}
func (c *sdkClient) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, sdk.NewMethodNotFound("terminal/output")
}
func (c *sdkClient) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, sdk.NewMethodNotFound("terminal/release")
}
func (c *sdkClient) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, sdk.NewMethodNotFound("terminal/wait_for_exit")
}

func (c *sdkClient) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	c.t.Cleanup(cancel)
	return ctx
}

func (c *sdkClient) start(fs bool) {
	c.t.Helper()
	caps := sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: fs, WriteTextFile: fs}}
	resp, err := c.conn.Initialize(c.ctx(), sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: caps,
		ClientInfo: &sdk.Implementation{Name: "acp-go-sdk-e2e", Version: "1"}})
	if err != nil || resp.ProtocolVersion != sdk.ProtocolVersionNumber || !resp.AgentCapabilities.LoadSession {
		c.t.Fatalf("initialize: %+v %v", resp, err)
	}
}

func (c *sdkClient) newSession(cwd string) sdk.SessionId {
	c.t.Helper()
	resp, err := c.conn.NewSession(c.ctx(), sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		c.t.Fatalf("session/new: %v", err)
	}
	return resp.SessionId
}

func (c *sdkClient) prompt(id sdk.SessionId, text string) (sdk.PromptResponse, error) {
	return c.conn.Prompt(c.ctx(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
}

func (c *sdkClient) text(id sdk.SessionId) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, n := range c.updates {
		if n.SessionId == id && n.Update.AgentMessageChunk != nil && n.Update.AgentMessageChunk.Content.Text != nil {
			b.WriteString(n.Update.AgentMessageChunk.Content.Text.Text)
		}
	}
	return b.String()
}

// toolStatus is the last status the SDK decoded for a tool call.
func (c *sdkClient) toolStatus(id sdk.SessionId, call string) sdk.ToolCallStatus {
	c.mu.Lock()
	defer c.mu.Unlock()
	var st sdk.ToolCallStatus
	for _, n := range c.updates {
		u := n.Update
		switch {
		case n.SessionId != id:
		case u.ToolCall != nil && string(u.ToolCall.ToolCallId) == call:
			st = u.ToolCall.Status
		case u.ToolCallUpdate != nil && string(u.ToolCallUpdate.ToolCallId) == call && u.ToolCallUpdate.Status != nil:
			st = *u.ToolCallUpdate.Status
		}
	}
	return st
}

func TestSDKClientBasicTurn(t *testing.T) {
	env := newAgentEnv(t, providertest.Turn{Text: []string{"Hello ", "from ", "goose"}})
	c := startSDKClient(t, env)
	c.start(false)
	id := c.newSession(env.Root)
	resp, err := c.prompt(id, "hi")
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", resp, err)
	}
	if got := c.text(id); got != "Hello from goose" {
		t.Fatalf("text %q", got)
	}
}

func TestSDKClientPermission(t *testing.T) {
	for _, tc := range []struct {
		answer string
		status sdk.ToolCallStatus
		ran    bool
	}{
		{"allow_once", sdk.ToolCallStatusCompleted, true},
		// A call the user rejected ends failed.
		{"reject_once", sdk.ToolCallStatusFailed, false},
	} {
		t.Run(tc.answer, func(t *testing.T) {
			work := t.TempDir()
			env := newAgentEnv(t, toolCallTurn("call_p", "shell", map[string]string{"command": "echo x > ran.txt"}), textTurn("ok"))
			c := startSDKClient(t, env)
			c.mu.Lock()
			c.answer = tc.answer
			c.mu.Unlock()
			c.start(false)
			id := c.newSession(work)
			if _, err := c.conn.SetSessionMode(c.ctx(), sdk.SetSessionModeRequest{SessionId: id, ModeId: "approve"}); err != nil {
				t.Fatal(err)
			}
			resp, err := c.prompt(id, "run")
			if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("prompt: %+v %v", resp, err)
			}
			c.mu.Lock()
			perms := c.permissions
			c.mu.Unlock()
			if len(perms) != 1 || len(perms[0].Options) != 4 {
				t.Fatalf("permissions %+v", perms)
			}
			if got := c.toolStatus(id, "call_p"); got != tc.status {
				t.Errorf("status %q, want %q", got, tc.status)
			}
			if _, err := os.Stat(filepath.Join(work, "ran.txt")); (err == nil) != tc.ran {
				t.Errorf("ran = %v, want %v", err == nil, tc.ran)
			}
		})
	}
}

func TestSDKClientFSDelegation(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "main.go")
	env := newAgentEnv(t,
		toolCallTurn("call_e", "edit", map[string]string{"path": path, "before": "old", "after": "new"}),
		textTurn("edited"),
	)
	c := startSDKClient(t, env)
	c.buffers[path] = "package main // old\n"
	c.start(true)
	id := c.newSession(work)
	resp, err := c.prompt(id, "edit")
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", resp, err)
	}
	c.mu.Lock()
	reads, writes := c.reads, c.writes
	c.mu.Unlock()
	if len(reads) != 1 || len(writes) != 1 || writes[0].Content != "package main // new\n" {
		t.Fatalf("reads %+v writes %+v", reads, writes)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("the agent wrote to disk instead of the editor")
	}
	var diff *sdk.ToolCallContentDiff
	c.mu.Lock()
	for _, n := range c.updates {
		if u := n.Update.ToolCallUpdate; u != nil {
			for _, tc := range u.Content {
				if tc.Diff != nil {
					diff = tc.Diff
				}
			}
		}
	}
	c.mu.Unlock()
	if diff == nil || diff.Path != path || diff.NewText != "package main // new\n" || diff.OldText == nil {
		t.Fatalf("diff %+v", diff)
	}
}

func TestSDKClientCancel(t *testing.T) {
	env := newAgentEnv(t, slowTurn("partial"))
	c := startSDKClient(t, env)
	c.start(false)
	id := c.newSession(env.Root)
	done := make(chan sdk.PromptResponse, 1)
	go func() {
		resp, err := c.prompt(id, "go")
		if err != nil {
			t.Errorf("prompt: %v", err)
		}
		done <- resp
	}()
	deadline := time.After(15 * time.Second)
	for !strings.Contains(c.text(id), "partial") {
		select {
		case <-c.changed:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatal("no chunk")
		}
	}
	if err := c.conn.Cancel(c.ctx(), sdk.CancelNotification{SessionId: id}); err != nil {
		t.Fatal(err)
	}
	select {
	case resp := <-done:
		if resp.StopReason != sdk.StopReasonCancelled {
			t.Fatalf("stopReason %q", resp.StopReason)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("prompt did not end after cancel")
	}
}
