package e2e

import (
	"encoding/json"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// The editors goose-acp serves, as it meets them: their exact
// initialize requests (capabilities and client info), read from their
// sources.
var (
	// Zed (crates/agent_servers/src/acp.rs): fs and terminal, terminal
	// auth, and the _meta.terminal_output display extension.
	zedInitialize = `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,"auth":{"terminal":true},"_meta":{"terminal_output":true,"terminal-auth":true}},"clientInfo":{"name":"zed","title":"Zed","version":"0.230.0"}}`
	// Emacs agent-shell over acp.el (acp-make-initialize-request): fs
	// only, no terminal; every stderr chunk becomes a "Notices" block.
	agentShellInitialize = `{"clientInfo":{"name":"agent-shell","title":"Emacs Agent Shell","version":"0.63.1"},"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true}}}`
)

// editorProfiles are the clients most editor tests run as.
var editorProfiles = []struct{ name, initialize string }{
	{"zed", zedInitialize},
	{"agent-shell", agentShellInitialize},
}

// initializeAs sends an editor's exact initialize request.
func (c *acpClient) initializeAs(params string) acp.InitializeResponse {
	c.t.Helper()
	var resp acp.InitializeResponse
	c.call("initialize", json.RawMessage(params), &resp)
	return resp
}

// devTool is the name the model calls a developer tool by: goose 1.54's
// bare names (shell, read, write, …). Tool names are written through it
// only, so a renaming of the tool surface changes one line here.
func devTool(bare string) string { return bare }

// todoWrite is the todo tool's name, for the same reason.
const todoWrite = "todo__todo_write"

// declinedText is what the model reads for a refused call (core/agent's
// DeclinedResponse, as goose words it).
const declinedText = "The user has declined to run this tool. DO NOT attempt to call this tool again. If there are no alternative methods to proceed, clearly explain the situation and STOP."

// finalToolUpdate is the last tool_call_update of a call that carries a
// terminal status (completed or failed), or the zero update.
func finalToolUpdate(t *testing.T, c *acpClient, sessionID, toolCallID string) acp.SessionUpdate {
	t.Helper()
	var last acp.SessionUpdate
	for _, u := range c.toolUpdates(sessionID, toolCallID) {
		if u.SessionUpdate == acp.UpdateToolCallUpdate && (u.Status == "completed" || u.Status == "failed") {
			last = u
		}
	}
	return last
}
