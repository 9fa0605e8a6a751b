//go:build !windows

package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// goose 1.54 names the first-class tools bare (shell, write, analyze,
// load, delegate, load_skill); before it they were "developer__shell" and
// so on. What users saved under the old names keeps working: these tests
// drive the real binary with the old names where a user has them.

// TestDefaultToolNamesAreBare: the default session offers goose 1.54's
// names, and none of the old prefixed ones.
func TestDefaultToolNamesAreBare(t *testing.T) {
	env := newAgentEnv(t, textTurn("hi"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(t.TempDir())
	c.prompt(sess.SessionID, "hello")
	tools := viewRequest(t, env.LLM.Requests()[0].Body).tools
	for _, want := range []string{"shell", "write", "edit", "tree", "read_image", "analyze", "load", "delegate"} {
		if !slices.Contains(tools, want) {
			t.Errorf("tools lack %s: %v", want, tools)
		}
	}
	// goose 1.54's default surface: read only for clients that read files,
	// resource tools only with an extension serving resources, no todo, no
	// web_fetch.
	for _, not := range []string{"read", "extensionmanager__list_resources", "extensionmanager__read_resource", "todo__todo_write", "web_fetch"} {
		if slices.Contains(tools, not) {
			t.Errorf("tools offer %s: %v", not, tools)
		}
	}
	if llmSaw(env, "Current tasks and notes") {
		t.Error("the todo reminder reached the model with todo off")
	}
	for _, name := range tools {
		if strings.HasPrefix(name, "developer__") || strings.HasPrefix(name, "summon__") || strings.HasPrefix(name, "skills__") {
			t.Errorf("old prefixed name offered: %s", name)
		}
	}
}

// TestReadAndTodoFollowTheClientAndConfig: an editor that reads files for
// the agent gets read; config.yaml turns todo on, with its per-turn note.
func TestReadAndTodoFollowTheClientAndConfig(t *testing.T) {
	env := newAgentEnv(t, textTurn("hi"))
	env.enableTodo(t)
	c := startAgent(t, env)
	(&editor{}).install(c)
	c.initialize(fsCaps)
	sess := c.newSession(t.TempDir())
	c.prompt(sess.SessionID, "hello")
	tools := viewRequest(t, env.LLM.Requests()[0].Body).tools
	if !slices.Contains(tools, "read") || !slices.Contains(tools, "todo__todo_write") {
		t.Fatalf("tools = %v", tools)
	}
	if !llmSaw(env, "Current tasks and notes") {
		t.Error("todo on, but its note did not reach the model")
	}
}

// TestOldPrefixedNamesInPermissionYAML: rules saved as developer__shell
// still decide shell's calls in approve mode — never_allow refuses without
// asking, always_allow runs without asking.
func TestOldPrefixedNamesInPermissionYAML(t *testing.T) {
	for _, tc := range []struct {
		rule string
		ran  bool
	}{{"never_allow", false}, {"always_allow", true}} {
		t.Run(tc.rule, func(t *testing.T) {
			work := t.TempDir()
			env := newAgentEnv(t, toolCallTurn("call_sh", "shell", map[string]string{"command": "echo ran > ran.txt"}), textTurn("done"))
			dir := filepath.Join(env.Root, "config")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			yaml := "user:\n  " + tc.rule + ":\n  - developer__shell\n"
			if err := os.WriteFile(filepath.Join(dir, "permission.yaml"), []byte(yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			c := startAgent(t, env)
			c.answerPermissions("allow_once")
			c.initialize(acp.ClientCapabilities{})
			sess := c.newSession(work)
			c.setMode(sess.SessionID, "approve")
			if r := c.prompt(sess.SessionID, "run it"); r.StopReason != "end_turn" {
				t.Fatalf("stop %q", r.StopReason)
			}
			if n := len(c.callsTo("session/request_permission")); n != 0 {
				t.Errorf("asked %d times although permission.yaml decides", n)
			}
			_, err := os.Stat(filepath.Join(work, "ran.txt"))
			if ran := err == nil; ran != tc.ran {
				t.Errorf("ran = %v, want %v", ran, tc.ran)
			}
			results := viewRequest(t, env.LLM.Requests()[1].Body).results
			if !tc.ran && (len(results) != 1 || !strings.Contains(results[0], "declined")) {
				t.Errorf("tool result = %q", results)
			}
		})
	}
}

// TestStoredSessionWithPrefixedNames: a session whose history calls
// developer__shell (stored by an older goose-acp, or a model that still
// says it) replays with shell's title and kind, and a new call under the
// old name runs the shell.
func TestStoredSessionWithPrefixedNames(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t,
		toolCallTurn("call_old", "developer__shell", map[string]string{"command": "echo stored-42"}),
		textTurn("stored"),
	)
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	if r := c.prompt(sess.SessionID, "first"); r.StopReason != "end_turn" {
		t.Fatalf("stop %q", r.StopReason)
	}
	if got := viewRequest(t, env.LLM.Requests()[1].Body).results; len(got) != 1 || !strings.Contains(got[0], "stored-42") {
		t.Fatalf("developer__shell result = %q", got)
	}
	c.close()

	env.LLM.Script.Append(
		toolCallTurn("call_again", "developer__shell", map[string]string{"command": "echo again-43"}),
		textTurn("again"),
	)
	c2 := startAgent(t, env)
	c2.initialize(acp.ClientCapabilities{})
	var resp acp.SessionSetupResponse
	c2.call("session/load", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: work, MCPServers: []acp.MCPServer{}}, &resp)
	var replayed *acp.SessionUpdate
	for _, u := range c2.updatesOf(sess.SessionID) {
		if u.SessionUpdate == acp.UpdateToolCall && u.ToolCallID == "call_old" {
			replayed = &u
		}
	}
	if replayed == nil || *replayed.Title != "Run echo stored-42" || replayed.Kind != "execute" {
		t.Fatalf("replayed tool call = %+v", replayed)
	}
	if r := c2.prompt(sess.SessionID, "again"); r.StopReason != "end_turn" {
		t.Fatalf("stop %q", r.StopReason)
	}
	if k := c2.toolKind(sess.SessionID, "call_again"); k != "execute" {
		t.Errorf("kind of a developer__shell call = %q", k)
	}
	reqs := env.LLM.Requests()
	if got := viewRequest(t, reqs[len(reqs)-1].Body).results; len(got) == 0 || !strings.Contains(got[len(got)-1], "again-43") {
		t.Fatalf("results = %q", got)
	}
}

// TestRecipeWithPrefixedNames: a recipe written for the old names (its
// instructions say developer__shell, so the model calls that) still runs
// its tool headlessly.
func TestRecipeWithPrefixedNames(t *testing.T) {
	work := t.TempDir()
	env := newAgentEnv(t,
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_1", Name: "developer__shell", Arguments: `{"command":"echo recipe-ran > out.txt"}`}}},
		textTurn("done"),
	)
	recipe := filepath.Join(t.TempDir(), "old.yaml")
	body := "title: Old names\ndescription: written for developer__shell\n" +
		"instructions: Use developer__shell to write out.txt.\nprompt: Write the file.\n" +
		"extensions:\n  - type: builtin\n    name: developer\n    available_tools: [shell]\n"
	if err := os.WriteFile(recipe, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runGoose(t, env, work, "", "--recipe", recipe, "-q")
	if r.code != 0 || r.stdout != "done\n" {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(work, "out.txt")); err != nil || string(b) != "recipe-ran\n" {
		t.Fatalf("out.txt = %q, %v", b, err)
	}
	if tools := viewRequest(t, env.LLM.Requests()[0].Body).tools; !slices.Contains(tools, "shell") {
		t.Fatalf("recipe tools = %v", tools)
	}
}
