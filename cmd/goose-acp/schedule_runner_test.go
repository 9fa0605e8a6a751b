package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
)

// verifyNoLeaks checks, after every other cleanup (the mock server's
// included), that the test left no goroutine behind.
func verifyNoLeaks(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}

// openTestRuntime opens the real runtime (sqlite store, provider registry,
// agent) over the harness's goose home.
func openTestRuntime(t *testing.T, h *runHarness) *runtime {
	t.Helper()
	var stderr bytes.Buffer
	env := &environment{ctx: context.Background(), stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &stderr, getenv: envFunc(h.vars)}
	rt, err := openRuntime(env.ctx, env, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

// waitForSession polls the store until the job has a session whose
// conversation satisfies done, or fails after 15 s.
func waitForSession(t *testing.T, rt *runtime, jobID string, done func(session.Session) bool) session.Session {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		ss, err := schedule.Sessions(context.Background(), rt.store, jobID, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			full, err := rt.store.Get(context.Background(), s.ID, true)
			if err == nil && done(full) {
				return full
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no finished session for job %q within 15s", jobID)
	return session.Session{}
}

const healthRecipe = `title: Health
description: Health check
instructions: Report briefly.
prompt: Report on {{ service }}
parameters:
  - key: service
    input_type: string
    requirement: required
    description: Service to check
`

func TestScheduledJobRunsOnItsTickThroughTheAgent(t *testing.T) {
	verifyNoLeaks(t)
	h := newRunHarness(t, providertest.Turn{Text: []string{"billing ", "is healthy."}})
	rt := openTestRuntime(t, h)
	defer rt.Close()
	sched, stop, err := startScheduler(context.Background(), rt, false)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	path := writeRecipe(t, "health.yaml", healthRecipe)
	if _, err := sched.Create(schedule.CreateRequest{ID: "health", RecipePath: path, Cron: "@every 1s",
		Parameters: schedule.Params{{Key: "service", Value: "billing"}}}); err != nil {
		t.Fatal(err)
	}
	s := waitForSession(t, rt, "health", func(s session.Session) bool { return len(withoutTurnContext(s.Conversation)) == 2 })
	s.Conversation = withoutTurnContext(s.Conversation)
	stop() // no second tick: the script has one turn
	if s.SessionType != session.TypeScheduled || s.ScheduleID == nil || *s.ScheduleID != "health" || s.Name != "Scheduled job: health" {
		t.Fatalf("session: type %q schedule %v name %q", s.SessionType, s.ScheduleID, s.Name)
	}
	if got := s.Conversation[0].AsText(); got != "Report on billing" {
		t.Fatalf("prompt %q", got)
	}
	if got := s.Conversation[1].AsText(); got != "billing is healthy." {
		t.Fatalf("reply %q", got)
	}
	if s.UserRecipeValues["service"] != "billing" {
		t.Fatalf("recipe values %v", s.UserRecipeValues)
	}
	if body := string(h.llm.Script.Requests()[0]); !strings.Contains(body, "Report briefly.") {
		t.Fatalf("instructions missing from the system prompt: %s", body)
	}
	job, err := sched.Get("health")
	if err != nil {
		t.Fatal(err)
	}
	if job.CurrentlyRunning || job.LastRun == nil {
		t.Fatalf("job state after the run: %+v", job)
	}
}

func TestScheduledRunIsInspectableAndKillable(t *testing.T) {
	verifyNoLeaks(t)
	h := newRunHarness(t, providertest.Turn{Text: []string{"working"}, Hang: true})
	rt := openTestRuntime(t, h)
	defer rt.Close()
	sched, stop, err := startScheduler(context.Background(), rt, false)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	path := writeRecipe(t, "slow.yaml", "title: Slow\ndescription: Hangs\nprompt: Take your time.\n")
	if _, err := sched.Create(schedule.CreateRequest{ID: "slow", RecipePath: path, Cron: "0 0 1 1 *"}); err != nil {
		t.Fatal(err)
	}
	type result struct {
		id  string
		err error
	}
	done := make(chan result, 1)
	go func() {
		id, err := sched.RunNow(context.Background(), "slow")
		done <- result{id, err}
	}()
	var info *schedule.RunningInfo
	for deadline := time.Now().Add(10 * time.Second); info == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		info, _ = sched.Inspect("slow")
	}
	if info == nil {
		t.Fatal("the running job never reported its session")
	}
	if err := sched.Kill("slow"); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.id != info.SessionID || !errors.Is(r.err, schedule.ErrRunFailed) || !strings.Contains(r.err.Error(), errInterrupted.Error()) {
			t.Fatalf("run now: id %q (running %q) err %v", r.id, info.SessionID, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("kill did not stop the run within 10s")
	}
	raw, err := os.ReadFile(filepath.Join(h.root, "data", "schedules.json"))
	if err != nil {
		t.Fatal(err)
	}
	var jobs []schedule.Job
	if err := json.Unmarshal(raw, &jobs); err != nil || len(jobs) != 1 || jobs[0].CurrentlyRunning || jobs[0].CurrentSessionID != nil {
		t.Fatalf("schedules.json after kill (%v): %s", err, raw)
	}
}

func TestScheduledRunWithBadRecipeFails(t *testing.T) {
	h := newRunHarness(t)
	rt := openTestRuntime(t, h)
	defer rt.Close()
	r := &scheduleRunner{agent: rt.agent, log: rt.log}
	path := writeRecipe(t, "health.yaml", healthRecipe)
	id, err := r.RunRecipe(context.Background(), schedule.Job{ID: "health", Source: path}, path)
	var missing *recipe.MissingParamsError
	if id != "" || !errors.As(err, &missing) || err.Error() != `Missing required parameters: ["service"]` {
		t.Fatalf("id %q err %v", id, err)
	}
	if n := len(h.llm.Script.Requests()); n != 0 {
		t.Fatalf("provider called %d times", n)
	}
}

func TestStartSchedulerStopsWithContext(t *testing.T) {
	verifyNoLeaks(t)
	h := newRunHarness(t)
	rt := openTestRuntime(t, h)
	defer rt.Close()
	ctx, cancel := context.WithCancel(context.Background())
	sched, stop, err := startScheduler(ctx, rt, false)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	cancel()
	path := writeRecipe(t, "r.yaml", "title: T\ndescription: D\nprompt: P\n")
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := sched.Create(schedule.CreateRequest{ID: "late", RecipePath: path, Cron: "@every 1h"})
		if errors.Is(err, schedule.ErrClosed) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("scheduler still open after ctx cancel: %v", err)
		}
		_ = sched.Delete("late", true)
		time.Sleep(10 * time.Millisecond)
	}
}

// A run stopped after its session exists but before its turn got going
// is interrupted, like one stopped mid-turn.
func TestHeadlessRunStoppedBeforeTheTurn(t *testing.T) {
	h := newRunHarness(t)
	rt := openTestRuntime(t, h)
	defer rt.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := &headlessRun{agent: rt.agent, prompt: "hello", start: agent.StartOptions{WorkingDir: h.root},
		onSession: func(string) { cancel() }, out: io.Discard, diag: io.Discard, quiet: true}
	res, err := run.run(ctx)
	if res.SessionID == "" || !errors.Is(err, errInterrupted) {
		t.Fatalf("session %q, err %v; want errInterrupted", res.SessionID, err)
	}
}
