package plugins

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a git repository with files committed.
func gitRepo(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for rel, content := range files {
		write(t, filepath.Join(dir, filepath.FromSlash(rel)), content)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "c"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

func TestInstallUpdateRemove(t *testing.T) {
	env, _, store := fixture(t)
	repo := filepath.Join(t.TempDir(), "lint-guard.git")
	gitRepo(t, repo, map[string]string{
		"plugin.json":           `{"name":"lint-guard","version":"1.0.0"}`,
		"hooks/hooks.json":      sessionStartHooks,
		"skills/audit/SKILL.md": "---\nname: audit\ndescription: Audit code\n---\nDo an audit.",
		"skills/plain/SKILL.md": "no front matter",
		"scripts/check.sh":      "exit 0\n",
	})
	ctx := context.Background()
	got, err := env.Install(ctx, "file://"+repo, false)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(env.UserDir(), "lint-guard")
	if got.Name != "lint-guard" || got.Version != "1.0.0" || got.Format != FormatOpenPlugins || got.Dir != dir || strings.Join(got.Skills, ",") != "lint-guard:audit,lint-guard:plain" {
		t.Fatalf("installed %+v", got)
	}
	meta, _ := os.ReadFile(filepath.Join(dir, InstallMetadata))
	if want := "{\n  \"source\": \"file://" + repo + "\",\n  \"source_type\": \"git\",\n  \"format\": \"open-plugins\",\n  \"auto_update\": false,\n  \"last_update_check\": null\n}"; string(meta) != want {
		t.Fatalf("install metadata\n%s\nwant\n%s", meta, want)
	}
	skill, _ := os.ReadFile(filepath.Join(dir, "skills/audit/SKILL.md"))
	if string(skill) != "---\nname: lint-guard:audit\ndescription: Audit code\n---\nDo an audit." {
		t.Fatalf("renamed skill = %q", skill)
	}
	plain, _ := os.ReadFile(filepath.Join(dir, "skills/plain/SKILL.md"))
	if string(plain) != "---\nname: lint-guard:plain\n---\nno front matter\n" {
		t.Fatalf("skill without front matter = %q", plain)
	}
	if _, err := env.Install(ctx, repo, false); err == nil || err.Error() != "Plugin 'lint-guard' is already installed at "+dir {
		t.Fatalf("second install: %v", err)
	}

	// A new commit, then update.
	write(t, filepath.Join(repo, "plugin.json"), `{"name":"lint-guard","version":"2.0.0"}`)
	gitRepo(t, repo, nil)
	up, err := env.Update(ctx, "lint-guard")
	if err != nil {
		t.Fatal(err)
	}
	if up.Version != "2.0.0" || up.Dir != dir {
		t.Fatalf("updated %+v", up)
	}
	if m, _ := readManifest(dir); m.Version != "2.0.0" {
		t.Fatalf("the installed manifest is %+v", m)
	}
	var um installMeta
	b, _ := os.ReadFile(filepath.Join(dir, InstallMetadata))
	if json.Unmarshal(b, &um) != nil || um.LastUpdateCheck == nil {
		t.Fatalf("update metadata %s", b)
	}

	// Discovery sees it; remove deletes it and its config.yaml entry.
	if ps, _ := env.Discover(""); names(ps) != "lint-guard/user/active" {
		t.Fatalf("discovered %s", names(ps))
	}
	if _, err := env.Remove("lint-guard"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("plugin dir still there: %v", err)
	}
	if e := store.entries(t); len(e) != 0 {
		t.Fatalf("config.yaml still lists %v", e)
	}
	if _, err := env.Update(ctx, "lint-guard"); err == nil || err.Error() != "Plugin 'lint-guard' is not installed" {
		t.Fatalf("update after remove: %v", err)
	}
}

func TestInstallRefusals(t *testing.T) {
	env, _, _ := fixture(t)
	ctx := context.Background()
	empty := filepath.Join(t.TempDir(), "empty")
	gitRepo(t, empty, map[string]string{"README.md": "nothing"})
	if _, err := env.Install(ctx, empty, false); err == nil || err.Error() != "No supported plugin format found" {
		t.Fatalf("a repo without a plugin: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "Bad_Name")
	gitRepo(t, bad, map[string]string{".mcp.json": `{"mcpServers":{}}`})
	if _, err := env.Install(ctx, bad, false); err == nil || !strings.Contains(err.Error(), "Invalid Open Plugins name 'Bad_Name'") {
		t.Fatalf("an invalid inferred name: %v", err)
	}
	if _, err := env.Install(ctx, filepath.Join(t.TempDir(), "missing"), false); err == nil || !strings.HasPrefix(err.Error(), "Failed to clone plugin repository: ") {
		t.Fatalf("a missing repository: %v", err)
	}
	gem := filepath.Join(t.TempDir(), "gem")
	gitRepo(t, gem, map[string]string{"gemini-extension.json": `{"name":"audit-kit","version":"0.1.0"}`, "skills/audit/SKILL.md": "---\nname: audit\n---\nx"})
	got, err := env.Install(ctx, gem, true)
	if err != nil || got.Format != FormatGemini || got.Name != "audit-kit" || strings.Join(got.Skills, ",") != "audit" {
		t.Fatalf("gemini install: %+v %v", got, err)
	}
}
