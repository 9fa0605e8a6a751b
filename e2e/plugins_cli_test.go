package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
)

// goosePlugin runs `goose-acp plugin args…` in dir.
func goosePlugin(t *testing.T, env *agentEnv, dir string, args ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"plugin"}, args...)...)
	cmd.Env, cmd.Dir = env.environ(), dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	if ctx.Err() != nil || (err != nil && !errors.As(err, &exitErr)) {
		t.Fatalf("goose-acp plugin %v: %v\nstderr:\n%s", args, err, errOut.String())
	}
	return runResult{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errOut.String()}
}

// gitCommit makes dir a git repository (once) and commits files.
func gitCommit(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	writePlugin(t, dir, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=e2e@example.invalid", "-c", "user.name=e2e", "commit", "-q", "-m", "plugin"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestPluginInstallListUpdateRemove: goose-acp plugin install of a local
// git repository installs the plugin (goose's output, metadata and skill
// names), the next session runs its hook and offers its skill, update
// takes a new commit, and remove deletes it.
func TestPluginInstallListUpdateRemove(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "audit-hooks")
	gitCommit(t, repo, map[string]string{
		"plugin.json":           `{"name":"audit-hooks","version":"1.0.0","description":"Audits prompts"}`,
		"hooks/hooks.json":      hooksJSON(map[string][2]string{"UserPromptSubmit": {"", recordTo("prompt.log")}}),
		"skills/audit/SKILL.md": "---\nname: audit\ndescription: Audit the change\n---\nAudit it.\n",
	})
	work := t.TempDir()
	env := newAgentEnv(t, textTurn("ok"))
	dest := filepath.Join(env.Root, ".agents", "plugins", "audit-hooks")

	r := goosePlugin(t, env, work, "install", repo)
	want := "✓ Installed open-plugins plugin 'audit-hooks' (1.0.0)\n  Source: " + repo + "\n  Location: " + dest + "\n  Imported skills:\n    - audit-hooks:audit\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("install: exit %d\nstdout %q\nwant   %q\nstderr %s", r.code, r.stdout, want, r.stderr)
	}
	meta, err := os.ReadFile(filepath.Join(dest, ".goose-plugin-install.json"))
	if err != nil || !strings.HasPrefix(string(meta), "{\n  \"source\": \""+repo+"\",\n  \"source_type\": \"git\",\n  \"format\": \"open-plugins\",\n  \"auto_update\": false,") {
		t.Fatalf("install metadata: %v\n%s", err, meta)
	}
	if r := goosePlugin(t, env, work, "install", repo); r.code != 1 || r.stderr != "Error: Plugin 'audit-hooks' is already installed at "+dest+"\n" {
		t.Fatalf("second install: exit %d %q", r.code, r.stderr)
	}
	r = goosePlugin(t, env, work, "list")
	if r.code != 0 || !strings.Contains(r.stdout, "audit-hooks  user   enabled  1.0.0    "+dest) {
		t.Fatalf("list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	if resp := c.prompt(sess.SessionID, "check this"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	c.close()
	if got := payloads(filepath.Join(dest, "prompt.log")); len(got) != 1 {
		t.Fatalf("the installed plugin's hook ran %d times", len(got))
	}
	if !llmSaw(env, "• audit-hooks:audit - Audit the change") {
		t.Fatal("the installed plugin's skill is not offered under its plugin name")
	}

	gitCommit(t, repo, map[string]string{"plugin.json": `{"name":"audit-hooks","version":"2.0.0"}`})
	r = goosePlugin(t, env, work, "update", "audit-hooks")
	if want := "✓ Updated open-plugins plugin 'audit-hooks' (2.0.0)\n  Source: " + repo + "\n  Location: " + dest + "\n  Imported skills:\n    - audit-hooks:audit\n"; r.code != 0 || r.stdout != want {
		t.Fatalf("update: exit %d\n%q\n%s", r.code, r.stdout, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dest, "plugin.json")); !strings.Contains(string(b), `"2.0.0"`) {
		t.Fatalf("updated manifest: %s", b)
	}

	r = goosePlugin(t, env, work, "remove", "audit-hooks")
	if r.code != 0 || r.stdout != "✓ Removed plugin 'audit-hooks' from "+dest+"\n" {
		t.Fatalf("remove: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Fatalf("plugin dir after remove: %v", err)
	}
	if r := goosePlugin(t, env, work, "list"); r.stdout != "No plugins found.\n" {
		t.Fatalf("list after remove: %q", r.stdout)
	}
	if r := goosePlugin(t, env, work, "update", "audit-hooks"); r.code != 1 || r.stderr != "Error: Plugin 'audit-hooks' is not installed\n" {
		t.Fatalf("update after remove: exit %d %q", r.code, r.stderr)
	}
}
