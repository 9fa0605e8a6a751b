package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/recipe"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at    time.Time
	c     chan time.Time
	done  bool
	clock *fakeClock
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }
func (t *fakeTimer) Stop() bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *fakeClock) NewTimer(d time.Duration) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), c: make(chan time.Time, 1), clock: c}
	c.timers = append(c.timers, t)
	return t
}

// advance moves time and fires due timers.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now) {
			t.done = true
			t.c <- c.now
		}
	}
}

// waitTimers waits until n timers are pending.
func (c *fakeClock) waitTimers(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		pending := 0
		for _, tm := range c.timers {
			if !tm.done {
				pending++
			}
		}
		c.mu.Unlock()
		if pending >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("timed out waiting for %d timers", n)
}

// fakeRunner records runs; when block is set, runs wait for release or ctx.
type fakeRunner struct {
	mu      sync.Mutex
	runs    []Job
	started chan string
	release chan struct{}
	err     error
}

func newFakeRunner() *fakeRunner {
	return &fakeRunner{started: make(chan string, 16), release: make(chan struct{})}
}

func (r *fakeRunner) RunRecipe(ctx context.Context, job Job, recipePath string) (string, error) {
	r.mu.Lock()
	r.runs = append(r.runs, job)
	n := len(r.runs)
	r.mu.Unlock()
	r.started <- job.ID
	select {
	case <-r.release:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if r.err != nil {
		return "", r.err
	}
	return "20250101_" + string(rune('0'+n)), nil
}

func (r *fakeRunner) count() int { r.mu.Lock(); defer r.mu.Unlock(); return len(r.runs) }

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func writeRecipe(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "nightly-report.yaml")
	content := "version: 1.0.0\ntitle: Nightly\ndescription: Nightly report\nprompt: Report on {{ project }}\nparameters:\n  - {key: project, input_type: string, requirement: required, description: Project}\n"
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNormalizeCron(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"*/5 * * * *", "0 */5 * * * *", ""},
		{"  0 9 * * MON-FRI ", "0 0 9 * * MON-FRI", ""},
		{"30 0 9 * * *", "30 0 9 * * *", ""},
		{"0 0 9 * * * 2030", "0 0 9 * * *", ""},
		{"@every 1s", "@every 1s", ""},
		{"@daily", "@daily", ""},
		{"* * *", "", "Invalid cron string: Invalid cron expression '* * *': expected 5, 6 or 7 fields, got 3"},
	}
	for _, tc := range tests {
		got, err := NormalizeCron(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err || !errors.Is(err, ErrInvalidCron) {
				t.Errorf("%q: err = %v", tc.in, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %q, %v", tc.in, got, err)
		}
	}
	for _, bad := range []string{"61 * * * *", "@every nope", "a b c d e"} {
		if _, err := ParseCron(bad); err == nil || !strings.HasPrefix(err.Error(), "Invalid cron string: ") {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
	s, _ := ParseCron("0 9 * * *")
	from := time.Date(2025, 1, 1, 8, 59, 59, 0, time.UTC)
	if next := s.Next(from); !next.Equal(time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("next = %v", next)
	}
}

func TestCreatePersistsGooseFormat(t *testing.T) {
	data, src := t.TempDir(), t.TempDir()
	clock := &fakeClock{now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}
	s, err := New(Options{DataDir: data, Runner: newFakeRunner(), Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	path := writeRecipe(t, src)
	job, err := s.Create(CreateRequest{RecipePath: path, Cron: "0 9 * * *", Parameters: []recipe.Param{{Key: "project", Value: "goose"}}})
	if err != nil {
		t.Fatal(err)
	}
	if job.ID != "nightly-report" || job.Source != filepath.Join(data, "scheduled_recipes", "nightly-report.yaml") {
		t.Fatalf("job = %+v", job)
	}
	if again, _ := s.Create(CreateRequest{RecipePath: path, Cron: "0 9 * * *"}); again.ID != "nightly-report_1" {
		t.Fatalf("second id = %q", again.ID)
	}
	_, err = s.Create(CreateRequest{ID: "nightly-report", RecipePath: path, Cron: "0 9 * * *"})
	if !errors.Is(err, ErrJobExists) || err.Error() != "Job ID 'nightly-report' already exists." {
		t.Fatalf("dup err = %v", err)
	}
	if _, err := s.Create(CreateRequest{ID: "x", RecipePath: filepath.Join(src, "missing.yaml"), Cron: "0 9 * * *"}); !errors.Is(err, ErrRecipe) {
		t.Fatalf("missing recipe err = %v", err)
	}
	if err := s.Delete("nightly-report_1", true); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(data, "schedules.json"))
	want := `[
  {
    "id": "nightly-report",
    "source": "` + filepath.ToSlash(job.Source) + `",
    "cron": "0 9 * * *",
    "last_run": null,
    "currently_running": false,
    "paused": false,
    "current_session_id": null,
    "process_start_time": null,
    "parameters": [
      [
        "project",
        "goose"
      ]
    ],
    "recipe_base_dir": "` + filepath.ToSlash(src) + `"
  }
]`
	if string(raw) != want {
		t.Fatalf("schedules.json:\n%s\nwant\n%s", raw, want)
	}
	r, err := BuildRecipe(job)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := r.PromptText(); p != "Report on goose" {
		t.Fatalf("prompt = %q", p)
	}
}

func TestTickRunOverlapPauseKill(t *testing.T) {
	data, src := t.TempDir(), t.TempDir()
	clock := &fakeClock{now: time.Date(2025, 6, 1, 8, 59, 0, 0, time.UTC)}
	runner := newFakeRunner()
	s, err := New(Options{DataDir: data, Runner: runner, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Create(CreateRequest{ID: "j", RecipePath: writeRecipe(t, src), Cron: "* * * * *"}); err != nil {
		t.Fatal(err)
	}
	clock.waitTimers(t, 1)
	clock.advance(time.Minute)
	if id := <-runner.started; id != "j" {
		t.Fatalf("ran %q", id)
	}
	job, _ := s.Get("j")
	if !job.CurrentlyRunning || job.LastRun == nil || !job.LastRun.Equal(time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("running job = %+v", job)
	}
	onDisk, _ := loadJobs(filepath.Join(data, FileName))
	if !onDisk[0].CurrentlyRunning {
		t.Fatal("running state not persisted before the run")
	}
	if err := s.SetCurrentSession("j", "20250601_1"); err != nil {
		t.Fatal(err)
	}
	if info, _ := s.Inspect("j"); info == nil || info.SessionID != "20250601_1" {
		t.Fatalf("inspect = %+v", info)
	}
	if err := s.Pause("j"); !errors.Is(err, ErrJobRunning) || err.Error() != "Cannot pause running schedule 'j'" {
		t.Fatalf("pause err = %v", err)
	}
	if err := s.Update("j", "0 * * * *"); !errors.Is(err, ErrJobRunning) {
		t.Fatalf("update err = %v", err)
	}
	if _, err := s.RunNow(context.Background(), "j"); err == nil || err.Error() != "Job 'j' is already running" {
		t.Fatalf("run-now err = %v", err)
	}
	// Overlap: the next tick while running is skipped.
	clock.waitTimers(t, 1)
	clock.advance(time.Minute)
	clock.waitTimers(t, 1)
	if n := runner.count(); n != 1 {
		t.Fatalf("overlapping run started: %d runs", n)
	}
	if err := s.Kill("j"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "run to end", func() bool { j, _ := s.Get("j"); return !j.CurrentlyRunning })
	if info, _ := s.Inspect("j"); info != nil {
		t.Fatalf("inspect after kill = %+v", info)
	}
	if err := s.Kill("j"); !errors.Is(err, ErrNotRunning) || err.Error() != "Schedule 'j' is not running" {
		t.Fatalf("kill err = %v", err)
	}
	onDisk, _ = loadJobs(filepath.Join(data, FileName))
	if onDisk[0].CurrentlyRunning || onDisk[0].ProcessStartTime != nil || onDisk[0].CurrentSessionID != nil {
		t.Fatalf("finished state not persisted: %+v", onDisk[0])
	}
	// Paused jobs do not fire.
	if err := s.Pause("j"); err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Minute)
	clock.waitTimers(t, 1)
	if n := runner.count(); n != 1 {
		t.Fatalf("paused job ran: %d runs", n)
	}
	if err := s.Unpause("j"); err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Minute)
	<-runner.started
	close(runner.release)
	waitFor(t, "second run to end", func() bool { j, _ := s.Get("j"); return !j.CurrentlyRunning })
}

func TestRunNowAndErrors(t *testing.T) {
	data, src := t.TempDir(), t.TempDir()
	runner := newFakeRunner()
	close(runner.release)
	clock := &fakeClock{now: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}
	s, err := New(Options{DataDir: data, Runner: runner, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Create(CreateRequest{ID: "j", RecipePath: writeRecipe(t, src), Cron: "0 0 1 1 *"})
	sid, err := s.RunNow(context.Background(), "j")
	if err != nil || sid != "20250101_1" {
		t.Fatalf("run-now = %q, %v", sid, err)
	}
	if j, _ := s.Get("j"); j.LastRun == nil || j.CurrentlyRunning {
		t.Fatalf("after run-now: %+v", j)
	}
	runner.err = errors.New("provider exploded")
	if _, err := s.RunNow(context.Background(), "j"); !errors.Is(err, ErrRunFailed) || err.Error() != "Job 'j' failed: provider exploded" {
		t.Fatalf("failed run err = %v", err)
	}
	for name, err := range map[string]error{
		"get":     func() error { _, err := s.Get("nope"); return err }(),
		"pause":   s.Pause("nope"),
		"unpause": s.Unpause("nope"),
		"kill":    s.Kill("nope"),
		"delete":  s.Delete("nope", false),
		"update":  s.Update("nope", "* * * * *"),
		"run-now": func() error { _, err := s.RunNow(context.Background(), "nope"); return err }(),
		"inspect": func() error { _, err := s.Inspect("nope"); return err }(),
	} {
		if !errors.Is(err, ErrJobNotFound) || err.Error() != "Job ID 'nope' not found." {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if err := s.Update("j", "bad"); !errors.Is(err, ErrInvalidCron) {
		t.Errorf("update bad cron err = %v", err)
	}
	if err := s.Update("j", "0 0 2 1 *"); err != nil {
		t.Fatal(err)
	}
	if j, _ := s.Get("j"); j.Cron != "0 0 2 1 *" {
		t.Errorf("cron = %q", j.Cron)
	}
}

func TestLoadClearsStaleRunningState(t *testing.T) {
	data := t.TempDir()
	start := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	sid := "20250601_3"
	jobs := []Job{{ID: "crashed", Source: filepath.Join(data, "r.yaml"), Cron: "0 9 * * *", CurrentlyRunning: true, CurrentSessionID: &sid, ProcessStartTime: &start, Paused: true}}
	if err := saveJobs(filepath.Join(data, FileName), jobs); err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{DataDir: data, Runner: newFakeRunner(), Clock: &fakeClock{now: start}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	j, _ := s.Get("crashed")
	if j.CurrentlyRunning || j.CurrentSessionID != nil || j.ProcessStartTime != nil || !j.Paused {
		t.Fatalf("loaded = %+v", j)
	}
	onDisk, _ := loadJobs(filepath.Join(data, FileName))
	if onDisk[0].CurrentlyRunning {
		t.Fatal("cleared state not persisted")
	}
}

func TestReadsGooseFile(t *testing.T) {
	data := t.TempDir()
	goose := `[{"id":"daily","source":"/x/daily.yaml","cron":"0 0 9 * * *","last_run":"2025-05-01T09:00:00.123456Z","currently_running":false,"paused":false,"current_session_id":null,"process_start_time":null,"execution_mode":"background"}]`
	os.WriteFile(filepath.Join(data, FileName), []byte(goose), 0o644)
	s, err := New(Options{DataDir: data, Runner: newFakeRunner()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	j, _ := s.Get("daily")
	if j.LastRun == nil || j.LastRun.Nanosecond() != 123456000 || *j.ExecutionMode != "background" || len(j.Parameters) != 0 {
		t.Fatalf("job = %+v", j)
	}
	b, _ := json.Marshal(j)
	if !strings.Contains(string(b), `"parameters":[]`) || !strings.Contains(string(b), `"last_run":"2025-05-01T09:00:00.123456Z"`) {
		t.Fatalf("json = %s", b)
	}
	if _, err := New(Options{DataDir: data}); err == nil {
		t.Fatal("New without Runner succeeded")
	}
	os.WriteFile(filepath.Join(data, FileName), []byte("{not json"), 0o644)
	if _, err := New(Options{DataDir: data, Runner: newFakeRunner()}); err == nil {
		t.Fatal("corrupt schedules.json accepted")
	}
}

// An idle scheduler (goose serve without --enable-scheduler) manages
// schedules.json but never fires a job on its cron; "run now" still runs.
func TestIdleSchedulerManagesWithoutFiring(t *testing.T) {
	data, src := t.TempDir(), t.TempDir()
	clock := &fakeClock{now: time.Date(2025, 6, 1, 8, 59, 0, 0, time.UTC)}
	runner := newFakeRunner()
	close(runner.release)
	s, err := New(Options{DataDir: data, Runner: runner, Clock: clock, Idle: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Create(CreateRequest{ID: "j", RecipePath: writeRecipe(t, src), Cron: "* * * * *"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Update("j", "*/5 * * * *"); err != nil {
		t.Fatal(err)
	}
	if err := s.Pause("j"); err != nil {
		t.Fatal(err)
	}
	if err := s.Unpause("j"); err != nil {
		t.Fatal(err)
	}
	clock.advance(time.Hour)
	clock.mu.Lock()
	timers := len(clock.timers)
	clock.mu.Unlock()
	if timers != 0 || runner.count() != 0 {
		t.Fatalf("idle scheduler armed %d timers, ran %d jobs", timers, runner.count())
	}
	onDisk, _ := loadJobs(filepath.Join(data, FileName))
	if len(onDisk) != 1 || onDisk[0].ID != "j" || onDisk[0].Cron != "*/5 * * * *" {
		t.Fatalf("schedules.json = %+v", onDisk)
	}
	if _, err := s.RunNow(context.Background(), "j"); err != nil {
		t.Fatal(err)
	}
	if runner.count() != 1 {
		t.Fatalf("run now ran %d jobs", runner.count())
	}
}
