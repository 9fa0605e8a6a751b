package schedule

import (
	"context"
	"fmt"
)

// fire starts a cron-triggered run unless the job is paused, gone or
// already running (overlapping runs are skipped).
func (s *Scheduler) fire(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.jobs[id]
	switch {
	case !ok || s.closed || e.job.Paused:
		return
	case e.job.CurrentlyRunning:
		s.opts.Logger.Warn("scheduled job still running, tick skipped", "job", id)
		return
	}
	ctx, job, err := s.beginLocked(e, true)
	if err != nil {
		s.opts.Logger.Error("scheduled job not started", "job", id, "error", err)
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		sessionID, err := s.opts.Runner.RunRecipe(ctx, job, job.Source)
		s.finish(id, false)
		if err != nil {
			s.opts.Logger.Error("scheduled job failed", "job", id, "error", err)
			return
		}
		s.opts.Logger.Info("scheduled job completed", "job", id, "session", sessionID)
	}()
}

// RunNow runs a job immediately and waits for it, returning the session id.
func (s *Scheduler) RunNow(ctx context.Context, id string) (string, error) {
	s.mu.Lock()
	e, ok := s.jobs[id]
	switch {
	case s.closed:
		s.mu.Unlock()
		return "", ErrClosed
	case !ok:
		s.mu.Unlock()
		return "", jobNotFound(id)
	case e.job.CurrentlyRunning:
		s.mu.Unlock()
		return "", &Error{Kind: ErrJobRunning, msg: fmt.Sprintf("Job '%s' is already running", id)}
	}
	runCtx, job, err := s.beginLocked(e, false)
	s.mu.Unlock()
	if err != nil {
		return "", err
	}
	stop := context.AfterFunc(ctx, func() { s.cancelRun(id) })
	defer stop()
	sessionID, runErr := s.opts.Runner.RunRecipe(runCtx, job, job.Source)
	if err := s.finish(id, true); err != nil && runErr == nil {
		return sessionID, err
	}
	if runErr != nil {
		return sessionID, &Error{Kind: ErrRunFailed, msg: fmt.Sprintf("Job '%s' failed: %v", id, runErr), err: runErr}
	}
	return sessionID, nil
}

// beginLocked marks the job running and persists that before the run, so
// the state on disk always shows a run in progress.
func (s *Scheduler) beginLocked(e *entry, setLastRun bool) (context.Context, Job, error) {
	now := s.opts.Clock.Now().UTC()
	prev := e.job
	e.job.CurrentlyRunning, e.job.ProcessStartTime, e.job.CurrentSessionID = true, &now, nil
	if setLastRun {
		e.job.LastRun = &now
	}
	if err := s.persistLocked(); err != nil {
		e.job = prev
		return nil, Job{}, err
	}
	ctx, cancel := context.WithCancel(s.baseCtx)
	e.cancel = cancel
	return ctx, e.job, nil
}

// finish clears the running state and persists it after the run.
func (s *Scheduler) finish(id string, setLastRun bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.jobs[id]
	if !ok {
		return nil // deleted while running
	}
	if e.cancel != nil {
		e.cancel()
		e.cancel = nil
	}
	e.job.CurrentlyRunning, e.job.CurrentSessionID, e.job.ProcessStartTime = false, nil, nil
	if setLastRun {
		now := s.opts.Clock.Now().UTC()
		e.job.LastRun = &now
	}
	if err := s.persistLocked(); err != nil {
		s.opts.Logger.Error("failed to persist job completion", "job", id, "error", err)
		return err
	}
	return nil
}

func (s *Scheduler) cancelRun(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.jobs[id]; ok && e.cancel != nil {
		e.cancel()
	}
}
