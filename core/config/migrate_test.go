package config

import (
	"os"
	"testing"
)

// testPlatform mirrors goose's developer/todo/chatrecall definitions.
var testPlatform = []PlatformExtension{
	{Name: "developer", DisplayName: "Developer", Description: "Write and edit files, and execute shell commands", DefaultEnabled: true},
	{Name: "todo", DisplayName: "Todo", Description: "Enable a todo list for goose so it can keep track of what it is doing", DefaultEnabled: true},
	{Name: "chatrecall", DisplayName: "Chat Recall", Description: "Search past conversations and load session summaries for contextual memory"},
}

func (e *testEnv) openPlatform(t *testing.T) *Config {
	t.Helper()
	c, err := Open(Options{Paths: e.paths, Getenv: envMap(e.env), SystemFile: e.system, PlatformExtensions: testPlatform})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPlatformMigrationOnRead(t *testing.T) {
	tests := []struct {
		name string
		file string
		// want: key → "type enabled"
		want map[string]string
	}{
		{"empty config gets every platform extension with its default", "",
			map[string]string{"developer": "platform true", "todo": "platform true", "chatrecall": "platform false"}},
		{"stale entry keeps the user's enabled flag", "extensions:\n  todo:\n    enabled: false\n    type: platform\n    name: todo\n    description: old\n    display_name: Old\n",
			map[string]string{"developer": "platform true", "todo": "platform false", "chatrecall": "platform false"}},
		{"builtin entry stays builtin", "extensions:\n  developer:\n    enabled: false\n    type: builtin\n    name: developer\n    description: ''\n",
			map[string]string{"developer": "builtin false", "todo": "platform true", "chatrecall": "platform false"}},
		{"entry of another type is replaced, enabled kept", "extensions:\n  chatrecall:\n    enabled: true\n    type: stdio\n    name: chatrecall\n    description: x\n    cmd: evil\n    args: []\n",
			map[string]string{"developer": "platform true", "todo": "platform true", "chatrecall": "platform true"}},
		{"unparsable entry is replaced with the default", "extensions:\n  todo: 7\n",
			map[string]string{"developer": "platform true", "todo": "platform true", "chatrecall": "platform false"}},
		{"non-map extensions value is replaced", "extensions: nope\n",
			map[string]string{"developer": "platform true", "todo": "platform true", "chatrecall": "platform false"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			if tt.file != "" {
				writeAll(t, e.paths.ConfigFile(), tt.file)
			}
			c := e.openPlatform(t)
			exts, errs := c.Extensions()
			if len(errs) != 0 {
				t.Fatal(errs)
			}
			if len(exts) != len(tt.want) {
				t.Fatalf("got %d entries: %+v", len(exts), exts)
			}
			for key, want := range tt.want {
				got := exts[key]
				if s := string(got.Config.Type) + " " + map[bool]string{true: "true", false: "false"}[got.Enabled]; s != want {
					t.Errorf("%s = %s, want %s", key, s, want)
				}
				if got.Config.Bundled == nil || !*got.Config.Bundled || got.Config.Name != key {
					t.Errorf("%s: bundled/name = %v/%q", key, got.Config.Bundled, got.Config.Name)
				}
			}
			if tt.file == "" {
				// Reads migrate in memory only, as goose's run_read_migrations.
				if _, err := os.Stat(e.paths.ConfigFile()); !os.IsNotExist(err) {
					t.Fatal("a read created config.yaml")
				}
			}
		})
	}
}

func TestPlatformMigrationUpToDateEntryUntouched(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), "extensions:\n  developer:\n    enabled: false\n    type: platform\n    name: developer\n    description: Write and edit files, and execute shell commands\n    display_name: Developer\n    available_tools: [shell]\n")
	got, err := e.openPlatform(t).Extension("developer")
	if err != nil {
		t.Fatal(err)
	}
	if got.Enabled || len(got.Config.AvailableTools) != 1 || got.Config.Bundled != nil {
		t.Fatalf("up-to-date entry rewritten: %+v", got)
	}
}

func TestPlatformMigrationOnWrite(t *testing.T) {
	e := newTestEnv(t)
	writeAll(t, e.paths.ConfigFile(), "# mine\nGOOSE_PROVIDER: openai # keep\nextensions:\n  todo:\n    enabled: false\n    type: platform\n    name: todo\n    description: old\n")
	c := e.openPlatform(t)
	if err := c.Set("GOOSE_MODEL", "gpt-4o"); err != nil {
		t.Fatal(err)
	}
	want := `# mine
GOOSE_PROVIDER: openai # keep
extensions:
  todo:
    enabled: false
    type: platform
    name: todo
    description: Enable a todo list for goose so it can keep track of what it is doing
    display_name: Todo
    bundled: true
  developer:
    enabled: true
    type: platform
    name: developer
    description: Write and edit files, and execute shell commands
    display_name: Developer
    bundled: true
  chatrecall:
    enabled: false
    type: platform
    name: chatrecall
    description: Search past conversations and load session summaries for contextual memory
    display_name: Chat Recall
    bundled: true
GOOSE_MODEL: gpt-4o
`
	if got := readString(t, e.paths.ConfigFile()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Idempotent: another write changes only its own key.
	if err := c.Set("GOOSE_MODEL", "gpt-4o"); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, e.paths.ConfigFile()); got != want {
		t.Fatalf("second write changed the file:\n%s", got)
	}
}

func TestNoPlatformMigrationWithoutDefinitions(t *testing.T) {
	e := newTestEnv(t)
	c := e.open(t)
	if err := c.Set("GOOSE_MODEL", "m"); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, e.paths.ConfigFile()); got != "GOOSE_MODEL: m\n" {
		t.Fatalf("got %q", got)
	}
	if exts, _ := c.Extensions(); len(exts) != 0 {
		t.Fatalf("extensions = %+v", exts)
	}
}
