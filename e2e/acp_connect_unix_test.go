//go:build unix

package e2e

// Issue 17 §3: session/new answers before the session's extensions have
// connected; the first prompt waits for them, telling the user after a
// second, and the model sees their tools.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
