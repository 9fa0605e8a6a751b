package acp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
)

var testRecipe = map[string]any{"version": "1.0.0", "title": "Daily report", "description": "Summarise the day",
	"prompt": "Write the report", "parameters": []any{map[string]any{"key": "team", "input_type": "string",
		"requirement": "required", "description": "which team"}}}

// blockingRunner is a schedule runner whose runs wait for release (or a
// kill) and create a scheduled session in the store.
type blockingRunner struct {
	store   session.Store
	sched   *schedule.Scheduler
	started chan string
	release chan struct{}
}

func (b *blockingRunner) RunRecipe(ctx context.Context, job schedule.Job, _ string) (string, error) {
	s, err := b.store.Create(ctx, session.NewSession{WorkingDir: "/tmp", Name: schedule.SessionName(job.ID), SessionType: session.TypeScheduled})
	if err != nil {
		return "", err
	}
	sid := job.ID
	if err := b.store.Update(ctx, s.ID, session.Update{ScheduleID: &sid}); err != nil {
		return "", err
	}
	if err := b.sched.SetCurrentSession(job.ID, s.ID); err != nil {
		return "", err
	}
	b.started <- s.ID
	select {
	case <-b.release:
		return s.ID, nil
	case <-ctx.Done():
		return s.ID, ctx.Err()
	}
}

func newRecipeRig(t *testing.T, withScheduler bool) (*desktopRig, *recipe.Library, *blockingRunner, string) {
	t.Helper()
	lib := &recipe.Library{Dir: filepath.Join(t.TempDir(), "recipes"), Config: memYAML{}}
	dataDir := t.TempDir()
	var runner *blockingRunner
	var sched *schedule.Scheduler
	r := newDesktopRig(t, func(o *Options) {
		o.Recipes = lib
		if withScheduler {
			runner = &blockingRunner{store: o.Store.(session.Store), started: make(chan string, 1), release: make(chan struct{})}
			var err error
			if sched, err = schedule.New(schedule.Options{DataDir: dataDir, Runner: runner}); err != nil {
				t.Fatal(err)
			}
			runner.sched = sched
			t.Cleanup(func() { _ = sched.Close() })
			o.Scheduler = sched
		}
	})
	return r, lib, runner, dataDir
}

func TestUnstableRecipesLibraryOnDisk(t *testing.T) {
	r, lib, _, _ := newRecipeRig(t, true)
	var saved struct {
		ID       string `json:"id"`
		FileName string `json:"file_name"`
		FilePath string `json:"file_path"`
	}
	mustUnmarshal(t, r.call(t, unstable+"recipes/save", map[string]any{"recipe": testRecipe}), &saved)
	body, err := os.ReadFile(saved.FilePath)
	if err != nil || filepath.Dir(saved.FilePath) != lib.Dir || !strings.Contains(string(body), "title: Daily report") {
		t.Fatalf("saved file %s: %v\n%s", saved.FilePath, err, body)
	}
	if saved.ID != recipe.LibraryID(saved.FilePath) || saved.FileName != filepath.Base(saved.FilePath) {
		t.Fatalf("save answer: %+v", saved)
	}

	r.call(t, unstable+"recipes/slash-command", map[string]any{"id": saved.ID, "slash_command": "report"})
	r.call(t, unstable+"recipes/schedule", map[string]any{"id": saved.ID, "cron_schedule": "0 0 9 * * *"})
	var list struct {
		Recipes []struct {
			ID           string         `json:"id"`
			Recipe       map[string]any `json:"recipe"`
			ScheduleCron *string        `json:"schedule_cron"`
			SlashCommand *string        `json:"slash_command"`
		} `json:"recipes"`
	}
	mustUnmarshal(t, r.call(t, unstable+"recipes/list", map[string]any{}), &list)
	if len(list.Recipes) != 1 || list.Recipes[0].ID != saved.ID || list.Recipes[0].Recipe["title"] != "Daily report" ||
		list.Recipes[0].ScheduleCron == nil || list.Recipes[0].SlashCommand == nil || *list.Recipes[0].SlashCommand != "report" {
		t.Fatalf("recipes/list: %+v", list.Recipes)
	}

	r.call(t, unstable+"recipes/schedule", map[string]any{"id": saved.ID, "cron_schedule": nil})
	r.call(t, unstable+"recipes/delete", map[string]any{"id": saved.ID})
	if _, err := os.Stat(saved.FilePath); !os.IsNotExist(err) {
		t.Fatalf("recipe file after delete: %v", err)
	}
	code, _, data := r.callErr(t, unstable+"recipes/delete", map[string]any{"id": saved.ID})
	if code != -32602 || data != `"recipe not found: `+saved.ID+`"` {
		t.Fatalf("deleting again: %d %s", code, data)
	}

	hidden := map[string]any{"title": "x", "description": "looks fine\u200b", "prompt": "p"}
	code, _, data = r.callErr(t, unstable+"recipes/save", map[string]any{"recipe": hidden})
	if code != -32602 || data != `"`+hiddenCharsRefusal+`"` {
		t.Fatalf("hidden characters: %d %s", code, data)
	}
	entries, _ := os.ReadDir(lib.Dir)
	if len(entries) != 0 {
		t.Fatalf("a refused recipe was written: %v", entries)
	}
}

func TestUnstableRecipeCodecs(t *testing.T) {
	r, _, _, _ := newRecipeRig(t, false)
	var enc struct {
		Deeplink string `json:"deeplink"`
	}
	mustUnmarshal(t, r.call(t, unstable+"recipes/encode", map[string]any{"recipe": testRecipe}), &enc)
	var dec struct {
		Recipe map[string]any `json:"recipe"`
	}
	mustUnmarshal(t, r.call(t, unstable+"recipes/decode", map[string]any{"deeplink": enc.Deeplink}), &dec)
	if dec.Recipe["title"] != "Daily report" || dec.Recipe["prompt"] != "Write the report" {
		t.Fatalf("decode(encode): %v", dec.Recipe)
	}
	var y struct {
		YAML string `json:"yaml"`
	}
	mustUnmarshal(t, r.call(t, unstable+"recipes/to-yaml", map[string]any{"recipe": testRecipe}), &y)
	mustUnmarshal(t, r.call(t, unstable+"recipes/parse", map[string]any{"content": y.YAML}), &dec)
	if dec.Recipe["title"] != "Daily report" {
		t.Fatalf("parse(to-yaml): %v", dec.Recipe)
	}
	var scan struct {
		Warn bool `json:"has_security_warnings"`
	}
	mustUnmarshal(t, r.call(t, unstable+"recipes/scan", map[string]any{"recipe": testRecipe}), &scan)
	if scan.Warn {
		t.Fatal("a clean recipe has warnings")
	}
	mustUnmarshal(t, r.call(t, unstable+"recipes/scan", map[string]any{"recipe": map[string]any{"title": "t", "description": "d\U000E0041"}}), &scan)
	if !scan.Warn {
		t.Fatal("a Unicode tag character was not flagged")
	}
	if code, _, _ := r.callErr(t, unstable+"recipes/parse", map[string]any{"content": "title: [unclosed"}); code != -32602 {
		t.Fatalf("bad yaml: code %d", code)
	}
	if code, _, _ := r.callErr(t, unstable+"recipes/decode", map[string]any{"deeplink": "goose://recipe?config=@@"}); code != -32602 {
		t.Fatalf("bad deeplink: code %d", code)
	}
}

func TestUnstableSchedulesOnDisk(t *testing.T) {
	r, _, runner, dataDir := newRecipeRig(t, true)
	var created struct {
		Job map[string]any `json:"job"`
	}
	mustUnmarshal(t, r.call(t, unstable+"schedules/create", map[string]any{"id": "nightly", "recipe": testRecipe, "cron": "0 0 2 * * *"}), &created)
	if created.Job["id"] != "nightly" || created.Job["paused"] != false || created.Job["currentlyRunning"] != false {
		t.Fatalf("create: %v", created.Job)
	}
	jobs := readSchedules(t, dataDir)
	if len(jobs) != 1 || jobs[0]["id"] != "nightly" || jobs[0]["cron"] != "0 0 2 * * *" {
		t.Fatalf("schedules.json after create: %v", jobs)
	}
	r.call(t, unstable+"schedules/pause", map[string]any{"scheduleId": "nightly"})
	if readSchedules(t, dataDir)[0]["paused"] != true {
		t.Fatal("schedules.json: not paused")
	}
	r.call(t, unstable+"schedules/unpause", map[string]any{"scheduleId": "nightly"})
	mustUnmarshal(t, r.call(t, unstable+"schedules/update", map[string]any{"scheduleId": "nightly", "cron": "0 30 3 * * *"}), &created)
	if created.Job["cron"] != "0 30 3 * * *" || readSchedules(t, dataDir)[0]["cron"] != "0 30 3 * * *" {
		t.Fatalf("update: %v", created.Job)
	}

	// run-now waits for the run; meanwhile inspect sees it running.
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 700, "method": unstable + "schedules/run-now",
		"params": map[string]any{"scheduleId": "nightly"}})
	r.send(t, string(line))
	sid := <-runner.started
	var inspect struct {
		Running   bool    `json:"running"`
		SessionID *string `json:"sessionId"`
	}
	mustUnmarshal(t, r.call(t, unstable+"schedules/running-job/inspect", map[string]any{"jobId": "nightly"}), &inspect)
	if !inspect.Running || inspect.SessionID == nil {
		t.Fatalf("inspect during the run: %+v", inspect)
	}
	if readSchedules(t, dataDir)[0]["currently_running"] != true {
		t.Fatal("schedules.json does not show the run")
	}
	close(runner.release)
	var rep rpcReply
	for rep.ID == nil || string(rep.ID) != "700" {
		mustUnmarshal(t, []byte(r.read(t)), &rep)
	}
	if rep.Error != nil {
		t.Fatalf("run-now: %+v", rep.Error)
	}
	validateUnstableResponse(t, unstable+"schedules/run-now", rep.Result)
	if string(rep.Result) != `{"status":"completed","sessionId":"`+sid+`"}` {
		t.Fatalf("run-now: %s", rep.Result)
	}
	var sessions struct {
		Sessions []SessionInfo `json:"sessions"`
	}
	mustUnmarshal(t, r.call(t, unstable+"schedules/sessions/list", map[string]any{"scheduleId": "nightly", "limit": 10}), &sessions)
	if len(sessions.Sessions) != 1 || sessions.Sessions[0].SessionID != sid {
		t.Fatalf("schedule sessions: %+v", sessions.Sessions)
	}
	mustUnmarshal(t, r.call(t, unstable+"schedules/running-job/inspect", map[string]any{"jobId": "nightly"}), &inspect)
	if inspect.Running {
		t.Fatal("inspect after the run: running")
	}
	code, _, _ := r.callErr(t, unstable+"schedules/running-job/kill", map[string]any{"jobId": "nightly"})
	if code != -32602 {
		t.Fatalf("killing a job that is not running: %d", code)
	}
	code, _, _ = r.callErr(t, unstable+"schedules/create", map[string]any{"id": "nightly", "recipe": testRecipe, "cron": "0 0 2 * * *"})
	if code != -32602 {
		t.Fatalf("duplicate id: %d", code)
	}
	code, _, data := r.callErr(t, unstable+"schedules/create", map[string]any{"id": "bad/id", "recipe": testRecipe, "cron": "0 0 2 * * *"})
	if code != -32602 || !strings.Contains(data, "alphanumeric") {
		t.Fatalf("bad id: %d %s", code, data)
	}
	code, _, _ = r.callErr(t, unstable+"schedules/pause", map[string]any{"scheduleId": "ghost"})
	if code != CodeResourceNotFound {
		t.Fatalf("unknown schedule: %d", code)
	}
	r.call(t, unstable+"schedules/delete", map[string]any{"scheduleId": "nightly"})
	if jobs := readSchedules(t, dataDir); len(jobs) != 0 {
		t.Fatalf("schedules.json after delete: %v", jobs)
	}
}

func TestUnstableSchedulesWithoutScheduler(t *testing.T) {
	r, _, _, _ := newRecipeRig(t, false)
	for _, m := range []string{"schedules/list", "schedules/running-job/inspect"} {
		code, _, data := r.callErr(t, unstable+m, map[string]any{"jobId": "x"})
		if code != -32601 || data != `"Scheduled recipe execution is not enabled"` {
			t.Fatalf("%s without a scheduler: %d %s", m, code, data)
		}
	}
	r.call(t, unstable+"recipes/list", map[string]any{})
}

// memYAML is config.yaml in memory (the library's slash_commands).
type memYAML map[string]json.RawMessage

func (m memYAML) Decode(key string, out any) error {
	if b, ok := m[key]; ok {
		return json.Unmarshal(b, out)
	}
	return nil
}

func (m memYAML) Set(key string, v any) error {
	b, err := json.Marshal(v)
	m[key] = b
	return err
}

func readSchedules(t *testing.T, dataDir string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dataDir, schedule.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var jobs []map[string]any
	if err := json.Unmarshal(b, &jobs); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return jobs
}
