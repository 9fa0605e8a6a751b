package recipe

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// memConfig is a config.yaml stand-in that round-trips values as JSON.
type memConfig map[string][]byte

func (m memConfig) Decode(key string, out any) error {
	b, ok := m[key]
	if !ok {
		return errors.New("not found")
	}
	return json.Unmarshal(b, out)
}

func (m memConfig) Set(key string, v any) error {
	b, err := json.Marshal(v)
	m[key] = b
	return err
}

func TestLibrary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "recipes")
	cfg := memConfig{}
	lib := &Library{Dir: dir, Config: cfg}
	if all, err := lib.List(); err != nil || len(all) != 0 {
		t.Fatalf("missing dir: %v %v", all, err)
	}
	r, err := FromContent("title: Daily Report!\ndescription: D\nprompt: P\n")
	if err != nil {
		t.Fatal(err)
	}
	path, err := lib.Save(r, "")
	if err != nil || path != filepath.Join(dir, "daily-report.yaml") {
		t.Fatalf("%s %v", path, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.yaml"), []byte("title: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	other, _ := lib.Save(&Recipe{Version: "1.0.0", Title: "Other", Description: "d", Prompt: r.Prompt}, "")
	_ = os.Chtimes(other, old, old)
	all, err := lib.List()
	if err != nil || len(all) != 2 || all[0].FilePath != path || all[0].ID != LibraryID(path) {
		t.Fatalf("list %+v %v", all, err)
	}
	id := all[0].ID
	if err := lib.SetSlashCommand(id, " /daily "); err != nil {
		t.Fatal(err)
	}
	// The same command on another recipe moves there.
	if err := lib.SetSlashCommand(all[1].ID, "daily"); err != nil {
		t.Fatal(err)
	}
	if cmds := lib.SlashCommands(); len(cmds) != 1 || cmds[0] != (SlashCommand{Command: "daily", RecipePath: other}) {
		t.Fatalf("commands %+v", cmds)
	}
	if err := lib.SetSlashCommand(id, "d2"); err != nil {
		t.Fatal(err)
	}
	got, err := lib.Find(id)
	if err != nil || got.SlashCommand == nil || *got.SlashCommand != "d2" {
		t.Fatalf("%+v %v", got, err)
	}
	// Saving over an id keeps its file.
	r.Description = "changed"
	if p, err := lib.Save(r, id); err != nil || p != path {
		t.Fatalf("%s %v", p, err)
	}
	if err := lib.Delete(id); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("file kept")
	}
	if cmds := lib.SlashCommands(); len(cmds) != 1 || cmds[0].Command != "daily" {
		t.Fatalf("delete left %+v", cmds)
	}
	if _, err := lib.Find(id); !errors.Is(err, ErrNotFound) || err.Error() != "Recipe not found: "+id {
		t.Fatal(err)
	}
}

func TestFileName(t *testing.T) {
	for in, want := range map[string]string{"Daily Report!": "daily-report.yaml", " ?? ": "recipe.yaml", "Ünï  cødé": "ünï-cødé.yaml"} {
		if got := FileName(in); got != want {
			t.Errorf("%q → %q", in, got)
		}
	}
}
