package e2e

import (
	"encoding/json"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// modelToolNames are the tool names of the provider request at index i.
func modelToolNames(t *testing.T, env *agentEnv, i int) []string {
	t.Helper()
	reqs := env.LLM.Requests()
	if len(reqs) <= i {
		t.Fatalf("%d provider requests, want more than %d", len(reqs), i)
	}
	var body struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[i].Body, &body); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range body.Tools {
		names = append(names, tool.Function.Name)
	}
	return names
}

func hasTodoTool(names []string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "todo") })
}

// TestGooseACPCommand: `goose-acp acp` is goose's own argv for its ACP
// agent (the ACP registry's goose entry, goose's documented Zed set-up);
// it serves ACP exactly as `goose-acp` does, and --with-builtin adds
// extensions to every new session as goose's flag does.
func TestGooseACPCommand(t *testing.T) {
	env := newAgentEnv(t, textTurn("plain"), textTurn("with todo"))
	env.writeConfig(t, "extensions:\n  todo:\n    enabled: false\n    type: platform\n    name: todo\n")

	plain := startAgent(t, env, "acp")
	init := plain.initialize(acp.ClientCapabilities{})
	if init.AgentInfo == nil || init.AgentInfo.Name != "goose-acp" || !init.AgentCapabilities.LoadSession {
		t.Fatalf("acp initialize = %+v", init)
	}
	sess := plain.newSession(env.Root)
	if got := plain.prompt(sess.SessionID, "hi").StopReason; got != "end_turn" {
		t.Fatalf("stop reason %q", got)
	}
	if names := modelToolNames(t, env, 0); hasTodoTool(names) || len(names) == 0 {
		t.Fatalf("plain `acp` session tools %v: want the developer tools and no todo (disabled in config)", names)
	}
	plain.close()

	withTodo := startAgent(t, env, "acp", "--with-builtin", "todo")
	withTodo.initialize(acp.ClientCapabilities{})
	sess = withTodo.newSession(env.Root)
	withTodo.prompt(sess.SessionID, "hi")
	if names := modelToolNames(t, env, 1); !hasTodoTool(names) {
		t.Fatalf("`acp --with-builtin todo` session tools %v: want a todo tool", names)
	}

	out, err := exec.Command(binary, "acp", "--with-builtin", "nosuch").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(string(out), `unknown builtin extension "nosuch"`) {
		t.Fatalf("unknown builtin: %v, output %q", err, out)
	}
}
