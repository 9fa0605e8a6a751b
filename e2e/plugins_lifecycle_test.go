package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
)

// notices are a session's notice updates as "severity: title".
func notices(c *acpClient, sessionID string) []string {
	var out []string
	for _, u := range c.updatesOf(sessionID) {
		if u.SessionUpdate == acp.UpdateNotice && u.Title != nil {
			out = append(out, u.Severity+": "+*u.Title)
		}
	}
	return out
}

func waitNotice(t *testing.T, c *acpClient, sessionID, want string) {
	t.Helper()
	c.waitFor("notice "+want, func() bool {
		for _, n := range notices(c, sessionID) {
			if n == want {
				return true
			}
		}
		return false
	})
}

// TestPluginSessionAndPromptHooks: SessionStart runs once when the session
// opens (its banner is an info notice before any prompt), UserPromptSubmit
// runs for every prompt with goose's payload, a hook that fails is a
// warning notice and the turn goes on, and SessionEnd runs when the
// agent ends.
func TestPluginSessionAndPromptHooks(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, textTurn("hello"), textTurn("again"))
	life := userPlugin(t, env, "life", map[string]string{
		"start.sh": `payload=$(cat); printf '%s\n' "$payload" >> "$PLUGIN_ROOT/start.log"; printf '{"banner":"3 open tasks in this repo"}'`,
		"hooks/hooks.json": hooksJSON(map[string][2]string{
			"SessionStart":     {"", "sh ${PLUGIN_ROOT}/start.sh"},
			"UserPromptSubmit": {"", recordTo("prompt.log")},
			"SessionEnd":       {"", recordTo("end.log")},
		}),
	})
	userPlugin(t, env, "flaky", map[string]string{
		"hooks/hooks.json": hooksJSON(map[string][2]string{"UserPromptSubmit": {"", "echo 'audit log unavailable' >&2; exit 1"}}),
	})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{Session: &acp.ClientSessionCapabilities{Notices: rawJSON(`{}`)}})
	sess := c.newSession(work)
	id := sess.SessionID
	waitNotice(t, c, id, "info: 3 open tasks in this repo")
	for _, p := range []string{"first prompt", "second prompt"} {
		if resp := c.prompt(id, p); resp.StopReason != "end_turn" {
			t.Fatalf("%s: stop %q\n%s", p, resp.StopReason, c.stderr.String())
		}
	}
	if got := payloads(filepath.Join(life, "start.log")); len(got) != 1 || got[0] != `{"event":"SessionStart","session_id":"`+id+`","matcher_context":null,"working_dir":"`+work+`"}` {
		t.Fatalf("SessionStart payloads = %q", got)
	}
	prompt := `{"event":"UserPromptSubmit","session_id":"` + id + `","matcher_context":"%s","message":"%s","working_dir":"` + work + `"}`
	want := strings.ReplaceAll(prompt, "%s", "first prompt") + "\n" + strings.ReplaceAll(prompt, "%s", "second prompt")
	if got := strings.Join(payloads(filepath.Join(life, "prompt.log")), "\n"); got != want {
		t.Fatalf("UserPromptSubmit payloads\n got %s\nwant %s", got, want)
	}
	failed := "warning: Plugin hook `flaky` (UserPromptSubmit) failed; continuing without it"
	n := 0
	for _, u := range c.updatesOf(id) {
		if u.SessionUpdate == acp.UpdateNotice && u.Severity+": "+*u.Title == failed {
			if u.Description == nil || *u.Description != "the hook exited with status 1: audit log unavailable" {
				t.Fatalf("failure notice %s", jsonOf(u))
			}
			n++
		}
	}
	if n != 2 {
		t.Fatalf("failure notices = %q, want %q twice", notices(c, id), failed)
	}
	c.close()
	if got := waitPayloads(filepath.Join(life, "end.log"), 1); len(got) != 1 || got[0] != `{"event":"SessionEnd","session_id":"`+id+`","matcher_context":null}` {
		t.Fatalf("SessionEnd payloads = %q", got)
	}
}

// stopScript blocks the first Stop with goose's JSON decision and allows
// the next, recording each payload.
const stopScript = `payload=$(cat)
printf '%s\n' "$payload" >> "$PLUGIN_ROOT/stop.log"
[ -f "$PLUGIN_ROOT/blocked" ] && exit 0
touch "$PLUGIN_ROOT/blocked"
printf '{"decision":"block","reason":"run the tests first"}'
`

// TestPluginStopHookReprompts: a Stop hook that blocks makes the model run
// again with goose's agent-only context message; the user (a client
// without notices) reads goose's line in the agent's message; the second
// Stop allows and the turn ends.
func TestPluginStopHookReprompts(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, textTurn("All done."), textTurn("Tests pass. Done."))
	root := userPlugin(t, env, "tests-first", map[string]string{
		"stop.sh":          stopScript,
		"hooks/hooks.json": hooksJSON(map[string][2]string{"Stop": {"", "sh ${PLUGIN_ROOT}/stop.sh"}}),
	})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	if resp := c.prompt(sess.SessionID, "finish the feature"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	if n := len(env.LLM.Requests()); n != 2 {
		t.Fatalf("%d model requests, want 2 (the blocked stop re-prompts once)", n)
	}
	if !llmSaw(env, "Stop hook `tests-first` blocked ending this turn:\n\nrun the tests first\n\nAddress this policy hook denial before trying to stop again.") {
		t.Fatal("the re-prompt lacks goose's Stop hook context message")
	}
	if text := c.agentText(sess.SessionID); text != "All done.\nStop hook `tests-first` blocked ending this turn.\n\nTests pass. Done." {
		t.Fatalf("agent text = %q", text)
	}
	stop := payloads(filepath.Join(root, "stop.log"))
	want := `{"event":"Stop","session_id":"` + sess.SessionID + `","matcher_context":null,"last_assistant_message":"%s","working_dir":"` + work + `"}`
	if len(stop) != 2 || stop[0] != strings.Replace(want, "%s", "All done.", 1) || stop[1] != strings.Replace(want, "%s", "Tests pass. Done.", 1) {
		t.Fatalf("Stop payloads = %q", stop)
	}
}

// TestPluginStopHookBlockCap: a Stop hook that always blocks ends the turn
// after GOOSE_STOP_HOOK_BLOCK_CAP re-prompts with goose's warning.
func TestPluginStopHookBlockCap(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t, textTurn("one"), textTurn("two"), textTurn("three"))
	env.Vars["GOOSE_STOP_HOOK_BLOCK_CAP"] = "1"
	userPlugin(t, env, "never", map[string]string{
		"hooks/hooks.json": hooksJSON(map[string][2]string{"Stop": {"", "echo 'not yet' >&2; exit 2"}}),
	})
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{Session: &acp.ClientSessionCapabilities{Notices: rawJSON(`{}`)}})
	sess := c.newSession(work)
	start := time.Now()
	if resp := c.prompt(sess.SessionID, "go"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	if n := len(env.LLM.Requests()); n != 2 {
		t.Fatalf("%d model requests, want 2 (one re-prompt under a cap of 1)", n)
	}
	want := []string{
		"warning: Stop hook `never` blocked ending this turn.",
		"warning: Stop hook `never` blocked the turn from ending more than 1 consecutive times — overriding and ending turn to avoid an infinite loop. Set GOOSE_STOP_HOOK_BLOCK_CAP to raise this limit.",
	}
	if got := notices(c, sess.SessionID); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("notices\n got %q\nwant %q", got, want)
	}
	t.Logf("turn with two Stop hook runs took %s", time.Since(start))
}
