package platform

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

var update = flag.Bool("update", false, "rewrite golden files")

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func skillMD(name, desc, body string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\n" + body + "\n"
}

// skillTree builds a project (wd) and a home with skills in goose's
// directories: a project skill shadowing a global one of the same name, a
// supporting file, a skill in a .gooseignore'd directory, enabled and
// disabled plugins, and files that are not skills.
func skillTree(t *testing.T) (wd, home, cfgDir string, plugins []string) {
	t.Helper()
	root := t.TempDir()
	wd, home = filepath.Join(root, "proj"), filepath.Join(root, "home")
	cfgDir = filepath.Join(home, ".config", "goose")
	writeFile(t, filepath.Join(wd, ".agents/skills/review/SKILL.md"), skillMD("review", "Project review rules", "Review $ARGUMENTS carefully."))
	writeFile(t, filepath.Join(wd, ".claude/skills/deploy/SKILL.md"), skillMD("deploy", "Deploy things", "Deploy $1 to $2."))
	writeFile(t, filepath.Join(wd, ".claude/skills/deploy/scripts/run.sh"), "echo deploy\n")
	writeFile(t, filepath.Join(wd, ".goose/skills/secret-skill/SKILL.md"), skillMD("secret-skill", "Must stay hidden", "hidden"))
	writeFile(t, filepath.Join(wd, ".gooseignore"), "secret-skill/\n")
	writeFile(t, filepath.Join(wd, ".agents/skills/noname/SKILL.md"), "---\ndescription: no name\n---\nbody")
	writeFile(t, filepath.Join(wd, ".agents/skills/plain/SKILL.md"), "no front matter")
	writeFile(t, filepath.Join(home, ".agents/skills/review/SKILL.md"), skillMD("review", "Global review rules", "global body"))
	writeFile(t, filepath.Join(cfgDir, "skills/migrate/SKILL.md"),
		"---\nname: migrate\ndescription: Migrate a component\nmetadata:\n  argument-hint: <component> <from> <to>\n  arguments: [component, from, to]\n---\nMigrate $component from $from to $to.\n")
	writeFile(t, filepath.Join(home, ".claude/skills/static/SKILL.md"), skillMD("static", "No placeholders", "Just static instructions."))
	on, off := filepath.Join(wd, ".agents/plugins/on"), filepath.Join(wd, ".agents/plugins/off")
	writeFile(t, filepath.Join(on, "skills/plugged/SKILL.md"), skillMD("plugged", "From an enabled plugin", "plugged body"))
	writeFile(t, filepath.Join(on, "plugin.json"), `{"name":"on","skills":{"paths":["./skills","./extra"]}}`)
	writeFile(t, filepath.Join(on, "extra/extra-skill/SKILL.md"), skillMD("extra-skill", "From plugin.json paths", "extra body"))
	writeFile(t, filepath.Join(off, "skills/unplugged/SKILL.md"), skillMD("unplugged", "From a disabled plugin", "nope"))
	// core/plugins finds the enabled plugin's skill directories.
	return wd, home, cfgDir, []string{filepath.Join(on, "skills"), filepath.Join(on, "extra")}
}

func TestDiscoverSkills(t *testing.T) {
	wd, home, cfgDir, plugins := skillTree(t)
	skills := DiscoverSkills(SkillDirs{WorkingDir: wd, Home: home, ConfigDir: cfgDir, ProjectPluginSkills: plugins})
	var names []string
	byName := map[string]Skill{}
	for _, s := range skills {
		names = append(names, s.Name)
		byName[s.Name] = s
	}
	if got := strings.Join(names, ","); got != "review,deploy,plugged,extra-skill,migrate,static" {
		t.Fatalf("skills in discovery order = %s", got)
	}
	if r := byName["review"]; r.Description != "Project review rules" || r.Global {
		t.Fatalf("project skill must shadow the global one: %+v", r)
	}
	if s := byName["static"]; !s.Global {
		t.Fatalf("~/.claude/skills is global: %+v", s)
	}
	d := byName["deploy"]
	if len(d.SupportingFiles) != 1 || filepath.Base(d.SupportingFiles[0]) != "run.sh" {
		t.Fatalf("deploy supporting files = %v", d.SupportingFiles)
	}
	if got := byName["migrate"].ArgumentNames(); strings.Join(got, " ") != "component from to" || byName["migrate"].ArgumentHint() != "<component> <from> <to>" {
		t.Fatalf("migrate metadata = %v %q", got, byName["migrate"].ArgumentHint())
	}
}

func TestSkillsInstructionsGolden(t *testing.T) {
	wd, home, cfgDir, plugins := skillTree(t)
	got := SkillsInstructions(DiscoverSkills(SkillDirs{WorkingDir: wd, Home: home, ConfigDir: cfgDir, ProjectPluginSkills: plugins}))
	golden := filepath.Join("testdata", "skills_instructions.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("instructions:\n%q\nwant\n%q", got, want)
	}
	if SkillsInstructions(nil) != "" {
		t.Fatal("no skills must inject nothing")
	}
}

func TestLoadSkill(t *testing.T) {
	wd, home, cfgDir, plugins := skillTree(t)
	skills := DiscoverSkills(SkillDirs{WorkingDir: wd, Home: home, ConfigDir: cfgDir, ProjectPluginSkills: plugins})
	str := func(s string) *string { return &s }
	deployDir := filepath.Join(wd, ".claude/skills/deploy")
	if real, err := filepath.EvalSymlinks(deployDir); err == nil {
		deployDir = real
	}
	cases := []struct {
		name string
		args *string
		ok   bool
		want string
	}{
		{"review", nil, true, "# Loaded Skill: review (skill)\n\nProject review rules\n\n## Content\n\nReview $ARGUMENTS carefully.\n"},
		{"review", str(`src/foo.rs --strict`), true, "# Loaded Skill: review (skill)\n\nProject review rules\n\n## Content\n\nReview src/foo.rs --strict carefully.\n"},
		{"deploy", str(`"my app" staging`), true, "# Loaded Skill: deploy (skill)\n\nDeploy things\n\n## Content\n\nDeploy my app to staging.\n" +
			"\n## Supporting Files\n\nSkill directory: " + deployDir + "\n\nRelative paths in this skill resolve from the skill directory. The shell tool runs in the session working directory, so use the resolved path below or `cd` into the skill directory before running supporting scripts.\n\n" +
			"- scripts/run.sh → " + filepath.ToSlash(filepath.Join(deployDir, "scripts/run.sh")) + " (load_skill(name: \"deploy/scripts/run.sh\"))\n"},
		{"migrate", str("Button old-lib new-lib"), true, "# Loaded Skill: migrate (skill)\n\nMigrate a component\n\n## Content\n\nMigrate Button from old-lib to new-lib.\n"},
		{"static", str("src/foo.rs"), true, "# Loaded Skill: static (skill)\n\nNo placeholders\n\n## Content\n\nJust static instructions.\n\nARGUMENTS: src/foo.rs\n"},
		{"deploy", str(`"unterminated`), false, "Failed to parse skill arguments: unclosed quote in arguments: \"unterminated"},
		{"deploy/scripts/run.sh", nil, true, "echo deploy\n"},
		{"deploy/missing.md", nil, false, "File 'deploy/missing.md' not found. Available: scripts/run.sh"},
		{"review/x.md", nil, false, "Skill 'review' has no supporting files."},
		{"nosuch", nil, false, "Skill 'nosuch' not found."},
		{"dep", nil, false, "Skill 'dep' not found. Did you mean: deploy?"},
		{"secret-skill", nil, false, "Skill 'secret-skill' not found."},
		{"unplugged", nil, false, "Skill 'unplugged' not found. Did you mean: plugged?"},
	}
	for _, c := range cases {
		got, ok := LoadSkill(skills, c.name, c.args)
		if ok != c.ok || got != c.want {
			t.Errorf("load_skill(%q, %v) = %v\n%q\nwant %v\n%q", c.name, c.args, ok, got, c.ok, c.want)
		}
	}
}

func TestApplySkillArguments(t *testing.T) {
	names := []string{"first", "second"}
	cases := []struct{ body, raw, want string }{
		{"Run $ARGUMENTS now.", "alpha beta", "Run alpha beta now."},
		{"first=$1, second=$2, third=$3", "alpha beta gamma", "first=alpha, second=beta, third=gamma"},
		{"[$5]", "only-one", "[]"},
		{"a=$ARGUMENTS[0], b=$ARGUMENTS[1]", "one two", "a=one, b=two"},
		{"[$ARGUMENTS[9]]", "one two", "[]"},
		{"Hello $first $missing", "Andy", "Hello Andy $missing"},
		{"[$first][$second]", "only", "[only][]"},
		{"raw=$ARGUMENTS pos=$1", `"hello world" tail`, `raw="hello world" tail pos=hello world`},
		{"Just $missing here.", "src/foo.rs", "Just $missing here.\n\nARGUMENTS: src/foo.rs"},
		{"$ARGUMENTS[abc]", "x y", "x y[abc]"},
		{"Path: $first", `"C:\path\"`, `Path: C:\path\`},
		{"$1$2", "alpha beta", "alphabeta"},
		{"Run $ARGUMENTS done.", "", "Run  done."},
		{"Just instructions.", "", "Just instructions.\n\nARGUMENTS: "},
		{"no placeholders", `"unterminated`, "no placeholders\n\nARGUMENTS: \"unterminated"},
	}
	for _, c := range cases {
		got, err := ApplySkillArguments(c.body, c.raw, names)
		if err != nil || got != c.want {
			t.Errorf("ApplySkillArguments(%q, %q) = %q, %v; want %q", c.body, c.raw, got, err, c.want)
		}
	}
}

func TestSkillsExtension(t *testing.T) {
	wd, home, cfgDir, _ := skillTree(t)
	ctx := context.Background()
	store := memory.New(nil)
	sess, err := store.Create(ctx, session.NewSession{WorkingDir: wd, SessionType: session.TypeUser})
	if err != nil {
		t.Fatal(err)
	}
	deps := Deps{Store: store, Home: home, ConfigDir: cfgDir}
	m := extension.New(extension.Options{SessionID: sess.ID, WorkingDir: wd, Platforms: Defaults(deps)})
	t.Cleanup(func() { _ = m.Close() })
	if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: Skills}); err != nil {
		t.Fatal(err)
	}
	tools := m.Tools(ctx)
	if len(tools) != 1 || tools[0].Name != "load_skill" || tools[0].Description != loadSkillDescription {
		t.Fatalf("tools = %+v", tools)
	}
	if got := string(tools[0].InputSchema); !strings.Contains(got, `"required":["name"]`) {
		t.Fatalf("schema = %s", got)
	}
	infos := m.Extensions()
	if len(infos) != 1 || !strings.HasPrefix(infos[0].Instructions, skillsHeader+"\n• deploy - Deploy things") {
		t.Fatalf("instructions = %+v", infos)
	}
	res, err := m.Call(ctx, "c1", "load_skill", map[string]any{"name": "deploy/scripts/run.sh"})
	if err != nil || res.IsError || res.Content[0].Text != "echo deploy\n" {
		t.Fatalf("supporting file: %v %+v", err, res)
	}
	res, _ = m.Call(ctx, "c2", "load_skill", map[string]any{})
	if !res.IsError || res.Content[0].Text != "Missing required parameter: name" {
		t.Fatalf("missing name: %+v", res)
	}
}

func TestSupportingFileMustStayInTheSkill(t *testing.T) {
	wd := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	writeFile(t, outside, "API_KEY=sk-123")
	writeFile(t, filepath.Join(wd, ".agents/skills/leaky/SKILL.md"), skillMD("leaky", "d", "body"))
	if err := os.Symlink(outside, filepath.Join(wd, ".agents/skills/leaky/env.txt")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	skills := DiscoverSkills(SkillDirs{WorkingDir: wd})
	got, ok := LoadSkill(skills, "leaky/env.txt", nil)
	if ok || got != "Failed to read 'leaky/env.txt': the file resolves outside the skill directory" {
		t.Fatalf("load through a symlink = %v %q", ok, got)
	}
}

func TestSkillWalkSurvivesSymlinkCycles(t *testing.T) {
	wd := t.TempDir()
	dir := filepath.Join(wd, ".agents/skills/loop")
	writeFile(t, filepath.Join(dir, "SKILL.md"), skillMD("loop", "d", "body"))
	if err := os.Symlink(dir, filepath.Join(dir, "again")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	skills := DiscoverSkills(SkillDirs{WorkingDir: wd})
	if len(skills) != 1 || skills[0].Name != "loop" {
		t.Fatalf("skills = %+v", skills)
	}
}
