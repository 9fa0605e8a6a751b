package e2e

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// unconfigured removes every provider setting from the agent's environment:
// a fresh machine with no goose configuration.
func unconfigured(env *agentEnv) {
	for _, k := range []string{"GOOSE_PROVIDER", "GOOSE_MODEL", "OPENAI_HOST", "OPENAI_API_KEY"} {
		delete(env.Vars, k)
	}
}

// authMethodsJSON runs initialize and returns authMethods as sent.
func authMethodsJSON(t *testing.T, c *acpClient, caps map[string]any) string {
	t.Helper()
	var resp struct {
		AuthMethods json.RawMessage `json:"authMethods"`
	}
	c.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}, &resp)
	return string(resp.AuthMethods)
}

// rpcError calls method and requires a JSON-RPC error.
func rpcError(t *testing.T, c *acpClient, method string, params any) *jsonrpc2.Error {
	t.Helper()
	var out json.RawMessage
	err := c.tryCall(method, params, &out)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) {
		t.Fatalf("%s: want an error, got %v (result %s)", method, err, out)
	}
	return rpcErr
}

func requireAuthError(t *testing.T, e *jsonrpc2.Error, data string) {
	t.Helper()
	var got string
	if e.Data != nil {
		_ = json.Unmarshal(*e.Data, &got)
	}
	// Zed shows only the message: it carries the actionable line too.
	if msg := "Authentication required: " + data; e.Code != -32000 || e.Message != msg || got != data {
		t.Fatalf("error code %d message %q data %q\nwant -32000 %q %q", e.Code, e.Message, got, msg, data)
	}
}

const agentMethodJSON = `{"id":"goose-provider","name":"Configure Provider","description":"Run ` + "`goose-acp configure`" +
	` in a terminal to choose a provider, API key and model, or start goose-acp with OPENAI_API_KEY, ANTHROPIC_API_KEY or GOOGLE_API_KEY set; then authenticate re-checks."}`

const unconfiguredReason = "no AI provider is configured: run `goose-acp configure` in a terminal, or set OPENAI_API_KEY, ANTHROPIC_API_KEY or GOOGLE_API_KEY in the agent's environment"

// A fresh machine: initialize works and offers the auth methods,
// session/new and authenticate answer -32000 with one actionable line;
// after `goose-acp configure` authenticate succeeds and a turn runs.
func TestUnconfiguredAgentAsksForAuthenticationUntilConfigured(t *testing.T) {
	env := newAgentEnv(t, textTurn("ok"), textTurn("hello after configure"))
	llmURL := env.LLM.URL
	unconfigured(env)
	c := startAgent(t, env)
	if got := authMethodsJSON(t, c, map[string]any{"fs": map[string]any{"readTextFile": true}}); got != "["+agentMethodJSON+"]" {
		t.Fatalf("authMethods %s", got)
	}
	if n := len(env.LLM.Requests()); n != 0 {
		t.Fatalf("initialize touched the provider (%d requests)", n)
	}
	dir := t.TempDir()
	requireAuthError(t, rpcError(t, c, "session/new", acp.NewSessionRequest{CWD: dir, MCPServers: []acp.MCPServer{}}), unconfiguredReason)
	requireAuthError(t, rpcError(t, c, "authenticate", map[string]string{"methodId": "goose-provider"}), unconfiguredReason)
	if e := rpcError(t, c, "authenticate", map[string]string{"methodId": "nope"}); e.Code != -32602 {
		t.Fatalf("unknown method: %+v", e)
	}

	// The user runs the terminal method's command (here non-interactively);
	// the running agent sees the new config and secrets.
	configureEnv := []string{"GOOSE_PATH_ROOT=" + env.Root, "HOME=" + env.Root, "GOOSE_DISABLE_KEYRING=1", "K=sk-configured", "PATH=" + os.Getenv("PATH")}
	if code, _, stderr := runConfigure(t, configureEnv, "--provider", "openai", "--model", "gpt-4o-mini", "--host", llmURL, "--api-key-env", "K"); code != 0 {
		t.Fatalf("configure: exit %d: %s", code, stderr)
	}
	var ok json.RawMessage
	c.call("authenticate", map[string]string{"methodId": "goose-provider"}, &ok)
	if string(ok) != "{}" {
		t.Fatalf("authenticate result %s", ok)
	}
	sess := c.newSession(dir)
	if resp := c.prompt(sess.SessionID, "hi"); resp.StopReason != "end_turn" || c.agentText(sess.SessionID) != "hello after configure" {
		t.Fatalf("prompt after configure: %+v %q", resp, c.agentText(sess.SessionID))
	}
	reqs := env.LLM.Requests()
	last := reqs[len(reqs)-1]
	if last.Header.Get("Authorization") != "Bearer sk-configured" {
		t.Fatalf("turn sent without the configured key: %v", last.Header)
	}
	var body struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(last.Body, &body)
	if body.Model != "gpt-4o-mini" {
		t.Fatalf("model %q", body.Model)
	}
}

// A configured provider whose key is missing names the key.
func TestMissingKeyNamesTheKey(t *testing.T) {
	env := newAgentEnvFor(t, providertest.Anthropic)
	delete(env.Vars, "ANTHROPIC_API_KEY")
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	requireAuthError(t, rpcError(t, c, "session/new", acp.NewSessionRequest{CWD: t.TempDir(), MCPServers: []acp.MCPServer{}}),
		"Anthropic needs ANTHROPIC_API_KEY: run `goose-acp configure` in a terminal, or set ANTHROPIC_API_KEY in the agent's environment")
}

// Terminal auth is offered only to clients that can run it: the schema's
// auth.terminal, or Zed's _meta["terminal-auth"] (which also gets the
// command line to launch).
func TestTerminalAuthMethodWhenTheClientSupportsIt(t *testing.T) {
	env := newAgentEnv(t)
	unconfigured(env)
	c := startAgent(t, env)
	terminal := `{"type":"terminal","id":"goose-acp-configure","name":"Configure in terminal","description":"Runs ` + "`goose-acp configure`" +
		`: pick a provider, enter its API key and choose a model.","args":["configure"]`
	if got := authMethodsJSON(t, c, map[string]any{"auth": map[string]any{"terminal": true}}); got != "["+agentMethodJSON+","+terminal+"}]" {
		t.Fatalf("auth.terminal: %s", got)
	}
	c2 := startAgent(t, env)
	abs, err := filepath.Abs(binary)
	if err != nil {
		t.Fatal(err)
	}
	cmd, _ := json.Marshal(abs)
	want := "[" + agentMethodJSON + "," + terminal + `,"_meta":{"terminal-auth":{"args":["configure"],"command":` + string(cmd) + `,"label":"goose-acp configure"}}}]`
	if got := authMethodsJSON(t, c2, map[string]any{"_meta": map[string]any{"terminal-auth": true}}); got != want {
		t.Fatalf("_meta terminal-auth:\n%s\nwant\n%s", got, want)
	}
}

// An API key in the agent's environment selects its provider: no
// GOOSE_PROVIDER, no configure, no authenticate.
func TestKeyInEnvironmentNeedsNoAuthenticate(t *testing.T) {
	env := newAgentEnv(t, textTurn("from the env key"))
	delete(env.Vars, "GOOSE_PROVIDER")
	delete(env.Vars, "GOOSE_MODEL")
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(t.TempDir())
	if resp := c.prompt(sess.SessionID, "hi"); resp.StopReason != "end_turn" || c.agentText(sess.SessionID) != "from the env key" {
		t.Fatalf("prompt: %+v %q", resp, c.agentText(sess.SessionID))
	}
	var body struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(env.LLM.Requests()[0].Body, &body)
	if body.Model != "gpt-4o" {
		t.Fatalf("model %q, want openai's default gpt-4o", body.Model)
	}
}

// A key the provider rejects mid-session ends the prompt with -32000, so
// the editor shows its sign-in flow.
func TestProviderRejectingTheKeyMidSessionIsAuthRequired(t *testing.T) {
	env := newAgentEnv(t, textTurn("first"), providertest.Turn{Status: 401,
		ErrorBody: `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(t.TempDir())
	if resp := c.prompt(sess.SessionID, "one"); resp.StopReason != "end_turn" {
		t.Fatalf("first prompt: %+v", resp)
	}
	requireAuthError(t, rpcError(t, c, "session/prompt", acp.PromptRequest{SessionID: sess.SessionID,
		Prompt: []acp.ContentBlock{{Type: "text", Text: "two"}}}),
		"openai rejected the API key (status 401): run `goose-acp configure` in a terminal to enter a new one")
	// The editor gets the sign-in error, not goose's error text as chat.
	if got := c.agentText(sess.SessionID); got != "first" {
		t.Fatalf("agent text %q", got)
	}
}

// Other provider failures stay what they were: goose's error text in the
// chat and end_turn.
func TestProviderServerErrorStaysChatText(t *testing.T) {
	fail := providertest.Turn{Status: 400, ErrorBody: `{"error":{"message":"bad tool schema"}}`}
	env := newAgentEnv(t, fail)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(t.TempDir())
	resp := c.prompt(sess.SessionID, "one")
	if resp.StopReason != "end_turn" || !strings.HasPrefix(c.agentText(sess.SessionID), "Ran into this error: ") {
		t.Fatalf("%+v %q", resp, c.agentText(sess.SessionID))
	}
}
