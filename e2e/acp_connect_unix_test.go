//go:build unix

package e2e

// session/new answers before the session's extensions have
// connected; the first prompt waits for them, telling the user after a
// second, and the model sees their tools.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// slowServer is our developer MCP server started after a wait of secs
// seconds; marker is created when the wait is over.
func slowServer(name, marker, secs string) acp.MCPServer {
	return acp.MCPServer{Name: name, Command: "sh", Args: []string{"-c", `sleep ` + secs + `; touch "$1"; exec "$0" mcp developer`, binary, marker}, Env: []acp.EnvVariable{}}
}

func TestSessionNewAnswersBeforeExtensionsConnect(t *testing.T) {
	env := newAgentEnv(t, providertest.Turn{Text: []string{"ok"}})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	marker := filepath.Join(t.TempDir(), "started")
	var sess acp.NewSessionResponse
	c.call("session/new", acp.NewSessionRequest{CWD: env.Root, MCPServers: []acp.MCPServer{slowServer("slow", marker, "2")}}, &sess)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("session/new answered only after the slow extension had started")
	}
	if resp := c.prompt(sess.SessionID, "hi"); resp.StopReason != "end_turn" {
		t.Fatalf("stop reason %q", resp.StopReason)
	}
	var kinds []string
	note := -1
	for i, u := range c.updatesOf(sess.SessionID) {
		kinds = append(kinds, u.SessionUpdate)
		if u.SessionUpdate == acp.UpdateAgentThoughtChunk && u.Content != nil && u.Content.Text == "Waiting for extensions to start: slow\n" {
			note = i
		}
	}
	answer := slices.Index(kinds, acp.UpdateAgentMessageChunk)
	if note < 0 || answer < note || slices.Contains(kinds, acp.UpdateToolCall) {
		t.Fatalf("want the waiting note as a thought before the answer and no tool call; updates %v (note %d)", kinds, note)
	}
	reqs := env.LLM.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d provider requests", len(reqs))
	}
	var body struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(reqs[0].Body, &body)
	var names []string
	for _, tool := range body.Tools {
		names = append(names, tool.Function.Name)
	}
	if !slices.Contains(names, "slow__shell") {
		t.Fatalf("the first turn's tools lack the slow extension's: %v", names)
	}
	// The commands list comes once the extensions are there.
	c.waitFor("available_commands_update", func() bool {
		for _, u := range c.updatesOf(sess.SessionID) {
			if u.SessionUpdate == acp.UpdateAvailableCommands {
				return true
			}
		}
		return false
	})
}

// Closing a session whose extension is still starting stops that start:
// the server process is gone well before it would have finished waiting.
func TestSessionCloseStopsAStartingExtension(t *testing.T) {
	env := newAgentEnv(t)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	marker := filepath.Join(t.TempDir(), "started")
	var sess acp.NewSessionResponse
	c.call("session/new", acp.NewSessionRequest{CWD: env.Root, MCPServers: []acp.MCPServer{slowServer("slow", marker, "30")}}, &sess)
	running := func() bool { return exec.Command("pgrep", "-f", marker).Run() == nil }
	c.waitFor("the extension process", running)
	c.call("session/close", map[string]any{"sessionId": sess.SessionID}, nil)
	c.waitFor("the extension process to end", func() bool { return !running() })
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the extension's process got past its wait")
	}
	// The agent still serves.
	if s := c.newSession(env.Root); s.SessionID == "" {
		t.Fatal("no session after the close")
	}
}

// Sessions of one editor whose MCP servers are configured identically
// share one server process; each session's calls still reach it after
// another session closes, and the last close ends it.
func TestIdenticalStdioExtensionsShareOneProcess(t *testing.T) {
	env := newAgentEnv(t, textTurn("one"), textTurn("two"),
		toolCallTurn("call_1", "srv__shell", map[string]string{"command": "echo shared-ok"}), textTurn("done"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	// The server runs through a link of its own, so pgrep can tell it.
	marker := filepath.Join(t.TempDir(), "shared-developer-server")
	if err := os.Symlink(binary, marker); err != nil {
		t.Fatal(err)
	}
	srv := acp.MCPServer{Name: "srv", Command: marker, Args: []string{"mcp", "developer"}, Env: []acp.EnvVariable{}}
	var s1, s2 acp.NewSessionResponse
	c.call("session/new", acp.NewSessionRequest{CWD: env.Root, MCPServers: []acp.MCPServer{srv}}, &s1)
	c.call("session/new", acp.NewSessionRequest{CWD: env.Root, MCPServers: []acp.MCPServer{srv}}, &s2)
	c.prompt(s1.SessionID, "first") // each first prompt waits for its session's connect
	c.prompt(s2.SessionID, "second")
	count := func() int {
		out, _ := exec.Command("pgrep", "-f", marker).Output()
		return len(strings.Fields(string(out)))
	}
	if n := count(); n != 1 {
		t.Fatalf("%d server processes for two sessions with the same config, want 1", n)
	}
	c.call("session/close", map[string]any{"sessionId": s1.SessionID}, nil)
	if r := c.prompt(s2.SessionID, "run it"); r.StopReason != "end_turn" {
		t.Fatalf("stop reason %q", r.StopReason)
	}
	if got := c.finalStatus(s2.SessionID, "call_1"); got != "completed" {
		t.Fatalf("the tool call on the shared server ended %q after the other session closed", got)
	}
	if !llmSaw(env, "shared-ok") {
		t.Fatal("the model did not see the shared server's output")
	}
	c.call("session/close", map[string]any{"sessionId": s2.SessionID}, nil)
	c.waitFor("the shared server to end with its last session", func() bool { return count() == 0 })
}
