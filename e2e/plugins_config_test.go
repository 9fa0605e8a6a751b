package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
)

// TestPluginHookTimeouts: a PreToolUse hook that outlives its timeout is
// killed; with on_failure "block" the call is denied with goose's
// hook_failed text, without it the call runs and the user is told the
// hook failed.
func TestPluginHookTimeouts(t *testing.T) {
	for _, tc := range []struct {
		name, onFailure string
		runs            bool
	}{
		{"block", `,"on_failure":"block"`, false},
		{"allow", ``, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			env := newAgentEnv(t, toolCallTurn("call_1", shellTool, map[string]string{"command": "echo ran > ran.txt"}), textTurn("ok"))
			userPlugin(t, env, "slow", map[string]string{
				"hooks/hooks.json": `{"hooks":{"PreToolUse":[{"matcher":"shell","hooks":[{"type":"command","command":"sleep 30","timeout":1` + tc.onFailure + `}]}]}}`,
			})
			c := startAgent(t, env)
			c.initialize(acp.ClientCapabilities{Session: &acp.ClientSessionCapabilities{Notices: rawJSON(`{}`)}})
			sess := c.newSession(work)
			start := time.Now()
			if resp := c.prompt(sess.SessionID, "run it"); resp.StopReason != "end_turn" {
				t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Fatalf("the turn took %s: the hook was not killed at its timeout", d)
			}
			_, err := os.Stat(filepath.Join(work, "ran.txt"))
			if ran := err == nil; ran != tc.runs {
				t.Fatalf("command ran = %v, want %v", ran, tc.runs)
			}
			if tc.runs {
				waitNotice(t, c, sess.SessionID, "warning: Plugin hook `slow` (PreToolUse) failed; continuing without it")
				return
			}
			want := "Tool call blocked because policy hook `slow` could not complete: the hook command failed to run. That hook is configured to block on failure."
			if !llmSaw(env, want) || c.finalStatus(sess.SessionID, "call_1") != "failed" {
				t.Fatalf("denial not seen (status %q)\n%s", c.finalStatus(sess.SessionID, "call_1"), c.dump(sess.SessionID))
			}
		})
	}
}

// TestPluginsDisabled: a plugin the user's settings.json lists in
// disabledPlugins, and one config.yaml disables, run nothing; a third
// runs, and goose's config.yaml write-back records it.
func TestPluginsDisabled(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, textTurn("ok"))
	hooks := hooksJSON(map[string][2]string{"UserPromptSubmit": {"", recordTo("prompt.log")}})
	off := userPlugin(t, env, "off-by-settings", map[string]string{"hooks/hooks.json": hooks})
	offCfg := userPlugin(t, env, "off-by-config", map[string]string{"hooks/hooks.json": hooks})
	on := userPlugin(t, env, "on", map[string]string{"hooks/hooks.json": hooks})
	writePlugin(t, filepath.Join(env.Root, ".config", "goose"), map[string]string{"settings.json": `{"disabledPlugins":["off-by-settings"]}`})
	env.writeConfig(t, "plugins:\n  "+offCfg+":\n    enabled: false\n")
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	if resp := c.prompt(sess.SessionID, "hi"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	if got := payloads(filepath.Join(on, "prompt.log")); len(got) != 1 {
		t.Fatalf("the enabled plugin ran %d times", len(got))
	}
	for _, dir := range []string{off, offCfg} {
		if got := payloads(filepath.Join(dir, "prompt.log")); len(got) != 0 {
			t.Fatalf("disabled plugin %s ran: %q", filepath.Base(dir), got)
		}
	}
	cfg, err := os.ReadFile(filepath.Join(env.Root, "config", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{on + ":\n    enabled: true", offCfg + ":\n    enabled: false"} {
		if !strings.Contains(string(cfg), want) {
			t.Fatalf("config.yaml lacks %q:\n%s", want, cfg)
		}
	}
	if strings.Contains(string(cfg), off) {
		t.Fatalf("a plugin settings.json disables was written to config.yaml:\n%s", cfg)
	}
}

// TestPluginSkillsAndMCPServer: a user plugin's skills join the session's
// skills and its .mcp.json server (the real filesystem MCP server) is a
// stdio extension named <plugin>:<server>, ${PLUGIN_ROOT} expanded, whose
// tools the model calls.
func TestPluginSkillsAndMCPServer(t *testing.T) {
	entry := mcpfsServer(t)
	work := t.TempDir()
	const noteText = "remember the milk\n"
	if err := os.WriteFile(filepath.Join(work, "todo.txt"), []byte(noteText), 0o644); err != nil {
		t.Fatal(err)
	}
	env := newAgentEnv(t,
		toolCallTurn("call_read", "notes_fs__read_text_file", map[string]string{"path": filepath.Join(work, "todo.txt")}),
		textTurn("You need milk."))
	userPlugin(t, env, "notes", map[string]string{
		"plugin.json":                     `{"name":"notes","version":"1.0.0"}`,
		".mcp.json":                       `{"mcpServers":{"fs":{"command":"node","args":["` + entry + `","${PLUGIN_ROOT}","` + work + `"]}}}`,
		"skills/summarize-notes/SKILL.md": "---\nname: summarize-notes\ndescription: Summarize the user's notes\n---\nRead the notes and summarize them.\n",
	})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	if resp := c.prompt(sess.SessionID, "what is on my list?"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	chats := chatRequests(t, env.LLM)
	if !slices.Contains(chats[0].toolNames(), "notes_fs__read_text_file") {
		t.Fatalf("the plugin's MCP server tools are not offered: %v", chats[0].toolNames())
	}
	if !llmSaw(env, "• summarize-notes - Summarize the user's notes") {
		t.Fatal("the plugin's skill is not listed in the system prompt")
	}
	if st := c.finalStatus(sess.SessionID, "call_read"); st != "completed" {
		t.Fatalf("plugin server call ended %q\n%s", st, c.dump(sess.SessionID))
	}
	if got := chats[1].toolMessage("call_read"); !strings.Contains(got, noteText) {
		t.Fatalf("the model got %q from the plugin's server", got)
	}
}
