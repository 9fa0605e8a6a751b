package e2e

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// agentEnv is a private goose home and a mock LLM for one spawned agent.
type agentEnv struct {
	Root string
	LLM  *providertest.Server
	Vars map[string]string
}

// newAgentEnv starts a mock OpenAI server replaying turns and returns the
// environment that points goose-acp at it.
func newAgentEnv(t testing.TB, turns ...providertest.Turn) *agentEnv {
	t.Helper()
	return newAgentEnvFor(t, providertest.OpenAI, turns...)
}

// newAgentEnvFor is newAgentEnv with a mock speaking format (OpenAI Chat
// Completions or Anthropic Messages); GOOSE_PROVIDER picks the backend.
func newAgentEnvFor(t testing.TB, format providertest.Format, turns ...providertest.Turn) *agentEnv {
	t.Helper()
	root := t.TempDir()
	llm := providertest.Start(format, providertest.NewScript(turns...))
	t.Cleanup(llm.Close)
	env := &agentEnv{Root: root, LLM: llm, Vars: map[string]string{
		"GOOSE_PATH_ROOT":              root,
		"HOME":                         root,
		"GOOSE_PROVIDER":               "openai",
		"GOOSE_MODEL":                  "gpt-4o",
		"OPENAI_HOST":                  llm.URL,
		"OPENAI_API_KEY":               "sk-test-secret",
		"GOOSE_DISABLE_KEYRING":        "1",
		"GOOSE_DISABLE_SESSION_NAMING": "true",
		"GOOSE_MODE":                   "auto",
		"PATH":                         os.Getenv("PATH"),
		// E2E_LOG_LEVEL=debug shows the agent's logs in failure output.
		"GOOSE_LOG_LEVEL": cmp.Or(os.Getenv("E2E_LOG_LEVEL"), "warn"),
	}}
	if format == providertest.Anthropic {
		delete(env.Vars, "OPENAI_HOST")
		delete(env.Vars, "OPENAI_API_KEY")
		env.Vars["GOOSE_PROVIDER"] = "anthropic"
		env.Vars["GOOSE_MODEL"] = "claude-sonnet-4-20250514"
		env.Vars["ANTHROPIC_HOST"] = llm.URL
		env.Vars["ANTHROPIC_API_KEY"] = "sk-ant-test"
	}
	if format == providertest.Google || format == providertest.OpenAIResponses {
		delete(env.Vars, "OPENAI_HOST")
		delete(env.Vars, "OPENAI_API_KEY")
		for _, kv := range llm.Env() {
			k, v, _ := strings.Cut(kv, "=")
			env.Vars[k] = v
		}
	}
	return env
}

func (e *agentEnv) environ() []string {
	var out []string
	for k, v := range e.Vars {
		out = append(out, k+"="+v)
	}
	return out
}

// writeConfig writes <root>/config/config.yaml.
func (e *agentEnv) writeConfig(t *testing.T, yaml string) {
	t.Helper()
	dir := filepath.Join(e.Root, "config")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
}

// acpClient is our own ACP client: a spawned goose-acp driven over stdio.
type acpClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	conn   *jsonrpc2.Conn
	stdin  io.WriteCloser
	stderr *lockedBuffer

	closeOnce sync.Once

	mu        sync.Mutex
	updates   []acp.SessionNotification
	rawLines  []string
	changed   chan struct{}
	calls     []string
	params    map[string][]json.RawMessage
	onRequest map[string]func(params json.RawMessage) (any, error)
}

// startAgent spawns goose-acp with env and connects a client to it.
func startAgent(t *testing.T, env *agentEnv, args ...string) *acpClient {
	t.Helper()
	return startAgentAt(t, binary, env, args...)
}

// startAgentAt is startAgent with another goose-acp executable (a copy
// elsewhere).
func startAgentAt(t *testing.T, bin string, env *agentEnv, args ...string) *acpClient {
	t.Helper()
	c := &acpClient{t: t, stderr: &lockedBuffer{}, changed: make(chan struct{}, 1), onRequest: map[string]func(json.RawMessage) (any, error){}}
	c.cmd = exec.Command(bin, args...)
	c.cmd.Env = env.environ()
	c.cmd.Dir = env.Root
	c.cmd.Stderr = c.stderr
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
	c.stdin = stdin
	pr, pw := io.Pipe()
	go c.tee(stdout, pw)
	stream := jsonrpc2.NewPlainObjectStream(struct {
		io.Reader
		io.Writer
		io.Closer
	}{pr, stdin, stdin})
	c.conn = jsonrpc2.NewConn(context.Background(), stream, orderedHandler{c}, jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
	t.Cleanup(c.close)
	return c
}

// tee records every stdout line, so tests can prove stdout carries nothing
// but JSON-RPC frames.
func (c *acpClient) tee(stdout io.Reader, w *io.PipeWriter) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		c.mu.Lock()
		c.rawLines = append(c.rawLines, line)
		c.mu.Unlock()
		if _, err := io.WriteString(w, line+"\n"); err != nil {
			return
		}
	}
	w.Close()
}

func (c *acpClient) close() { c.closeOnce.Do(c.shutdown) }

func (c *acpClient) shutdown() {
	c.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
		c.t.Errorf("goose-acp did not exit within 10s of stdin closing\nstderr:\n%s", c.stderr.String())
	}
	c.conn.Close()
	c.assertCleanStdout()
}

func (c *acpClient) assertCleanStdout() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.rawLines {
		var m struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil || m.JSONRPC != "2.0" {
			c.t.Errorf("stdout carried a non-JSON-RPC line: %q", l)
		}
	}
}

func (c *acpClient) handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	c.mu.Lock()
	c.calls = append(c.calls, req.Method)
	if c.params == nil {
		c.params = map[string][]json.RawMessage{}
	}
	c.params[req.Method] = append(c.params[req.Method], params)
	h := c.onRequest[req.Method]
	c.mu.Unlock()
	if req.Method == "session/update" {
		var n acp.SessionNotification
		if err := json.Unmarshal(params, &n); err != nil {
			c.t.Errorf("bad session/update: %v: %s", err, params)
			return nil, nil
		}
		c.mu.Lock()
		c.updates = append(c.updates, n)
		c.mu.Unlock()
		c.signal()
		return nil, nil
	}
	defer c.signal()
	if h == nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "Method not found"}
	}
	return h(params)
}

func (c *acpClient) signal() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// on registers a handler for an agent→client request.
func (c *acpClient) on(method string, h func(params json.RawMessage) (any, error)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onRequest[method] = h
}

// call sends a request and decodes the result, failing the test on error.
func (c *acpClient) call(method string, params, result any) {
	c.t.Helper()
	if err := c.tryCall(method, params, result); err != nil {
		c.t.Fatalf("%s: %v\nstderr:\n%s", method, err, c.stderr.String())
	}
}

func (c *acpClient) tryCall(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return c.conn.Call(ctx, method, params, result)
}

func (c *acpClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("notify %s: %v", method, err)
	}
}

// initialize runs the handshake with the given client capabilities.
func (c *acpClient) initialize(caps acp.ClientCapabilities) acp.InitializeResponse {
	var resp acp.InitializeResponse
	c.call("initialize", acp.InitializeRequest{ProtocolVersion: 1, ClientCapabilities: caps,
		ClientInfo: &acp.Implementation{Name: "e2e", Version: "1"}}, &resp)
	return resp
}

// newSession creates a session in dir.
func (c *acpClient) newSession(dir string) acp.NewSessionResponse {
	var resp acp.NewSessionResponse
	c.call("session/new", acp.NewSessionRequest{CWD: dir, MCPServers: []acp.MCPServer{}}, &resp)
	return resp
}

// prompt sends one text prompt and returns the response.
func (c *acpClient) prompt(sessionID, text string) acp.PromptResponse {
	var resp acp.PromptResponse
	c.call("session/prompt", acp.PromptRequest{SessionID: sessionID, Prompt: []acp.ContentBlock{{Type: "text", Text: text}}}, &resp)
	return resp
}

// updatesOf returns the session updates received so far.
func (c *acpClient) updatesOf(sessionID string) []acp.SessionUpdate {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []acp.SessionUpdate
	for _, n := range c.updates {
		if n.SessionID == sessionID {
			out = append(out, n.Update)
		}
	}
	return out
}

// waitFor polls until cond holds or 15 s pass.
func (c *acpClient) waitFor(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.After(15 * time.Second)
	for !cond() {
		select {
		case <-c.changed:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s\nstderr:\n%s", what, c.stderr.String())
		}
	}
}

// agentText concatenates the agent_message_chunk texts of a session.
func (c *acpClient) agentText(sessionID string) string {
	var b bytes.Buffer
	for _, u := range c.updatesOf(sessionID) {
		if u.SessionUpdate == acp.UpdateAgentMessageChunk && u.Content != nil {
			b.WriteString(u.Content.Text)
		}
	}
	return b.String()
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// orderedHandler keeps session/update notifications in arrival order and
// answers agent requests concurrently (a permission answer may wait).
type orderedHandler struct{ c *acpClient }

func (h orderedHandler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Notif {
		_, _ = h.c.handle(ctx, conn, req)
		return
	}
	go func() {
		res, err := h.c.handle(ctx, conn, req)
		if err != nil {
			rpcErr, ok := err.(*jsonrpc2.Error)
			if !ok {
				rpcErr = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
			}
			_ = conn.ReplyWithError(ctx, req.ID, rpcErr)
			return
		}
		_ = conn.Reply(ctx, req.ID, res)
	}()
}

// promptBlocks sends a prompt made of blocks and returns the response.
func (c *acpClient) promptBlocks(sessionID string, blocks ...acp.ContentBlock) acp.PromptResponse {
	c.t.Helper()
	var resp acp.PromptResponse
	c.call("session/prompt", acp.PromptRequest{SessionID: sessionID, Prompt: blocks}, &resp)
	return resp
}

// promptAsync sends a text prompt and returns a channel with its outcome.
func (c *acpClient) promptAsync(sessionID, text string) <-chan promptResult {
	done := make(chan promptResult, 1)
	go func() {
		var r promptResult
		r.err = c.tryCall("session/prompt", acp.PromptRequest{SessionID: sessionID, Prompt: []acp.ContentBlock{{Type: "text", Text: text}}}, &r.resp)
		done <- r
	}()
	return done
}

type promptResult struct {
	resp acp.PromptResponse
	err  error
}

// awaitPrompt waits up to d for an async prompt's outcome.
func (c *acpClient) awaitPrompt(done <-chan promptResult, d time.Duration) acp.PromptResponse {
	c.t.Helper()
	select {
	case r := <-done:
		if r.err != nil {
			c.t.Fatalf("session/prompt: %v\nstderr:\n%s", r.err, c.stderr.String())
		}
		return r.resp
	case <-time.After(d):
		c.t.Fatalf("session/prompt did not answer within %v\nstderr:\n%s", d, c.stderr.String())
	}
	return acp.PromptResponse{}
}

// setMode switches the session's goose mode.
func (c *acpClient) setMode(sessionID, mode string) {
	c.t.Helper()
	c.call("session/set_mode", acp.SetModeRequest{SessionID: sessionID, ModeID: mode}, nil)
}

// callsTo returns the params of every agent→client message with method.
func (c *acpClient) callsTo(method string) []json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]json.RawMessage(nil), c.params[method]...)
}

// toolUpdates returns the tool_call and tool_call_update updates of one call.
func (c *acpClient) toolUpdates(sessionID, toolCallID string) []acp.SessionUpdate {
	var out []acp.SessionUpdate
	for _, u := range c.updatesOf(sessionID) {
		if u.ToolCallID == toolCallID && (u.SessionUpdate == acp.UpdateToolCall || u.SessionUpdate == acp.UpdateToolCallUpdate) {
			out = append(out, u)
		}
	}
	return out
}

// finalStatus is the last status reported for a tool call.
func (c *acpClient) finalStatus(sessionID, toolCallID string) string {
	status := ""
	for _, u := range c.toolUpdates(sessionID, toolCallID) {
		if u.Status != "" {
			status = u.Status
		}
	}
	return status
}

// statuses lists the statuses a tool call went through, in order.
func (c *acpClient) statuses(sessionID, toolCallID string) []string {
	var out []string
	for _, u := range c.toolUpdates(sessionID, toolCallID) {
		if u.Status != "" && (len(out) == 0 || out[len(out)-1] != u.Status) {
			out = append(out, u.Status)
		}
	}
	return out
}

// dump renders a session's updates for failure messages.
func (c *acpClient) dump(sessionID string) string {
	var b bytes.Buffer
	for _, u := range c.updatesOf(sessionID) {
		line, _ := json.Marshal(u)
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// answerPermissions answers every session/request_permission with outcome
// (an optionId, or "cancelled") and records the requests.
func (c *acpClient) answerPermissions(outcome string) {
	c.on("session/request_permission", func(json.RawMessage) (any, error) {
		if outcome == "cancelled" {
			return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
		}
		return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": outcome}}, nil
	})
}

// toolCallTurn is a model turn calling one tool with JSON arguments.
func toolCallTurn(id, name string, args any) providertest.Turn {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: id, Name: name, Arguments: string(b)}}}
}

// textTurn is a model turn answering with text.
func textTurn(text string) providertest.Turn { return providertest.Turn{Text: []string{text}} }

// methodLog lists every agent→client method received, in order.
func (c *acpClient) methodLog() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...)
}
