package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// mcpfsServer returns the entry point of the pinned
// @modelcontextprotocol/server-filesystem (e2e/mcpfs), installed on first
// use; without node/npm it skips (fails in CI).
func mcpfsServer(t *testing.T) string {
	t.Helper()
	dir := npmtest.Install(t, "mcpfs")
	return filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
}

// TestEditorMCPFilesystemServer: the editor hands goose-acp the real
// filesystem MCP server in session/new; the model reads a file through it
// (tool_call, completed tool_call_update with the text, the text in the
// next model request), and a read outside the allowed directory comes back
// as a failed tool call carrying the server's own error, not as a protocol
// error.
func TestEditorMCPFilesystemServer(t *testing.T) {
	entry := mcpfsServer(t)
	allowed, outside := t.TempDir(), t.TempDir()
	const fileText = "alpha <beta> & \"gamma\"\nsecond line from the MCP filesystem server\n"
	inside := filepath.Join(allowed, "notes.txt")
	secret := filepath.Join(outside, "secret.txt")
	for path, text := range map[string]string{inside: fileText, secret: "never to be read\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := newAgentEnv(t,
		toolCallTurn("call_read", "fs__read_text_file", map[string]string{"path": inside}),
		textTurn("The file has two lines."),
		toolCallTurn("call_outside", "fs__read_text_file", map[string]string{"path": secret}),
		textTurn("That file is outside the allowed directory."),
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	var sess acp.NewSessionResponse
	c.call("session/new", acp.NewSessionRequest{CWD: allowed, MCPServers: []acp.MCPServer{{
		Name: "fs", Command: "node", Args: []string{entry, allowed}, Env: []acp.EnvVariable{},
	}}}, &sess)

	if r := c.prompt(sess.SessionID, "read notes.txt"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q\n%s", r.StopReason, c.dump(sess.SessionID))
	}
	chats := chatRequests(t, env.LLM)
	if len(chats) != 2 {
		t.Fatalf("model requests = %d, want 2", len(chats))
	}
	for _, tool := range []string{"fs__read_text_file", "fs__list_allowed_directories", "fs__write_file"} {
		if !slices.Contains(chats[0].toolNames(), tool) {
			t.Errorf("first model request lacks tool %s; offered %v", tool, chats[0].toolNames())
		}
	}
	wantToolCall(t, c, sess.SessionID, "call_read", inside)
	u := c.toolUpdates(sess.SessionID, "call_read")
	last := u[len(u)-1]
	if last.SessionUpdate != acp.UpdateToolCallUpdate || last.Status != "completed" {
		t.Fatalf("last update of call_read = %+v, want a completed tool_call_update\n%s", last, c.dump(sess.SessionID))
	}
	if got := toolText(last); got != fileText {
		t.Errorf("tool_call_update content = %q, want the file text %q", got, fileText)
	}
	if got := chats[1].toolMessage("call_read"); !strings.Contains(got, fileText) {
		t.Errorf("the model's next request carries tool output %q, want the file text", got)
	}

	if r := c.prompt(sess.SessionID, "now read the secret"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q after the denied read\n%s", r.StopReason, c.dump(sess.SessionID))
	}
	wantToolCall(t, c, sess.SessionID, "call_outside", secret)
	if got := c.finalStatus(sess.SessionID, "call_outside"); got != "failed" {
		t.Fatalf("status of the outside read = %q, want failed\n%s", got, c.dump(sess.SessionID))
	}
	u = c.toolUpdates(sess.SessionID, "call_outside")
	denied := toolText(u[len(u)-1])
	if want := "Access denied - path outside allowed directories: " + secret; !strings.Contains(denied, want) {
		t.Errorf("failed tool_call_update content = %q, want the server's %q", denied, want)
	}
	chats = chatRequests(t, env.LLM)
	if len(chats) != 4 {
		t.Fatalf("model requests = %d, want 4", len(chats))
	}
	if got := chats[3].toolMessage("call_outside"); !strings.Contains(got, "Access denied") {
		t.Errorf("the model's next request carries tool output %q, want the server's denial", got)
	}
	for i, chat := range chats {
		if strings.Contains(string(chat.raw), "never to be read") {
			t.Errorf("model request %d carries the file outside the allowed directory", i)
		}
	}
	if n := len(c.callsTo("session/request_permission")); n != 0 {
		t.Errorf("auto mode asked for permission %d times", n)
	}
	t.Logf("session updates:\n%s", c.dump(sess.SessionID))
}

// wantToolCall checks the pending tool_call announcing a filesystem read.
func wantToolCall(t *testing.T, c *acpClient, sessionID, id, path string) {
	t.Helper()
	u := c.toolUpdates(sessionID, id)
	if len(u) < 2 || u[0].SessionUpdate != acp.UpdateToolCall || u[0].Status != "pending" {
		t.Fatalf("updates of %s = %+v, want a pending tool_call then updates\n%s", id, u, c.dump(sessionID))
	}
	raw, _ := json.Marshal(u[0].RawInput)
	if want, _ := json.Marshal(map[string]string{"path": path}); string(raw) != string(want) {
		t.Errorf("tool_call rawInput = %s, want %s", raw, want)
	}
}

// toolText joins the text blocks of a tool_call_update's content.
func toolText(u acp.SessionUpdate) string {
	var b strings.Builder
	for _, tc := range u.ToolContent {
		if tc.Type == "content" && tc.Content != nil && tc.Content.Type == "text" {
			b.WriteString(tc.Content.Text)
		}
	}
	return b.String()
}

// chatRequest is one Chat Completions request the mock model received.
type chatRequest struct {
	raw      []byte
	Messages []struct {
		Role       string          `json:"role"`
		ToolCallID string          `json:"tool_call_id"`
		Content    json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func chatRequests(t *testing.T, llm *providertest.Server) []chatRequest {
	t.Helper()
	var out []chatRequest
	for _, r := range llm.Requests() {
		if !strings.HasSuffix(r.Path, "/chat/completions") {
			continue
		}
		cr := chatRequest{raw: r.Body}
		if err := json.Unmarshal(r.Body, &cr); err != nil {
			t.Fatalf("model request is not JSON: %v: %s", err, r.Body)
		}
		out = append(out, cr)
	}
	return out
}

func (r chatRequest) toolNames() []string {
	var out []string
	for _, tool := range r.Tools {
		out = append(out, tool.Function.Name)
	}
	return out
}

// toolMessage returns the text of the tool message answering id: a string
// content, or the joined text parts.
func (r chatRequest) toolMessage(id string) string {
	for _, m := range r.Messages {
		if m.Role != "tool" || m.ToolCallID != id {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			return s
		}
		var parts []struct {
			Text string `json:"text"`
		}
		json.Unmarshal(m.Content, &parts)
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return ""
}
