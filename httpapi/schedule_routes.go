package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/goose-acp/goose-acp/core/schedule"
)

func (s *Server) scheduleRoutes() []route {
	rs := []route{
		{"GET", "/schedule/list", 0, noInput(s, s.listSchedules)},
		{"POST", "/schedule/create", 0, withBody(s, s.createSchedule)},
		{"PUT", "/schedule/{id}", 0, withBody(s, s.updateSchedule)},
		{"DELETE", "/schedule/delete/{id}", 0, noInput(s, s.deleteSchedule)},
		{"POST", "/schedule/{id}/pause", 0, noInput(s, s.pauseSchedule)},
		{"POST", "/schedule/{id}/unpause", 0, noInput(s, s.unpauseSchedule)},
		{"POST", "/schedule/{id}/run_now", 0, noInput(s, s.runScheduleNow)},
		{"POST", "/schedule/{id}/kill", 0, noInput(s, s.killSchedule)},
		{"GET", "/schedule/{id}/inspect", 0, noInput(s, s.inspectSchedule)},
		{"GET", "/schedule/{id}/sessions", 0, noInput(s, s.scheduleSessions)},
	}
	for i := range rs {
		rs[i].handler = s.needScheduler(rs[i].handler)
	}
	return rs
}

func (s *Server) listSchedules(*http.Request) (reply, error) {
	jobs := s.opts.Scheduler.List()
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
func (s *Server) createSchedule(_ *http.Request, q createScheduleRequest) (reply, error) {
	rec, err := recipeBody{q.Recipe}.parse()
	if err != nil {
		return reply{}, err
	}
	job, err := s.opts.Scheduler.CreateFromRecipe(q.ID, q.Cron, rec)
	if err != nil {
		return reply{}, err
	}
	return ok(job), nil
}

type updateScheduleRequest struct {
	Cron string `json:"cron"`
}

func (s *Server) updateSchedule(r *http.Request, q updateScheduleRequest) (reply, error) {
	id := r.PathValue("id")
	if err := s.opts.Scheduler.Update(id, q.Cron); err != nil {
		return reply{}, err
	}
	job, err := s.opts.Scheduler.Get(id)
	if err != nil {
		return reply{}, err
	}
	return ok(job), nil
}

// deleteSchedule removes the job with its recipe copy and kept source.
func (s *Server) deleteSchedule(r *http.Request) (reply, error) {
	if err := s.opts.Scheduler.Delete(r.PathValue("id"), true); err != nil {
		return reply{}, err
	}
	return noBody(http.StatusNoContent), nil
}

func (s *Server) pauseSchedule(r *http.Request) (reply, error) {
	return noBody(http.StatusNoContent), s.opts.Scheduler.Pause(r.PathValue("id"))
}

func (s *Server) unpauseSchedule(r *http.Request) (reply, error) {
	return noBody(http.StatusNoContent), s.opts.Scheduler.Unpause(r.PathValue("id"))
}

func (s *Server) runScheduleNow(r *http.Request) (reply, error) {
	id, err := s.opts.Scheduler.RunNow(r.Context(), r.PathValue("id"))
	if err != nil {
		return reply{}, err
	}
	return ok(map[string]string{"session_id": id}), nil
}

func (s *Server) killSchedule(r *http.Request) (reply, error) {
	return noBody(http.StatusOK), s.opts.Scheduler.Kill(r.PathValue("id"))
}

type inspectJobResponse struct {
	SessionID              *string `json:"sessionId"`
	ProcessStartTime       *string `json:"processStartTime"`
	RunningDurationSeconds *int64  `json:"runningDurationSeconds"`
}

func (s *Server) inspectSchedule(r *http.Request) (reply, error) {
	info, err := s.opts.Scheduler.Inspect(r.PathValue("id"))
	if err != nil {
		return reply{}, err
	}
	out := inspectJobResponse{}
	if info != nil {
		start := info.StartTime.UTC().Format(time.RFC3339)
		secs := int64(s.opts.Clock().Sub(info.StartTime).Seconds())
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

func (s *Server) scheduleSessions(r *http.Request) (reply, error) {
	limit := 50
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return reply{}, badRequest("Invalid limit: %s", v)
		}
		limit = n
	}
	sessions, err := schedule.Sessions(r.Context(), s.opts.Store, r.PathValue("id"), limit)
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
