//go:build linux

package e2e

import (
	"encoding/json"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// The exact initialize parameters the two editors in the README send (Zed
// 0.2xx's external agent, codecompanion.nvim's ACP adapters), then the
// calls they make for a first turn. The README snippets for them are
// checked against this sequence.

// Zed advertises fs, terminal and the _meta.terminal_output extension:
// shell calls go through terminal/*, reads and edits through fs/*.
func TestZedClientProfile(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t,
		toolCallTurn("call_sh", "shell", map[string]string{"command": "echo from-zed"}),
		textTurn("done"),
	)
	c := startAgent(t, env)
	(&terminals{}).install(c)
	(&editor{}).install(c)
	c.answerPermissions("allow_once")
	var caps acp.ClientCapabilities
	json.Unmarshal([]byte(`{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,"_meta":{"terminal_output":true,"terminal-auth":true}}`), &caps)
	var init acp.InitializeResponse
	c.call("initialize", acp.InitializeRequest{ProtocolVersion: 1, ClientCapabilities: caps, ClientInfo: &acp.Implementation{Name: "zed", Title: "Zed", Version: "0.210.0"}}, &init)
	if init.ProtocolVersion != 1 || !init.AgentCapabilities.LoadSession {
		t.Fatalf("initialize %+v", init)
	}
	sess := c.newSession(work)
	c.waitFor("available_commands_update", func() bool {
		for _, u := range c.updatesOf(sess.SessionID) {
			if u.SessionUpdate == acp.UpdateAvailableCommands {
				return true
			}
		}
		return false
	})
	r := c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "run it"})
	if r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	if len(c.callsTo("terminal/create")) != 1 || len(c.callsTo("terminal/release")) != 1 {
		t.Fatalf("Zed's terminal was not used: %v", c.methodLog())
	}
	if !llmSaw(env, "from-zed") {
		t.Error("output did not reach the model")
	}
}

// codecompanion.nvim advertises fs only and sends buffers as embedded
// resources: shell runs locally, files go through fs/*.
func TestCodeCompanionClientProfile(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t,
		toolCallTurn("call_sh", "shell", map[string]string{"command": "echo from-nvim"}),
		textTurn("done"),
	)
	c := startAgent(t, env)
	(&editor{}).install(c)
	c.answerPermissions("allow_once")
	var caps acp.ClientCapabilities
	json.Unmarshal([]byte(`{"fs":{"readTextFile":true,"writeTextFile":true}}`), &caps)
	var init acp.InitializeResponse
	c.call("initialize", acp.InitializeRequest{ProtocolVersion: 1, ClientCapabilities: caps, ClientInfo: &acp.Implementation{Name: "CodeCompanion.nvim", Version: "1.0.0"}}, &init)
	if !init.AgentCapabilities.PromptCapabilities.EmbeddedContext || !init.AgentCapabilities.PromptCapabilities.Image {
		t.Fatalf("codecompanion needs embeddedContext and image: %+v", init.AgentCapabilities)
	}
	sess := c.newSession(work)
	buf := "local x = 1\n"
	r := c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "run it"},
		acp.ContentBlock{Type: "resource", Resource: &acp.EmbeddedResource{URI: "file://" + work + "/init.lua", MimeType: "text/x-lua", Text: &buf}})
	if r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	if len(c.callsTo("terminal/create")) != 0 {
		t.Fatal("terminal/create sent to a client without the terminal capability")
	}
	if !llmSaw(env, "from-nvim") || !llmSaw(env, "local x = 1") {
		t.Error("shell output or the embedded buffer did not reach the model")
	}
}
