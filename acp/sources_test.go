package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type sourceWire struct {
	Type        string         `json:"type"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Content     string         `json:"content"`
	Path        string         `json:"path"`
	Global      bool           `json:"global"`
	Properties  map[string]any `json:"properties"`
}

func TestUnstableSourcesSkillsOnDisk(t *testing.T) {
	r := newDesktopRig(t, nil)
	home := filepath.Join(r.dir, "home")
	var created struct {
		Source sourceWire `json:"source"`
	}
	mustUnmarshal(t, r.call(t, unstable+"sources/create", map[string]any{"type": "skill", "name": "release-notes",
		"description": "Write release notes", "content": "Read the changelog.", "target": map[string]any{"scope": "global"}}), &created)
	want := filepath.Join(home, ".agents", "skills", "release-notes")
	if created.Source.Path != want || !created.Source.Global {
		t.Fatalf("create: %+v", created.Source)
	}
	md, err := os.ReadFile(filepath.Join(want, "SKILL.md"))
	if err != nil || string(md) != "---\nname: release-notes\ndescription: Write release notes\n---\n\nRead the changelog.\n" {
		t.Fatalf("SKILL.md: %v\n%s", err, md)
	}
	project := t.TempDir()
	r.call(t, unstable+"sources/create", map[string]any{"type": "skill", "name": "lint", "description": "Run the linter",
		"content": "make lint", "target": map[string]any{"scope": "projectDir", "projectDir": project}})

	var list struct {
		Sources []sourceWire `json:"sources"`
	}
	mustUnmarshal(t, r.call(t, unstable+"sources/list", map[string]any{"type": "skill", "projectDir": project}), &list)
	names := map[string]bool{}
	for _, s := range list.Sources {
		names[s.Name] = s.Global
	}
	if g, ok := names["release-notes"]; !ok || !g {
		t.Fatalf("list lacks the global skill: %+v", list.Sources)
	}
	if g, ok := names["lint"]; !ok || g {
		t.Fatalf("list lacks the project skill: %+v", list.Sources)
	}
	var cmds struct {
		AvailableCommands []AvailableCommand `json:"availableCommands"`
	}
	mustUnmarshal(t, r.call(t, unstable+"slash-commands/list", map[string]any{"cwd": project}), &cmds)
	if !hasCommand(cmds.AvailableCommands, "lint") || !hasCommand(cmds.AvailableCommands, "compact") {
		t.Fatalf("slash commands: %+v", cmds.AvailableCommands)
	}

	var updated struct {
		Source sourceWire `json:"source"`
	}
	mustUnmarshal(t, r.call(t, unstable+"sources/update", map[string]any{"type": "skill", "path": want, "name": "changelog",
		"description": "Write the changelog", "content": "New body."}), &updated)
	moved := filepath.Join(home, ".agents", "skills", "changelog")
	if updated.Source.Path != moved {
		t.Fatalf("update: %+v", updated.Source)
	}
	if _, err := os.Stat(want); !os.IsNotExist(err) {
		t.Fatalf("old skill dir still there: %v", err)
	}
	if md, _ := os.ReadFile(filepath.Join(moved, "SKILL.md")); !strings.Contains(string(md), "New body.") {
		t.Fatalf("updated SKILL.md: %s", md)
	}

	var exp struct {
		JSON     string `json:"json"`
		Filename string `json:"filename"`
	}
	mustUnmarshal(t, r.call(t, unstable+"sources/export", map[string]any{"type": "skill", "path": moved}), &exp)
	var imp struct {
		Sources []sourceWire `json:"sources"`
	}
	mustUnmarshal(t, r.call(t, unstable+"sources/import", map[string]any{"data": exp.JSON, "target": map[string]any{"scope": "global"}}), &imp)
	if len(imp.Sources) != 1 || imp.Sources[0].Name != "changelog-imported" || imp.Sources[0].Content != "New body." {
		t.Fatalf("import of a taken name: %+v", imp.Sources)
	}

	r.call(t, unstable+"sources/delete", map[string]any{"type": "skill", "path": moved})
	if _, err := os.Stat(moved); !os.IsNotExist(err) {
		t.Fatalf("skill dir after delete: %v", err)
	}
	for _, bad := range []map[string]any{
		{"type": "skill", "name": "Bad Name", "description": "d", "content": "c", "target": map[string]any{"scope": "global"}},
		{"type": "recipe", "name": "x", "description": "d", "content": "c", "target": map[string]any{"scope": "global"}},
		{"type": "skill", "name": "changelog-imported", "description": "d", "content": "c", "target": map[string]any{"scope": "global"}},
	} {
		if code, _, data := r.callErr(t, unstable+"sources/create", bad); code != -32602 {
			t.Errorf("create %v: %d %s", bad, code, data)
		}
	}
	if code, _, _ := r.callErr(t, unstable+"sources/delete", map[string]any{"type": "skill", "path": r.dir}); code != -32602 {
		t.Errorf("deleting a directory that is not a skill: code %d", code)
	}
	if _, err := os.Stat(r.dir); err != nil {
		t.Fatalf("a refused delete removed something: %v", err)
	}
}

func TestUnstableSourcesProjectsOnDisk(t *testing.T) {
	r := newDesktopRig(t, nil)
	wd := t.TempDir()
	var created struct {
		Source sourceWire `json:"source"`
	}
	mustUnmarshal(t, r.call(t, unstable+"sources/create", map[string]any{"type": "project", "name": "website",
		"description": "The site", "content": "Notes", "target": map[string]any{"scope": "global"},
		"properties": map[string]any{"title": "Web Site", "workingDirs": []any{wd}}}), &created)
	file := filepath.Join(r.dir, "data", "projects", "website.md")
	if created.Source.Path != file || created.Source.Properties["title"] != "Web Site" {
		t.Fatalf("project: %+v", created.Source)
	}
	body, _ := os.ReadFile(file)
	if !strings.HasPrefix(string(body), "---\nname: Web Site\ndescription: The site\nworkingDirs:\n") {
		t.Fatalf("project file:\n%s", body)
	}
	r.call(t, unstable+"sources/create", map[string]any{"type": "skill", "name": "deploy", "description": "d",
		"content": "c", "target": map[string]any{"scope": "projectId", "projectId": "website"}})
	if _, err := os.Stat(filepath.Join(wd, ".agents", "skills", "deploy", "SKILL.md")); err != nil {
		t.Fatalf("skill in the project's working dir: %v", err)
	}
	var list struct {
		Sources []sourceWire `json:"sources"`
	}
	mustUnmarshal(t, r.call(t, unstable+"sources/list", map[string]any{"includeProjectSources": true}), &list)
	var kinds []string
	for _, s := range list.Sources {
		kinds = append(kinds, s.Type+":"+s.Name)
	}
	if got := strings.Join(kinds, ","); got != "skill:deploy,project:website" {
		t.Fatalf("sources: %s", got)
	}
	code, _, data := r.callErr(t, unstable+"sources/update", map[string]any{"type": "project", "path": file, "name": "other",
		"description": "d", "content": "c"})
	if code != -32602 || !strings.Contains(data, "cannot be changed") {
		t.Fatalf("renaming a project: %d %s", code, data)
	}
	r.call(t, unstable+"sources/delete", map[string]any{"type": "project", "path": file})
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("project after delete: %v", err)
	}
}

func TestUnstableAgentMentions(t *testing.T) {
	r := newDesktopRig(t, nil)
	wd := t.TempDir()
	agents := filepath.Join(wd, ".goose", "agents")
	if err := os.MkdirAll(agents, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agents, "reviewer.md"), []byte("---\nname: reviewer\ndescription: Reviews code\n---\nReview carefully."), 0o644); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Agents []agentMention `json:"agents"`
	}
	mustUnmarshal(t, r.call(t, unstable+"agent-mentions/list", map[string]any{"cwd": wd}), &out)
	if len(out.Agents) != 1 || out.Agents[0].Mention != "@reviewer" || out.Agents[0].SourceType != "agent" {
		t.Fatalf("mentions: %+v", out.Agents)
	}
	if code, _, data := r.callErr(t, unstable+"agent-mentions/list", map[string]any{}); code != -32602 || data != `"Either cwd or sessionId is required"` {
		t.Fatalf("no cwd: %d %s", code, data)
	}
	if code, _, _ := r.callErr(t, unstable+"slash-commands/list", map[string]any{"sessionId": "nope"}); code != CodeResourceNotFound {
		t.Fatalf("unknown session: %d", code)
	}
}

func hasCommand(cmds []AvailableCommand, name string) bool {
	for _, c := range cmds {
		if c.Name == name {
			return true
		}
	}
	return false
}
