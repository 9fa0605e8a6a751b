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
// runs going through the agent (the goosed backend and --http call it).
// Jobs fire until stop is called or ctx is done; stop cancels runs in
// progress and waits for them.
func startScheduler(ctx context.Context, rt *runtime) (*schedule.Scheduler, func(), error) {
	r := &scheduleRunner{agent: rt.agent, store: rt.store, log: rt.log}
	s, err := schedule.New(schedule.Options{DataDir: rt.paths.Data, Runner: r, Logger: rt.log})
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
	store session.Store
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
		agent: r.agent, store: r.store, prompt: prompt, recipe: rec, params: job.Parameters,
		start: agent.StartOptions{
			WorkingDir: scheduledWorkingDir(job), Type: session.TypeScheduled, Name: schedule.SessionName(job.ID),
			Recipe: agentRecipe(rec), UseConfiguredExtensions: len(rec.Extensions) == 0,
		},
		scheduleID: job.ID,
		onSession:  func(id string) { r.recordRunning(job.ID, id) },
		out:        io.Discard, diag: io.Discard, quiet: true, getenv: os.Getenv,
	}
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
// `goose-acp run` and scheduled jobs do.
type headlessRun struct {
	agent  *agent.Agent
	store  session.Store
	start  agent.StartOptions
	prompt string
	recipe *recipe.Recipe
	params []recipe.Param
	// scheduleID marks the session as a scheduled job's run.
	scheduleID string
	// onSession is called with the new session's id before the prompt
	// is sent (the scheduler records it for inspect).
	onSession func(id string)
	out, diag io.Writer
	quiet     bool
	// getenv reads retry timeouts (GOOSE_RECIPE_RETRY_TIMEOUT_SECONDS, …).
	getenv func(string) string
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
	if err := h.recordSession(ctx, sess.ID); err != nil {
		return res, err
	}
	if h.onSession != nil {
		h.onSession(sess.ID)
	}
	p := &replyPrinter{agent: h.agent, sessionID: sess.ID, out: h.out, diag: h.diag, quiet: h.quiet, finalIDs: map[string]bool{}}
	for attempts := 0; ; attempts++ {
		msg := conversation.UserText(time.Now().Unix(), h.prompt)
		res.Outcome, err = h.agent.Reply(ctx, sess.ID, msg, p.handle)
		p.endLine()
		if err != nil {
			return res, err
		}
		if res.Outcome.StopReason != agent.EndTurn || h.recipe == nil || h.recipe.Retry == nil {
			break
		}
		again, err := h.retry(ctx, sess.ID, attempts, p)
		if err != nil || !again {
			return res, err
		}
	}
	return res, h.verdict(ctx, res.Outcome, p.finalCollected)
}

// retry is goose's recipe retry after a finished turn: run the success
// checks; when they fail, give up after max_retries (goose's message) or
// run on_failure, reset the conversation to its start and go again.
func (h *headlessRun) retry(ctx context.Context, id string, attempts int, p *replyPrinter) (bool, error) {
	cfg := *h.recipe.Retry
	ok, err := recipe.RunChecks(ctx, cfg, h.getenv)
	if err != nil {
		return false, fmt.Errorf("running the recipe's success checks: %w", err)
	}
	if ok {
		return false, h.verdict(ctx, agent.Outcome{StopReason: agent.EndTurn}, p.finalCollected)
	}
	if attempts >= cfg.MaxRetries {
		text := recipe.MaxRetriesMessage(cfg.MaxRetries)
		p.text("retry", text)
		p.endLine()
		if err := h.store.AppendMessage(context.WithoutCancel(ctx), id, conversation.AssistantText(time.Now().Unix(), text)); err != nil {
			return false, err
		}
		return false, errRetriesExhausted
	}
	p.note("Success checks failed; retrying from the start (attempt %d of %d)", attempts+1, cfg.MaxRetries)
	if err := recipe.RunOnFailure(ctx, cfg, h.getenv); err != nil {
		return false, err
	}
	if err := h.store.ReplaceConversation(ctx, id, []conversation.Message{}); err != nil {
		return false, fmt.Errorf("resetting the conversation for a retry: %w", err)
	}
	p.finalCollected = false
	return true, nil
}

// recordSession stores what goose stores on a recipe or scheduled run's
// session: schedule_id, the recipe and the parameter values.
func (h *headlessRun) recordSession(ctx context.Context, id string) error {
	var u session.Update
	if h.scheduleID != "" {
		sid := h.scheduleID
		u.ScheduleID = &sid
	}
	if h.recipe != nil {
		b, err := recipe.MarshalCompact(h.recipe)
		if err != nil {
			return err
		}
		u.Recipe = b
		if len(h.params) > 0 {
			u.UserRecipeValues = map[string]string{}
			for _, p := range h.params {
				u.UserRecipeValues[p.Key] = p.Value
			}
		}
	}
	if u.ScheduleID == nil && u.Recipe == nil {
		return nil
	}
	if err := h.store.Update(ctx, id, u); err != nil {
		return fmt.Errorf("recording the run on session %s: %w", id, err)
	}
	return nil
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
