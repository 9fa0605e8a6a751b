package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// onePixelPNG is a 1×1 PNG, base64.
const onePixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

// TestTurnOverEveryWireFormat: thinking, text, a tool call and usage come
// through the same way whichever wire format the provider speaks (Chat
// Completions, Anthropic Messages, Gemini, and OpenAI's Responses API,
// which goose uses for gpt-5 codex models).
func TestTurnOverEveryWireFormat(t *testing.T) {
	for _, format := range []providertest.Format{providertest.OpenAI, providertest.Anthropic, providertest.Google, providertest.OpenAIResponses} {
		t.Run(format.String(), func(t *testing.T) {
			work := t.TempDir()
			env := newAgentEnvFor(t, format,
				providertest.Turn{Thinking: []string{"Let me ", "check."}, ThinkingSignature: "sig", Text: []string{"Checking."},
					ToolCalls: []providertest.ToolCall{{ID: "call_x", Name: "shell", Arguments: `{"command":"echo wire-ok"}`}},
					Usage:     &providertest.Usage{Input: 120, Output: 30}},
				providertest.Turn{Text: []string{"All ", "good."}, Usage: &providertest.Usage{Input: 200, Output: 5}},
			)
			c := startAgent(t, env)
			c.initialize(acp.ClientCapabilities{})
			sess := c.newSession(work)
			resp := c.prompt(sess.SessionID, "check")
			if resp.StopReason != "end_turn" {
				t.Fatalf("stopReason %q", resp.StopReason)
			}
			if got := c.agentText(sess.SessionID); got != "Checking.All good." {
				t.Errorf("agent text %q", got)
			}
			var thought, callID string
			var used int
			for _, u := range c.updatesOf(sess.SessionID) {
				if u.SessionUpdate == acp.UpdateToolCall && callID == "" {
					callID = u.ToolCallID // Gemini's calls carry no id: goose-acp makes one
				}
				if u.SessionUpdate == acp.UpdateAgentThoughtChunk {
					thought += u.Content.Text
				}
				if u.SessionUpdate == acp.UpdateUsage && u.Used != nil {
					used = *u.Used
				}
			}
			if thought != "Let me check." {
				t.Errorf("thought chunks %q\n%s", thought, c.dump(sess.SessionID))
			}
			if format != providertest.Google && callID != "call_x" {
				t.Errorf("tool call id %q, want the model's call_x", callID)
			}
			if got := strings.Join(c.statuses(sess.SessionID, callID), ">"); got != "pending>in_progress>completed" {
				t.Errorf("tool statuses %s\n%s", got, c.dump(sess.SessionID))
			}
			if !llmSaw(env, "wire-ok") {
				t.Error("tool output never reached the model")
			}
			if resp.Usage == nil || resp.Usage.TotalTokens == 0 || used == 0 {
				t.Errorf("usage: response %+v, last usage_update used=%d", resp.Usage, used)
			}
		})
	}
}

func TestImagePrompt(t *testing.T) {
	env := newAgentEnv(t, textTurn("a pixel"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	r := c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "what is this?"},
		acp.ContentBlock{Type: "image", Data: onePixelPNG, MimeType: "image/png"})
	if r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	if !llmSaw(env, "data:image/png;base64,"+onePixelPNG) {
		t.Fatal("the model did not receive the image as a data URL")
	}
	err := c.tryCall("session/prompt", acp.PromptRequest{SessionID: sess.SessionID, Prompt: []acp.ContentBlock{{Type: "image"}}}, nil)
	assertRPCError(t, err, -32602)
}

func TestEmbeddedResourcePrompt(t *testing.T) {
	env := newAgentEnv(t, textTurn("seen"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	text := "embedded-text-99"
	c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "look"},
		acp.ContentBlock{Type: "resource", Resource: &acp.EmbeddedResource{URI: "file:///project/notes.md", MimeType: "text/markdown", Text: &text}})
	if !llmSaw(env, "--- Resource: file:///project/notes.md ---\nembedded-text-99\n---\n") {
		t.Fatal("the embedded resource did not reach the model in goose's wrapping")
	}
}

// TestResourceLinkReadThroughEditor: a file:// link is read through
// fs/read_text_file when the editor offers it, so the model sees the buffer.
func TestResourceLinkReadThroughEditor(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "linked.txt")
	os.WriteFile(path, []byte("on disk\n"), 0o644)
	env := newAgentEnv(t, textTurn("seen"))
	c := startAgent(t, env)
	(&editor{buffers: map[string]string{path: "linked-buffer-55"}}).install(c)
	c.initialize(fsCaps)
	sess := c.newSession(work)
	c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "see"},
		acp.ContentBlock{Type: "resource_link", Name: "linked.txt", URI: "file://" + filepath.ToSlash(path)})
	if n := len(c.callsTo("fs/read_text_file")); n != 1 {
		t.Fatalf("fs/read_text_file calls = %d", n)
	}
	if !llmSaw(env, "\n\n# "+path+"\n```\nlinked-buffer-55\n```") {
		t.Fatal("the linked buffer did not reach the model")
	}
}

// TestLoadReplaysToolCallsAndImages: session/load in a new process replays
// user text and image, thoughts, the tool call with its title and final
// status and content, and the answer — all before the load response.
func TestLoadReplaysToolCallsAndImages(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnvFor(t, providertest.Anthropic,
		providertest.Turn{Thinking: []string{"pondering"}, ThinkingSignature: "sig",
			ToolCalls: []providertest.ToolCall{{ID: "toolu_1", Name: "shell", Arguments: `{"command":"echo replay-me"}`}}},
		providertest.Turn{Text: []string{"final answer"}},
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "run it"},
		acp.ContentBlock{Type: "image", Data: onePixelPNG, MimeType: "image/png"})
	c.close()

	c2 := startAgent(t, env)
	c2.initialize(acp.ClientCapabilities{})
	var resp acp.SessionSetupResponse
	c2.call("session/load", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: work, MCPServers: []acp.MCPServer{}}, &resp)
	loaded := c2.lastResponseIndex()
	var got []string
	for _, u := range c2.updatesOf(sess.SessionID) {
		switch u.SessionUpdate {
		case acp.UpdateUserMessageChunk, acp.UpdateAgentMessageChunk, acp.UpdateAgentThoughtChunk:
			if u.MessageID == "" {
				t.Errorf("replayed chunk without messageId: %+v", u)
			}
			if u.Content.Type == "image" {
				got = append(got, u.SessionUpdate+":image")
			} else {
				got = append(got, u.SessionUpdate+":"+u.Content.Text)
			}
		case acp.UpdateToolCall:
			got = append(got, "tool_call:"+*u.Title)
		case acp.UpdateToolCallUpdate:
			var text string
			for _, tc := range u.ToolContent {
				if tc.Content != nil {
					text += strings.TrimSpace(tc.Content.Text)
				}
			}
			got = append(got, "tool_call_update:"+u.Status+":"+text)
		}
	}
	want := []string{
		"user_message_chunk:run it", "user_message_chunk:image",
		"agent_thought_chunk:pondering",
		"tool_call:Run echo replay-me", "tool_call_update:completed:replay-me",
		"agent_message_chunk:final answer",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replay:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if last := c2.rawIndex("final answer"); last > loaded {
		t.Errorf("replay line %d came after the load response (line %d)", last, loaded)
	}
	b, _ := json.Marshal(resp)
	// provider, mode, model and (Claude thinks) thinking_effort
	if resp.Modes == nil || len(resp.ConfigOptions) != 4 {
		t.Errorf("load response %s", b)
	}
}

// TestPlanFromTodoTool: the todo tool's markdown list becomes an ACP plan
// (the complete list, statuses from the checkboxes).
func TestPlanFromTodoTool(t *testing.T) {
	env := newAgentEnv(t,
		toolCallTurn("call_todo", "todo__todo_write", map[string]string{"content": "- [x] read the code\n- [~] write tests\n- [ ] ship"}),
		textTurn("planned"),
	)
	env.enableTodo(t)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	c.prompt(sess.SessionID, "plan")
	var plan []string
	for _, u := range c.updatesOf(sess.SessionID) {
		if u.SessionUpdate == acp.UpdatePlan {
			plan = nil
			for _, e := range u.Entries {
				plan = append(plan, e.Status+":"+e.Content)
			}
		}
	}
	want := "completed:read the code,in_progress:write tests,pending:ship"
	if strings.Join(plan, ",") != want {
		t.Fatalf("plan = %v, want %s", plan, want)
	}
	if got := c.finalStatus(sess.SessionID, "call_todo"); got != "completed" {
		t.Errorf("todo tool status %q", got)
	}
}
