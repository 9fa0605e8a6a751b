package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
)

// startScheduler starts goose's scheduler over <data>/schedules.json with
// runs going through the agent (the goosed backend, --http and serve call
// it). idle manages schedules.json without firing jobs on their cron.
// Jobs fire until stop is called or ctx is done; stop cancels runs in
// progress and waits for them.
func startScheduler(ctx context.Context, rt *runtime, idle bool) (*schedule.Scheduler, func(), error) {
	r := &scheduleRunner{agent: rt.agent, log: rt.log}
	s, err := schedule.New(schedule.Options{DataDir: rt.paths.Data, Runner: r, Logger: rt.log, Idle: idle})
	if err != nil {
		return nil, nil, fmt.Errorf("starting the scheduler: %w", err)
	}
	r.setScheduler(s)
	stopOnDone := context.AfterFunc(ctx, func() { _ = s.Close() })
	stop := func() {
		stopOnDone()
		_ = s.Close()
	}
	return s, stop, nil
}

// scheduleRunner is schedule.Runner over the agent: each run is a headless
// run of the job's recipe in a new session of type "scheduled" carrying the
// job's id as schedule_id, named as goose names it.
type scheduleRunner struct {
	agent *agent.Agent
	log   *slog.Logger

	mu    sync.Mutex
	sched *schedule.Scheduler
}

func (r *scheduleRunner) setScheduler(s *schedule.Scheduler) {
	r.mu.Lock()
	r.sched = s
	r.mu.Unlock()
}

// RunRecipe builds the job's recipe with its parameters (headless: no
// prompting) and runs it to the end of its turn. The session is unloaded
// afterwards so its extensions do not outlive the run.
func (r *scheduleRunner) RunRecipe(ctx context.Context, job schedule.Job, _ string) (string, error) {
	rec, err := schedule.BuildRecipe(job)
	if err != nil {
		return "", err
	}
	prompt, err := rec.PromptText()
	if err != nil {
		return "", err
	}
	h := &headlessRun{
		agent: r.agent, prompt: prompt, recipe: rec,
		start: agent.StartOptions{
			WorkingDir: scheduledWorkingDir(job), Type: session.TypeScheduled, Name: schedule.SessionName(job.ID),
			UseConfiguredExtensions: len(rec.Extensions) == 0, ScheduleID: job.ID,
		},
		onSession: func(id string) { r.recordRunning(job.ID, id) },
		out:       io.Discard, diag: io.Discard, quiet: true,
	}
	h.start.UseRecipe(rec, job.Parameters)
	applyRecipeSettings(&h.start, rec)
	res, err := h.run(ctx)
	if res.SessionID != "" {
		_ = r.agent.CloseSession(res.SessionID)
	}
	return res.SessionID, err
}

// scheduledWorkingDir is the recipe's directory, or the process's working
// directory when that is gone (recipes created through the API are copied
// from a temporary file).
func scheduledWorkingDir(job schedule.Job) string {
	dir := job.RecipeDir()
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return dir
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return dir
}

// recordRunning lets Inspect report the running job's session.
func (r *scheduleRunner) recordRunning(jobID, sessionID string) {
	r.mu.Lock()
	s := r.sched
	r.mu.Unlock()
	if s == nil {
		return
	}
	if err := s.SetCurrentSession(jobID, sessionID); err != nil {
		r.log.Warn("could not record the scheduled run's session", "job", jobID, "session", sessionID, "error", err)
	}
}

// Errors a headless run ends with (besides provider errors).
var (
	errInterrupted      = errors.New("interrupted")
	errMaxTurns         = errors.New("stopped: the maximum number of turns was reached without finishing")
	errNoFinalOutput    = errors.New("the recipe's response schema was never satisfied: final_output was not called with valid output")
	errRefusal          = errors.New("the model refused to answer")
	errMaxTokens        = errors.New("the reply was cut off at the model's output token limit")
	errRetriesExhausted = errors.New("the recipe's success checks still failed after every retry")
)

// headlessRun runs one prompt to the end of its turn in a new session: what
// `goose-acp run` and scheduled jobs do. A recipe's retry checks run in
// the agent's loop (agent.RecipeFrom sets them); the run only reports
// them.
type headlessRun struct {
	agent *agent.Agent
	// start carries the recipe (StartOptions.UseRecipe), the schedule id
	// and the name the session is created with.
	start  agent.StartOptions
	prompt string
	recipe *recipe.Recipe
	// onSession is called with the new session's id before the prompt
	// is sent (the scheduler records it for inspect).
	onSession func(id string)
	out, diag io.Writer
	quiet     bool
}

// runResult is how a headless run ended.
type runResult struct {
	SessionID string
	Outcome   agent.Outcome
}

func (h *headlessRun) run(ctx context.Context) (runResult, error) {
	sess, loaded, err := h.agent.StartSession(ctx, h.start)
	if err != nil {
		return runResult{}, err
	}
	res := runResult{SessionID: sess.ID}
	for _, l := range loaded {
		if !l.Success {
			fmt.Fprintf(h.diag, "Failed to start extension %s: %s\n", l.Name, l.Error)
		}
	}
	// Project plugins waiting for consent, SessionStart banners and
	// failed SessionStart hooks, on stderr.
	if notes, err := h.agent.Plugins().StartNotices(ctx, sess.ID); err == nil {
		for _, n := range notes {
			fmt.Fprintln(h.diag, n.Text())
		}
	}
	if h.onSession != nil {
		h.onSession(sess.ID)
	}
	p := &replyPrinter{agent: h.agent, sessionID: sess.ID, out: h.out, diag: h.diag, quiet: h.quiet, finalIDs: map[string]bool{}}
	sink := func(ev agent.Event) {
		if e, ok := ev.(agent.RetryEvent); ok {
			p.note("Success checks failed; retrying from the start (attempt %d of %d)", e.Attempt, e.MaxRetries)
			p.finalCollected = false
			return
		}
		p.handle(ev)
	}
	msg := conversation.UserText(time.Now().Unix(), h.prompt)
	res.Outcome, err = h.agent.Reply(ctx, sess.ID, msg, sink)
	p.endLine()
	if err != nil && ctx.Err() != nil {
		// Stopped before the turn got going (a kill while it loads).
		return res, h.verdict(ctx, agent.Outcome{StopReason: agent.Cancelled}, false)
	}
	if err != nil {
		return res, err
	}
	if res.Outcome.RetriesExhausted {
		return res, errRetriesExhausted
	}
	return res, h.verdict(ctx, res.Outcome, p.finalCollected)
}

// verdict maps how the turn ended to the run's error.
func (h *headlessRun) verdict(ctx context.Context, out agent.Outcome, finalCollected bool) error {
	switch out.StopReason {
	case agent.Cancelled:
		if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("%w: %w", errInterrupted, err)
		}
		return errInterrupted
	case agent.Error:
		if out.Err != nil {
			return out.Err
		}
		return errors.New("the turn ended on an error")
	case agent.MaxTurns:
		return errMaxTurns
	case agent.Refusal:
		return errRefusal
	case agent.MaxTokens:
		return errMaxTokens
	}
	if h.start.Recipe != nil && len(h.start.Recipe.ResponseSchema) > 0 && !finalCollected {
		return errNoFinalOutput
	}
	return nil
}
