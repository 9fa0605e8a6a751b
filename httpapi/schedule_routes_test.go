package httpapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
)

// TestCreateScheduleKeepsRecipeBaseDir: the job's recipe_base_dir is a
// directory that still exists after the request (it was a deleted temp
// dir), holding the posted recipe; a duplicate id leaves it untouched and
// deleting the job removes it.
func TestCreateScheduleKeepsRecipeBaseDir(t *testing.T) {
	var sched *schedule.Scheduler
	e := newTestEnvWith(t, "auto", func(o *Options) {
		var err error
		sched, err = schedule.New(schedule.Options{DataDir: filepath.Join(t.TempDir(), "data"), Runner: testRunner{o.Store.(session.Store)}})
		if err != nil {
			t.Fatal(err)
		}
		o.Scheduler = sched
	})
	t.Cleanup(func() { _ = sched.Close() })
	var job schedule.Job
	e.callJSON("POST", "/schedule/create", map[string]any{"id": "nightly", "recipe": json.RawMessage(testRecipeJSON), "cron": "0 0 2 * * *"}, 200, &job)
	if job.RecipeBaseDir == nil {
		t.Fatal("no recipe_base_dir")
	}
	src := filepath.Join(*job.RecipeBaseDir, "nightly.yaml")
	want, err := os.ReadFile(src)
	if err != nil {
		t.Fatalf("recipe_base_dir source gone: %v", err)
	}
	if copy, err := os.ReadFile(job.Source); err != nil || string(copy) != string(want) {
		t.Fatalf("scheduled copy %q, %v", copy, err)
	}
	other := `{"version":"1.0.0","title":"Other","description":"d","prompt":"p"}`
	if status, body := e.call("POST", "/schedule/create", map[string]any{"id": "nightly", "recipe": json.RawMessage(other), "cron": "0 0 3 * * *"}); status != 409 ||
		body != `{"message":"Job ID 'nightly' already exists."}` {
		t.Fatalf("duplicate: %d %s", status, body)
	}
	if got, _ := os.ReadFile(src); string(got) != string(want) {
		t.Fatal("duplicate id overwrote the kept recipe")
	}
	if entries, _ := os.ReadDir(*job.RecipeBaseDir); len(entries) != 1 {
		t.Fatalf("leftover files: %v", entries)
	}
	if status, body := e.call("DELETE", "/schedule/delete/nightly", nil); status != 204 {
		t.Fatalf("delete: %d %s", status, body)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("source kept after delete: %v", err)
	}
}
