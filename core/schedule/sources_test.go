package schedule

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/recipe"
)

func TestCreateFromRecipeKeepsSource(t *testing.T) {
	data := t.TempDir()
	s, err := New(Options{DataDir: data, Runner: newFakeRunner()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := recipe.FromContent("title: Nightly\ndescription: d\nprompt: p\n")
	if err != nil {
		t.Fatal(err)
	}
	job, err := s.CreateFromRecipe("nightly", "0 0 3 * * *", r)
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(data, SourcesDir, "nightly.yaml")
	want, _ := recipe.ToYAML(r)
	if got, err := os.ReadFile(src); err != nil || string(got) != want {
		t.Fatalf("source %q %v", got, err)
	}
	if job.RecipeBaseDir == nil || *job.RecipeBaseDir != filepath.Join(data, SourcesDir) ||
		job.Source != filepath.Join(data, RecipesDir, "nightly.yaml") {
		t.Fatalf("job %+v", job)
	}
	// A duplicate id fails and keeps the first job's source.
	other, _ := recipe.FromContent("title: Other\ndescription: d\nprompt: q\n")
	if _, err := s.CreateFromRecipe("nightly", "0 0 3 * * *", other); !errors.Is(err, ErrJobExists) {
		t.Fatalf("duplicate: %v", err)
	}
	if got, _ := os.ReadFile(src); string(got) != want {
		t.Fatal("duplicate id overwrote the kept source")
	}
	if entries, _ := os.ReadDir(filepath.Join(data, SourcesDir)); len(entries) != 1 {
		t.Fatalf("leftover files: %v", entries)
	}
	for _, id := range []string{"", ".", "..", "a/b"} {
		if _, err := s.CreateFromRecipe(id, "0 0 3 * * *", r); !errors.Is(err, ErrInvalidID) {
			t.Errorf("%q: %v", id, err)
		}
	}
	if err := s.Delete("nightly", true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("source kept after delete: %v", err)
	}
}

func TestSetRecipeSchedule(t *testing.T) {
	data := t.TempDir()
	s, err := New(Options{DataDir: data, Runner: newFakeRunner()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	path := filepath.Join(t.TempDir(), "daily.yaml")
	if err := os.WriteFile(path, []byte("title: D\ndescription: d\nprompt: p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRecipeSchedule("abc", path, ""); err != nil {
		t.Fatalf("detaching a recipe without a job: %v", err)
	}
	if err := s.SetRecipeSchedule("abc", path, "0 0 9 * * *"); err != nil {
		t.Fatal(err)
	}
	if j, err := s.Get("abc"); err != nil || j.Cron != "0 0 9 * * *" || *j.RecipeBaseDir != filepath.Dir(path) {
		t.Fatalf("created %+v %v", j, err)
	}
	if err := s.SetRecipeSchedule("abc", path, "0 0 10 * * *"); err != nil {
		t.Fatal(err)
	}
	if j, _ := s.Get("abc"); j.Cron != "0 0 10 * * *" {
		t.Fatalf("updated cron %q", j.Cron)
	}
	if err := s.SetRecipeSchedule("abc", path, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("abc"); !errors.Is(err, ErrJobNotFound) {
		t.Fatalf("after detach: %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("detaching removed the library file: %v", err)
	}
}
