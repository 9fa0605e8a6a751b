package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/schedule"
)

// schedulesAPI answers /schedule/* over the scheduler; a schedule's
// sessions are read from the store.
type schedulesAPI struct {
	scheduler *schedule.Scheduler
	store     agent.SessionReader
	clock     func() time.Time
}

func (a *schedulesAPI) routes() []route {
	rs := []route{
		{"GET", "/schedule/list", 0, noInput(a.listSchedules), nil},
		{"POST", "/schedule/create", 0, withBody(a.createSchedule), nil},
		{"PUT", "/schedule/{id}", 0, withBody(a.updateSchedule), nil},
		{"DELETE", "/schedule/delete/{id}", 0, noInput(a.deleteSchedule), nil},
		{"POST", "/schedule/{id}/pause", 0, noInput(a.pauseSchedule), nil},
		{"POST", "/schedule/{id}/unpause", 0, noInput(a.unpauseSchedule), nil},
		{"POST", "/schedule/{id}/run_now", 0, noInput(a.runScheduleNow), nil},
		{"POST", "/schedule/{id}/kill", 0, noInput(a.killSchedule), nil},
		{"GET", "/schedule/{id}/inspect", 0, noInput(a.inspectSchedule), nil},
		{"GET", "/schedule/{id}/sessions", 0, noInput(a.scheduleSessions), nil},
	}
	if a.scheduler == nil {
		return refuse(errSchedulerUnavailable, rs)
	}
	return rs
}

func (a *schedulesAPI) listSchedules(*http.Request) (reply, error) {
	jobs := a.scheduler.List()
	if jobs == nil {
		jobs = []schedule.Job{}
	}
	return ok(map[string]any{"jobs": jobs}), nil
}

type createScheduleRequest struct {
	ID     string          `json:"id"`
	Recipe json.RawMessage `json:"recipe"`
	Cron   string          `json:"cron"`
}

func (q createScheduleRequest) check() error {
	if err := (recipeBody{q.Recipe}).check(); err != nil {
		return err
	}
	return required("id", q.ID, "cron", q.Cron)
}

// createSchedule hands the posted recipe to the scheduler, which keeps it
// as schedule_sources/<id>.yaml and copies it into scheduled_recipes/.
func (a *schedulesAPI) createSchedule(_ *http.Request, q createScheduleRequest) (reply, error) {
	rec, err := recipeBody{q.Recipe}.parse()
	if err != nil {
		return reply{}, err
	}
	job, err := a.scheduler.CreateFromRecipe(q.ID, q.Cron, rec)
	if err != nil {
		return reply{}, err
	}
	return ok(job), nil
}

type updateScheduleRequest struct {
	Cron string `json:"cron"`
}

func (a *schedulesAPI) updateSchedule(r *http.Request, q updateScheduleRequest) (reply, error) {
	id := r.PathValue("id")
	if err := a.scheduler.Update(id, q.Cron); err != nil {
		return reply{}, err
	}
	job, err := a.scheduler.Get(id)
	if err != nil {
		return reply{}, err
	}
	return ok(job), nil
}

// deleteSchedule removes the job with its recipe copy and kept source.
func (a *schedulesAPI) deleteSchedule(r *http.Request) (reply, error) {
	if err := a.scheduler.Delete(r.PathValue("id"), true); err != nil {
		return reply{}, err
	}
	return noBody(http.StatusNoContent), nil
}

func (a *schedulesAPI) pauseSchedule(r *http.Request) (reply, error) {
	return noBody(http.StatusNoContent), a.scheduler.Pause(r.PathValue("id"))
}

func (a *schedulesAPI) unpauseSchedule(r *http.Request) (reply, error) {
	return noBody(http.StatusNoContent), a.scheduler.Unpause(r.PathValue("id"))
}

func (a *schedulesAPI) runScheduleNow(r *http.Request) (reply, error) {
	id, err := a.scheduler.RunNow(r.Context(), r.PathValue("id"))
	if err != nil {
		return reply{}, err
	}
	return ok(map[string]string{"session_id": id}), nil
}

func (a *schedulesAPI) killSchedule(r *http.Request) (reply, error) {
	err := a.scheduler.Kill(r.PathValue("id"))
	if errkind.Is(err, errkind.Conflict) {
		// goosed answers a job that is not running with 400 on this
		// route (its spec lists none).
		return reply{}, withStatus(http.StatusBadRequest, err)
	}
	return noBody(http.StatusOK), err
}

type inspectJobResponse struct {
	SessionID              *string `json:"sessionId"`
	ProcessStartTime       *string `json:"processStartTime"`
	RunningDurationSeconds *int64  `json:"runningDurationSeconds"`
}

func (a *schedulesAPI) inspectSchedule(r *http.Request) (reply, error) {
	info, err := a.scheduler.Inspect(r.PathValue("id"))
	if err != nil {
		return reply{}, err
	}
	out := inspectJobResponse{}
	if info != nil {
		start := info.StartTime.UTC().Format(time.RFC3339)
		secs := int64(a.clock().Sub(info.StartTime).Seconds())
		out = inspectJobResponse{SessionID: &info.SessionID, ProcessStartTime: &start, RunningDurationSeconds: &secs}
	}
	return ok(out), nil
}

// sessionDisplayInfo is goosed's camelCase SessionDisplayInfo.
type sessionDisplayInfo struct {
	ID                      string  `json:"id"`
	Name                    string  `json:"name"`
	CreatedAt               string  `json:"createdAt"`
	WorkingDir              string  `json:"workingDir"`
	ScheduleID              *string `json:"scheduleId"`
	MessageCount            int     `json:"messageCount"`
	TotalTokens             *int    `json:"totalTokens"`
	InputTokens             *int    `json:"inputTokens"`
	OutputTokens            *int    `json:"outputTokens"`
	AccumulatedTotalTokens  *int    `json:"accumulatedTotalTokens"`
	AccumulatedInputTokens  *int    `json:"accumulatedInputTokens"`
	AccumulatedOutputTokens *int    `json:"accumulatedOutputTokens"`
}

func (a *schedulesAPI) scheduleSessions(r *http.Request) (reply, error) {
	limit := 50
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return reply{}, badRequest("Invalid limit: %s", v)
		}
		limit = n
	}
	sessions, err := schedule.Sessions(r.Context(), a.store, r.PathValue("id"), limit)
	if err != nil {
		return reply{}, err
	}
	out := []sessionDisplayInfo{}
	for _, x := range sessions {
		out = append(out, sessionDisplayInfo{ID: x.ID, Name: x.Name, CreatedAt: x.CreatedAt.UTC().Format(time.RFC3339),
			WorkingDir: x.WorkingDir, ScheduleID: x.ScheduleID, MessageCount: x.MessageCount, TotalTokens: x.TotalTokens,
			InputTokens: x.InputTokens, OutputTokens: x.OutputTokens, AccumulatedTotalTokens: x.AccumulatedTotalTokens,
			AccumulatedInputTokens: x.AccumulatedInputTokens, AccumulatedOutputTokens: x.AccumulatedOutputTokens})
	}
	return ok(out), nil
}
