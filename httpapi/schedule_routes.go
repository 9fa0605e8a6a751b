package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
)

var errSchedulerUnavailable = errorf(http.StatusServiceUnavailable, "Scheduling is not available in this goose-acp server")

func (s *Server) scheduleRoutes() []route {
	return []route{
		{"GET", "/schedule/list", 0, hf(s.needScheduler(s.listSchedules))},
		{"POST", "/schedule/create", 0, hf(s.needScheduler(s.createSchedule))},
		{"PUT", "/schedule/{id}", 0, hf(s.needScheduler(s.updateSchedule))},
		{"DELETE", "/schedule/delete/{id}", 0, hf(s.needScheduler(s.deleteSchedule))},
		{"POST", "/schedule/{id}/pause", 0, hf(s.needScheduler(s.pauseSchedule))},
		{"POST", "/schedule/{id}/unpause", 0, hf(s.needScheduler(s.unpauseSchedule))},
		{"POST", "/schedule/{id}/run_now", 0, hf(s.needScheduler(s.runScheduleNow))},
		{"POST", "/schedule/{id}/kill", 0, hf(s.needScheduler(s.killSchedule))},
		{"GET", "/schedule/{id}/inspect", 0, hf(s.needScheduler(s.inspectSchedule))},
		{"GET", "/schedule/{id}/sessions", 0, hf(s.needScheduler(s.scheduleSessions))},
	}
}

// needScheduler answers 503 when the server runs without a scheduler.
func (s *Server) needScheduler(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.opts.Scheduler == nil {
			s.writeError(w, r, errSchedulerUnavailable)
			return
		}
		h(w, r)
	}
}

func (s *Server) listSchedules(w http.ResponseWriter, r *http.Request) {
	jobs := s.opts.Scheduler.List()
	if jobs == nil {
		jobs = []schedule.Job{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"jobs": jobs})
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

// scheduleSourcesDir keeps the recipes posted to /schedule/create. The
// scheduler copies each into scheduled_recipes/, but the job's
// recipe_base_dir points at the source's directory (where relative
// sub-recipes and templates resolve), so that directory must outlive the
// request.
func (s *Server) scheduleSourcesDir() string {
	return filepath.Join(s.opts.DataDir, "schedule_sources")
}

// createSchedule writes the recipe to schedule_sources/<id>.yaml, which the
// scheduler copies into scheduled_recipes/<id>.yaml.
func (s *Server) createSchedule(w http.ResponseWriter, r *http.Request) {
	var q createScheduleRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	rec, err := recipeBody{q.Recipe}.parse()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	y, err := recipe.ToYAML(rec)
	if err != nil {
		s.writeError(w, r, badRequest("%w", err))
		return
	}
	if s.opts.DataDir == "" {
		s.writeError(w, r, errors.New("no data directory to keep scheduled recipes in"))
		return
	}
	if strings.ContainsAny(q.ID, `/\`) || q.ID == "." || q.ID == ".." {
		s.writeError(w, r, badRequest("invalid schedule id %q", q.ID))
		return
	}
	dir := s.scheduleSourcesDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		s.writeError(w, r, err)
		return
	}
	// Written under a unique name first: an id that already exists must
	// not clobber the kept source of the existing job.
	f, err := os.CreateTemp(dir, "new-*.yaml")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	tmp := f.Name()
	_, werr := f.WriteString(y)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(tmp)
		s.writeError(w, r, err)
		return
	}
	job, err := s.opts.Scheduler.Create(schedule.CreateRequest{ID: q.ID, RecipePath: tmp, Cron: q.Cron})
	if err != nil {
		os.Remove(tmp)
		s.writeError(w, r, err)
		return
	}
	if err := os.Rename(tmp, filepath.Join(dir, q.ID+".yaml")); err != nil {
		s.log.Warn("keeping scheduled recipe source", "job", q.ID, "error", err)
	}
	writeJSON(w, http.StatusOK, job)
}

func (s *Server) updateSchedule(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Cron string `json:"cron"`
	}
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("id")
	if err := s.opts.Scheduler.Update(id, q.Cron); err != nil {
		s.writeError(w, r, err)
		return
	}
	job, err := s.opts.Scheduler.Get(id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, job)
}

func (s *Server) deleteSchedule(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	job, _ := s.opts.Scheduler.Get(id)
	if err := s.opts.Scheduler.Delete(id, true); err != nil {
		s.writeError(w, r, err)
		return
	}
	// A job created through /schedule/create also drops its kept source.
	if s.opts.DataDir != "" && job.RecipeBaseDir != nil && *job.RecipeBaseDir == s.scheduleSourcesDir() {
		os.Remove(filepath.Join(s.scheduleSourcesDir(), id+".yaml"))
	}
	writeEmpty(w, http.StatusNoContent)
}

func (s *Server) pauseSchedule(w http.ResponseWriter, r *http.Request) {
	if err := s.opts.Scheduler.Pause(r.PathValue("id")); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEmpty(w, http.StatusNoContent)
}

func (s *Server) unpauseSchedule(w http.ResponseWriter, r *http.Request) {
	if err := s.opts.Scheduler.Unpause(r.PathValue("id")); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEmpty(w, http.StatusNoContent)
}

func (s *Server) runScheduleNow(w http.ResponseWriter, r *http.Request) {
	id, err := s.opts.Scheduler.RunNow(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"session_id": id})
}

func (s *Server) killSchedule(w http.ResponseWriter, r *http.Request) {
	if err := s.opts.Scheduler.Kill(r.PathValue("id")); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEmpty(w, http.StatusOK)
}

type inspectJobResponse struct {
	SessionID              *string `json:"sessionId"`
	ProcessStartTime       *string `json:"processStartTime"`
	RunningDurationSeconds *int64  `json:"runningDurationSeconds"`
}

func (s *Server) inspectSchedule(w http.ResponseWriter, r *http.Request) {
	info, err := s.opts.Scheduler.Inspect(r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := inspectJobResponse{}
	if info != nil {
		start := info.StartTime.UTC().Format(time.RFC3339)
		secs := int64(s.opts.Clock().Sub(info.StartTime).Seconds())
		out = inspectJobResponse{SessionID: &info.SessionID, ProcessStartTime: &start, RunningDurationSeconds: &secs}
	}
	writeJSON(w, http.StatusOK, out)
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

func (s *Server) scheduleSessions(w http.ResponseWriter, r *http.Request) {
	limit := 50
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			s.writeError(w, r, badRequest("Invalid limit: %s", v))
			return
		}
		limit = n
	}
	sessions, err := schedule.Sessions(r.Context(), s.opts.Store, r.PathValue("id"), limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := []sessionDisplayInfo{}
	for _, x := range sessions {
		out = append(out, sessionDisplayInfo{ID: x.ID, Name: x.Name, CreatedAt: x.CreatedAt.UTC().Format(time.RFC3339),
			WorkingDir: x.WorkingDir, ScheduleID: x.ScheduleID, MessageCount: x.MessageCount, TotalTokens: x.TotalTokens,
			InputTokens: x.InputTokens, OutputTokens: x.OutputTokens, AccumulatedTotalTokens: x.AccumulatedTotalTokens,
			AccumulatedInputTokens: x.AccumulatedInputTokens, AccumulatedOutputTokens: x.AccumulatedOutputTokens})
	}
	writeJSON(w, http.StatusOK, out)
}
