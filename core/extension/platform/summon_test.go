package platform

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

func recipeYAML(title, desc string) string {
	return "version: 1.0.0\ntitle: " + title + "\ndescription: " + desc + "\ninstructions: Do " + title + " things.\nprompt: go\n"
}

// sourceTree has a sub-recipe, project and global recipes, agents in
// goose's directories, a shadowed name and files that are not sources.
func sourceTree(t *testing.T) (SourceDirs, string) {
	t.Helper()
	root := t.TempDir()
	wd, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
	cfg := filepath.Join(home, ".config", "goose")
	writeFile(t, filepath.Join(wd, "deploy.yaml"), recipeYAML("deploy", "Deploy the app"))
	writeFile(t, filepath.Join(wd, "package.json"), `{"name":"not-a-recipe"}`)
	writeFile(t, filepath.Join(wd, ".goose/recipes/lint.yaml"), recipeYAML("lint", "Lint the code"))
	writeFile(t, filepath.Join(wd, ".claude/agents/reviewer.md"), "---\nname: reviewer\nmodel: sonnet\n---\nYou review code.")
	writeFile(t, filepath.Join(wd, ".claude/agents/notes.md"), "---\ntitle: Notes\n---\nNot an agent.")
	writeFile(t, filepath.Join(home, ".agents/agents/reviewer.md"), "---\nname: reviewer\ndescription: global reviewer\n---\nshadowed")
	writeFile(t, filepath.Join(cfg, "recipes/release.yaml"), recipeYAML("release", strings.Repeat("x", 200)))
	sub := filepath.Join(wd, "sub/summarise.yaml")
	writeFile(t, sub, "version: 1.0.0\ntitle: Summarise\ndescription: Summarise a topic\ninstructions: You summarise.\nparameters:\n  - key: topic\n    input_type: string\n    requirement: required\n    description: What to summarise\n")
	return SourceDirs{WorkingDir: wd, Home: home, ConfigDir: cfg, SubRecipes: []recipe.SubRecipe{{Name: "summarise", Path: sub}}}, wd
}

func TestDiscoverSources(t *testing.T) {
	dirs, _ := sourceTree(t)
	var got []string
	for _, s := range DiscoverSources(dirs) {
		got = append(got, s.Kind+":"+s.Name+"="+s.Description)
	}
	want := []string{
		"subrecipe:summarise=Summarise a topic\nParameters:\n  - topic (string, required): What to summarise",
		"recipe:deploy=Deploy the app",
		"recipe:lint=Lint the code",
		"recipe:release=" + strings.Repeat("x", 200),
		"agent:reviewer=Agent (sonnet)",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("sources:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLoadListsAndLoadsSources(t *testing.T) {
	dirs, _ := sourceTree(t)
	sources := DiscoverSources(dirs)
	list := ListSources(sources)
	want := "Available sources for load/delegate:\n\nSubrecipes:\n• summarise - Summarise a topic\nParameters:\n  - topic (string, required): What to summarise\n" +
		"\nRecipes:\n• deploy - Deploy the app\n• lint - Lint the code\n• release - " + strings.Repeat("x", 157) + "...\n" +
		"\nAgents:\n• reviewer - Agent (sonnet)\n" +
		"\nUse load(source: \"name\") to load into context.\nUse delegate(source: \"name\") to run as subagent."
	if list != want {
		t.Fatalf("list:\n%q\nwant\n%q", list, want)
	}
	text, err := LoadSource(sources, "reviewer")
	if err != nil || text != "# Loaded: reviewer (agent)\n\nYou review code.\n\n---\nThis knowledge is now available in your context." {
		t.Fatalf("load reviewer = %q %v", text, err)
	}
	text, err = LoadSource(sources, "summarise")
	if err != nil || !strings.HasPrefix(text, "# Loaded: summarise (subrecipe)\n\nYou summarise.\n\nParameters:\n  - topic (string, required): What to summarise") {
		t.Fatalf("load summarise = %q %v", text, err)
	}
	if _, err := LoadSource(sources, "rev"); err == nil || err.Error() != "Source 'rev' not found. Did you mean: reviewer?" {
		t.Fatalf("did you mean: %v", err)
	}
	if _, err := LoadSource(sources, "zzz"); err == nil || err.Error() != "Source 'zzz' not found. Use load() to see available sources." {
		t.Fatalf("not found: %v", err)
	}
	if got := ListSources(nil); !strings.HasPrefix(got, "No sources available for load/delegate.") {
		t.Fatalf("empty list = %q", got)
	}
}

func TestSummonInstructions(t *testing.T) {
	dirs, _ := sourceTree(t)
	got := SummonInstructions(DiscoverSources(dirs))
	for _, want := range []string{
		"\n\nThe following named subagents are available in this session and can be invoked through the `delegate` tool (run as a subagent) or the `load` tool (read their instructions into your own context):\n",
		"\nSubrecipes:\n• summarise — Summarise a topic",
		"\nAgents:\n• reviewer — Agent (sonnet)",
		"When to call a subagent (one of [summarise, deploy, lint, release, reviewer]):\n• `@<name>` in the user's message — always call that subagent.",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("instructions lack %q:\n%s", want, got)
		}
	}
	if SummonInstructions(nil) != "" {
		t.Fatal("no sources must inject nothing")
	}
}

func TestSummonExtensionHidesDelegateInSubagents(t *testing.T) {
	ctx := context.Background()
	store := memory.New(nil)
	for _, typ := range []session.Type{session.TypeUser, session.TypeSubAgent} {
		sess, err := store.Create(ctx, session.NewSession{WorkingDir: t.TempDir(), SessionType: typ})
		if err != nil {
			t.Fatal(err)
		}
		m := extension.New(extension.Options{SessionID: sess.ID, WorkingDir: sess.WorkingDir, Platforms: Defaults(Deps{Store: store})})
		if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: Summon}); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range m.Tools(ctx) {
			names = append(names, tool.Name)
		}
		want := "delegate,load"
		if typ == session.TypeSubAgent {
			want = "load"
		}
		if strings.Join(names, ",") != want {
			t.Errorf("%s tools = %v", typ, names)
		}
		if typ == session.TypeUser {
			res, err := m.Call(ctx, "c", "delegate", map[string]any{"instructions": "x"})
			if err != nil || !res.IsError || res.Content[0].Text != "Error: "+ErrNoAgent.Error() {
				t.Errorf("delegate without an agent = %+v %v", res, err)
			}
			res, _ = m.Call(ctx, "c2", "delegate", map[string]any{})
			if res.Content[0].Text != "Error: Must provide 'instructions' or 'source' (or both)" {
				t.Errorf("delegate without instructions = %+v", res)
			}
		}
		_ = m.Close()
	}
}

func TestUnavailableExtensionsSayWhy(t *testing.T) {
	ctx := context.Background()
	m := extension.New(extension.Options{SessionID: "s", Platforms: Defaults(Deps{})})
	t.Cleanup(func() { _ = m.Close() })
	for _, name := range []string{Apps, CodeExecution} {
		if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	for tool, want := range map[string]string{
		"apps__create_app":                   "Error: Apps are not available in goose-acp: needs goose Desktop",
		"code_execution__execute_typescript": "Error: Code Mode is not available in goose-acp: needs goose's embedded TypeScript runtime",
	} {
		res, err := m.Call(ctx, "c", tool, map[string]any{})
		if err != nil || !res.IsError || !strings.HasPrefix(res.Content[0].Text, want) {
			t.Errorf("%s = %+v %v", tool, res, err)
		}
	}
	for _, name := range []string{Apps, CodeExecution, Summarize, ChatRecall, Todo} {
		if DefaultEnabled(name) {
			t.Errorf("%s must be off by default", name)
		}
	}
	for _, name := range []string{Skills, Summon, ExtensionManager, Tom} {
		if !DefaultEnabled(name) {
			t.Errorf("%s must be on by default", name)
		}
	}
}

// The agent hands summon the session's type (Deps.SessionType): it is
// used as given, with no store lookup at each session's start.
func TestSummonUsesTheSessionTypeItIsGiven(t *testing.T) {
	ctx := context.Background()
	store := memory.New(nil)
	sess, err := store.Create(ctx, session.NewSession{WorkingDir: t.TempDir(), SessionType: session.TypeUser})
	if err != nil {
		t.Fatal(err)
	}
	m := extension.New(extension.Options{SessionID: sess.ID, WorkingDir: sess.WorkingDir,
		Platforms: Defaults(Deps{Store: store, SessionType: session.TypeSubAgent})})
	defer m.Close()
	if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: Summon}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range m.Tools(ctx) {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "load" {
		t.Errorf("tools = %v, want only load (a subagent's)", names)
	}
}
