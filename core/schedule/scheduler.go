package schedule

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/robfig/cron/v3"

	"github.com/goose-acp/goose-acp/core/recipe"
)

// Runner runs one scheduled job: it builds the recipe (see BuildRecipe),
// runs it in a new session of type "scheduled" with the job's id as
// schedule_id, and returns that session's id. It must stop when ctx is
// cancelled (kill, delete, Close).
type Runner interface {
	RunRecipe(ctx context.Context, job Job, recipePath string) (sessionID string, err error)
}

// Options configure a Scheduler. DataDir and Runner are required; Clock
// defaults to the real clock, Logger to a discarding one.
type Options struct {
	DataDir string
	Runner  Runner
	Clock   Clock
	Logger  *slog.Logger
	// Idle manages schedules.json (list, create, update, pause, delete,
	// run now) without firing any job on its cron: a process that is not
	// the one running the schedules (goose serve without
	// --enable-scheduler).
	Idle bool
}

// Scheduler runs jobs on their cron ticks. It is safe for concurrent use.
type Scheduler struct {
	opts       Options
	path       string
	recipesDir string

	mu      sync.Mutex
	jobs    map[string]*entry
	closed  bool
	baseCtx context.Context
	stopAll context.CancelFunc
	wg      sync.WaitGroup
}

type entry struct {
	job    Job
	stop   chan struct{} // closes the tick loop
	cancel context.CancelFunc
}

// New loads <DataDir>/schedules.json, clears running flags a crash left
// behind (and persists that), and starts every job's tick loop. A job whose
// cron no longer parses is kept but not scheduled.
func New(opts Options) (*Scheduler, error) {
	if opts.DataDir == "" || opts.Runner == nil {
		return nil, fmt.Errorf("schedule: DataDir and Runner are required")
	}
	if opts.Clock == nil {
		opts.Clock = realClock{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Scheduler{
		opts: opts, path: filepath.Join(opts.DataDir, FileName), recipesDir: filepath.Join(opts.DataDir, RecipesDir),
		jobs: map[string]*entry{}, baseCtx: ctx, stopAll: cancel,
	}
	jobs, err := loadJobs(s.path)
	if err != nil {
		cancel()
		return nil, err
	}
	stale := false
	for _, j := range jobs {
		if j.CurrentlyRunning || j.CurrentSessionID != nil || j.ProcessStartTime != nil {
			j.CurrentlyRunning, j.CurrentSessionID, j.ProcessStartTime = false, nil, nil
			stale = true
		}
		s.jobs[j.ID] = &entry{job: j}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if stale {
		if err := s.persistLocked(); err != nil {
			cancel()
			return nil, err
		}
	}
	for id, e := range s.jobs {
		if err := s.startLocked(e); err != nil {
			s.opts.Logger.Error("scheduled job not started", "job", id, "error", err)
		}
	}
	return s, nil
}

// CreateRequest describes a new job. An empty ID is derived from the
// recipe file name (made unique with _1, _2, …).
type CreateRequest struct {
	ID         string
	RecipePath string
	Cron       string
	Parameters []recipe.Param
}

// Create copies the recipe to scheduled_recipes/<id>.<ext>, stores the job
// and starts its tick loop.
func (s *Scheduler) Create(req CreateRequest) (Job, error) {
	if _, err := ParseCron(req.Cron); err != nil {
		return Job{}, err
	}
	abs, err := filepath.Abs(req.RecipePath)
	if err != nil {
		return Job{}, &Error{Kind: ErrRecipe, msg: "Recipe load error: " + err.Error(), err: err}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return Job{}, ErrClosed
	}
	id := req.ID
	if id == "" {
		id = s.uniqueIDLocked(abs)
	}
	if _, ok := s.jobs[id]; ok {
		return Job{}, jobExists(id)
	}
	dst, err := copyRecipe(abs, s.recipesDir, id)
	if err != nil {
		return Job{}, err
	}
	base := filepath.Dir(abs)
	e := &entry{job: Job{ID: id, Source: dst, Cron: strings.TrimSpace(req.Cron), Parameters: req.Parameters, RecipeBaseDir: &base}}
	s.jobs[id] = e
	if err := s.persistLocked(); err != nil {
		delete(s.jobs, id)
		os.Remove(dst)
		return Job{}, err
	}
	if err := s.startLocked(e); err != nil {
		return Job{}, err
	}
	return e.job, nil
}

func (s *Scheduler) uniqueIDLocked(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if base == "" {
		base = "unnamed"
	}
	id := base
	for n := 1; s.jobs[id] != nil; n++ {
		id = fmt.Sprintf("%s_%d", base, n)
	}
	return id
}

// List returns every job, ordered by id.
func (s *Scheduler) List() []Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Job, 0, len(s.jobs))
	for _, e := range s.jobs {
		out = append(out, e.job)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].ID < out[k].ID })
	return out
}

// Get returns one job.
func (s *Scheduler) Get(id string) (Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.jobs[id]
	if !ok {
		return Job{}, jobNotFound(id)
	}
	return e.job, nil
}

// Update changes a job's cron; a running job cannot be updated.
func (s *Scheduler) Update(id, cronExpr string) error {
	if _, err := ParseCron(cronExpr); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.jobs[id]
	switch {
	case !ok:
		return jobNotFound(id)
	case e.job.CurrentlyRunning:
		return &Error{Kind: ErrJobRunning, msg: fmt.Sprintf("Cannot update running schedule '%s'", id)}
	case strings.TrimSpace(cronExpr) == e.job.Cron:
		return nil
	}
	s.stopLocked(e)
	e.job.Cron = strings.TrimSpace(cronExpr)
	if err := s.persistLocked(); err != nil {
		return err
	}
	return s.startLocked(e)
}

// Delete removes a job (cancelling a run in progress) and, when
// removeRecipe is set, its recipe copy (and the source CreateFromRecipe
// kept).
func (s *Scheduler) Delete(id string, removeRecipe bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.jobs[id]
	if !ok {
		return jobNotFound(id)
	}
	s.stopLocked(e)
	if e.cancel != nil {
		e.cancel()
	}
	delete(s.jobs, id)
	if removeRecipe {
		s.removeSource(e.job)
		if err := os.Remove(e.job.Source); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("Storage error: %w", err)
		}
	}
	return s.persistLocked()
}

// Pause stops a job from firing; a running job cannot be paused.
func (s *Scheduler) Pause(id string) error {
	return s.setPaused(id, true)
}

// Unpause lets a paused job fire again.
func (s *Scheduler) Unpause(id string) error {
	return s.setPaused(id, false)
}

func (s *Scheduler) setPaused(id string, paused bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.jobs[id]
	if !ok {
		return jobNotFound(id)
	}
	if paused && e.job.CurrentlyRunning {
		return &Error{Kind: ErrJobRunning, msg: fmt.Sprintf("Cannot pause running schedule '%s'", id)}
	}
	e.job.Paused = paused
	return s.persistLocked()
}

// Kill cancels a job's run in progress.
func (s *Scheduler) Kill(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.runningLocked(id)
	if err != nil {
		return err
	}
	if e.cancel != nil {
		e.cancel()
	}
	return nil
}

// Inspect reports the session and start time of a running job, or nil
// when it is not running (or its session is not known yet).
func (s *Scheduler) Inspect(id string) (*RunningInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.jobs[id]
	if !ok {
		return nil, jobNotFound(id)
	}
	j := e.job
	if !j.CurrentlyRunning || j.CurrentSessionID == nil || j.ProcessStartTime == nil {
		return nil, nil
	}
	return &RunningInfo{SessionID: *j.CurrentSessionID, StartTime: *j.ProcessStartTime}, nil
}

// SetCurrentSession records the session a running job's Runner created,
// so Inspect can report it (goose sets current_session_id mid-run).
func (s *Scheduler) SetCurrentSession(id, sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, err := s.runningLocked(id)
	if err != nil {
		return err
	}
	e.job.CurrentSessionID = &sessionID
	return s.persistLocked()
}

// runningLocked returns the entry of a job that is running now, or goose's
// not-found / not-running error.
func (s *Scheduler) runningLocked(id string) (*entry, error) {
	e, ok := s.jobs[id]
	if !ok {
		return nil, jobNotFound(id)
	}
	if !e.job.CurrentlyRunning {
		return nil, &Error{Kind: ErrNotRunning, msg: fmt.Sprintf("Schedule '%s' is not running", id)}
	}
	return e, nil
}

// Close stops every tick loop, cancels runs in progress and waits for them.
func (s *Scheduler) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	for _, e := range s.jobs {
		s.stopLocked(e)
	}
	s.mu.Unlock()
	s.stopAll()
	s.wg.Wait()
	return nil
}

func (s *Scheduler) persistLocked() error {
	jobs := make([]Job, 0, len(s.jobs))
	for _, e := range s.jobs {
		jobs = append(jobs, e.job)
	}
	return saveJobs(s.path, jobs)
}

// startLocked starts the tick loop of e.
func (s *Scheduler) startLocked(e *entry) error {
	sched, err := ParseCron(e.job.Cron)
	if err != nil || s.opts.Idle {
		return err
	}
	e.stop = make(chan struct{})
	s.wg.Add(1)
	go s.tickLoop(e.job.ID, sched, e.stop)
	return nil
}

func (s *Scheduler) stopLocked(e *entry) {
	if e.stop != nil {
		close(e.stop)
		e.stop = nil
	}
}

func (s *Scheduler) tickLoop(id string, sched cron.Schedule, stop <-chan struct{}) {
	defer s.wg.Done()
	for {
		now := s.opts.Clock.Now()
		next := sched.Next(now)
		if next.IsZero() {
			return
		}
		t := s.opts.Clock.NewTimer(next.Sub(now))
		select {
		case <-stop:
			t.Stop()
			return
		case <-t.C():
			s.fire(id)
		}
	}
}
