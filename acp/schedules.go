package acp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/schedule"
)

// Goose Desktop's schedule methods (_goose/unstable/schedules/*) over
// core/schedule's Scheduler, which keeps schedules.json. Without a
// scheduler in this process they answer goose's own refusal.

// schedulesAPI answers the schedule methods over the scheduler; the
// sessions of a schedule are read from the store.
type schedulesAPI struct {
	scheduler *schedule.Scheduler
	store     agent.SessionReader
}

func (a *schedulesAPI) methods() map[string]RequestHandler {
	const p = "_goose/unstable/schedules/"
	return gated(a.check, map[string]RequestHandler{
		p + "list":                typed(a.list),
		p + "create":              typed(a.create),
		p + "delete":              typed(a.delete),
		p + "pause":               typed(a.pause),
		p + "unpause":             typed(a.unpause),
		p + "update":              typed(a.update),
		p + "run-now":             typed(a.runNow),
		p + "sessions/list":       typed(a.sessions),
		p + "running-job/kill":    typed(a.kill),
		p + "running-job/inspect": typed(a.inspect),
	})
}

// errNoScheduler is goose's answer when the process runs no scheduler
// (goose serve without --enable-scheduler, or stdio): method not found
// with this text as data.
func errNoScheduler() error {
	e := &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "Method not found"}
	e.SetError("Scheduled recipe execution is not enabled")
	return e
}

// check refuses every call while there is no scheduler.
func (a *schedulesAPI) check() error {
	if a.scheduler == nil {
		return errNoScheduler()
	}
	return nil
}

// scheduledJob is goose's ScheduledJobDto.
type scheduledJob struct {
	ID               string  `json:"id"`
	Source           string  `json:"source"`
	Cron             string  `json:"cron"`
	LastRun          *string `json:"lastRun"`
	CurrentlyRunning bool    `json:"currentlyRunning"`
	Paused           bool    `json:"paused"`
	CurrentSessionID *string `json:"currentSessionId"`
	JobStartTime     *string `json:"jobStartTime"`
}

func rfc3339(t *time.Time) *string {
	if t == nil {
		return nil
	}
	v := t.UTC().Format(time.RFC3339)
	return &v
}

func jobDTO(j schedule.Job) scheduledJob {
	return scheduledJob{ID: j.ID, Source: j.Source, Cron: j.Cron, LastRun: rfc3339(j.LastRun),
		CurrentlyRunning: j.CurrentlyRunning, Paused: j.Paused, CurrentSessionID: j.CurrentSessionID,
		JobStartTime: rfc3339(j.ProcessStartTime)}
}

type jobsResponse struct {
	Jobs []scheduledJob `json:"jobs"`
}

func (a *schedulesAPI) list(context.Context, struct{}) (jobsResponse, error) {
	out := jobsResponse{Jobs: []scheduledJob{}}
	for _, j := range a.scheduler.List() {
		out.Jobs = append(out.Jobs, jobDTO(j))
	}
	return out, nil
}

type createScheduleRequest struct {
	ID     string          `json:"id"`
	Recipe json.RawMessage `json:"recipe"`
	Cron   string          `json:"cron"`
}

type jobResponse struct {
	Job scheduledJob `json:"job"`
}

// validScheduleID is goose's rule for a schedule's name.
func validScheduleID(id string) bool {
	if id == "" {
		return false
	}
	for _, c := range id {
		ok := c == '-' || c == '_' || c == ' ' || (c < 128 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'))
		if !ok {
			return false
		}
	}
	return true
}

func (a *schedulesAPI) create(_ context.Context, req createScheduleRequest) (jobResponse, error) {
	id := strings.TrimSpace(req.ID)
	if !validScheduleID(id) {
		return jobResponse{}, invalidParams("Schedule name must use only alphanumeric characters, hyphens, underscores, or spaces")
	}
	rec, err := recipeRequest{req.Recipe}.parse()
	if err != nil {
		return jobResponse{}, err
	}
	if rec.HasSecurityWarnings() {
		return jobResponse{}, invalidParams(hiddenCharsRefusal)
	}
	job, err := a.scheduler.CreateFromRecipe(id, req.Cron, rec)
	if err != nil {
		return jobResponse{}, err
	}
	return jobResponse{Job: jobDTO(job)}, nil
}

type scheduleIDRequest struct {
	ScheduleID string `json:"scheduleId"`
	Cron       string `json:"cron"`
	Limit      *int   `json:"limit"`
}

// delete removes the job and its copies (the recipe a
// library schedule points at stays in the library).
func (a *schedulesAPI) delete(_ context.Context, req scheduleIDRequest) (struct{}, error) {
	return struct{}{}, a.scheduler.Delete(req.ScheduleID, true)
}

func (a *schedulesAPI) pause(_ context.Context, req scheduleIDRequest) (struct{}, error) {
	return struct{}{}, a.scheduler.Pause(req.ScheduleID)
}

func (a *schedulesAPI) unpause(_ context.Context, req scheduleIDRequest) (struct{}, error) {
	return struct{}{}, a.scheduler.Unpause(req.ScheduleID)
}

func (a *schedulesAPI) update(_ context.Context, req scheduleIDRequest) (jobResponse, error) {
	if err := a.scheduler.Update(req.ScheduleID, req.Cron); err != nil {
		return jobResponse{}, err
	}
	j, err := a.scheduler.Get(req.ScheduleID)
	if err != nil {
		return jobResponse{}, err
	}
	return jobResponse{Job: jobDTO(j)}, nil
}

type runNowResponse struct {
	Status    string  `json:"status"`
	SessionID *string `json:"sessionId"`
}

// runNow runs the job and waits for it; a run killed
// meanwhile answers "cancelled", as goose does.
func (a *schedulesAPI) runNow(ctx context.Context, req scheduleIDRequest) (runNowResponse, error) {
	id, err := a.scheduler.RunNow(ctx, req.ScheduleID)
	if err != nil {
		if errors.Is(err, context.Canceled) && ctx.Err() == nil {
			return runNowResponse{Status: "cancelled"}, nil
		}
		return runNowResponse{}, err
	}
	return runNowResponse{Status: "completed", SessionID: &id}, nil
}

func (a *schedulesAPI) sessions(ctx context.Context, req scheduleIDRequest) (map[string][]SessionInfo, error) {
	limit := 50
	if req.Limit != nil {
		limit = *req.Limit
	}
	sessions, err := schedule.Sessions(ctx, a.store, req.ScheduleID, limit)
	if err != nil {
		return nil, err
	}
	out := make([]SessionInfo, 0, len(sessions))
	for _, ss := range sessions {
		out = append(out, sessionInfo(ss))
	}
	return map[string][]SessionInfo{"sessions": out}, nil
}

type jobIDRequest struct {
	JobID string `json:"jobId"`
}

func (a *schedulesAPI) kill(_ context.Context, req jobIDRequest) (map[string]string, error) {
	if err := a.scheduler.Kill(req.JobID); err != nil {
		return nil, err
	}
	return map[string]string{"message": "Successfully killed running job '" + req.JobID + "'"}, nil
}

type inspectResponse struct {
	Running                bool    `json:"running"`
	SessionID              *string `json:"sessionId,omitempty"`
	JobStartTime           *string `json:"jobStartTime,omitempty"`
	RunningDurationSeconds *int64  `json:"runningDurationSeconds,omitempty"`
}

// inspect reports a job's run in progress, as goose does: the
// session may not be known yet early in a run.
func (a *schedulesAPI) inspect(_ context.Context, req jobIDRequest) (inspectResponse, error) {
	j, err := a.scheduler.Get(req.JobID)
	if err != nil {
		return inspectResponse{}, err
	}
	if !j.CurrentlyRunning {
		return inspectResponse{}, nil
	}
	out := inspectResponse{Running: true, SessionID: j.CurrentSessionID, JobStartTime: rfc3339(j.ProcessStartTime)}
	if j.ProcessStartTime != nil {
		secs := int64(time.Since(*j.ProcessStartTime).Seconds())
		out.RunningDurationSeconds = &secs
	}
	return out, nil
}
