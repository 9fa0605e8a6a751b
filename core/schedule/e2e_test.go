package schedule

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

// sessionRunner is the shape of the agent-backed Runner the lead wires:
// build the recipe, open a "scheduled" session with schedule_id, send the
// prompt and store the reply. The model here is a stub that answers from
// the prompt; the real agent loop is exercised by the e2e suite.
type sessionRunner struct {
	store session.Store
	done  chan string
}

func (r *sessionRunner) RunRecipe(ctx context.Context, job Job, recipePath string) (string, error) {
	rec, err := BuildRecipe(job)
	if err != nil {
		return "", err
	}
	prompt, err := rec.PromptText()
	if err != nil {
		return "", err
	}
	s, err := r.store.Create(ctx, session.NewSession{WorkingDir: job.RecipeDir(), Name: "Scheduled job: " + job.ID, SessionType: session.TypeScheduled})
	if err != nil {
		return "", err
	}
	id := job.ID
	if err := r.store.Update(ctx, s.ID, session.Update{ScheduleID: &id}); err != nil {
		return "", err
	}
	now := time.Now().Unix()
	if err := r.store.AppendMessage(ctx, s.ID, conversation.UserText(now, prompt)); err != nil {
		return "", err
	}
	reply := "Report: " + strings.TrimPrefix(prompt, "Report on ") + " is healthy."
	if err := r.store.AppendMessage(ctx, s.ID, conversation.AssistantText(now, reply)); err != nil {
		return "", err
	}
	r.done <- s.ID
	return s.ID, nil
}

// TestEveryOneSecondRealClock: a job created through the scheduler API
// runs on a real 1-second tick and leaves a scheduled session with the
// recipe's output.
func TestEveryOneSecondRealClock(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a real cron tick")
	}
	data, src := t.TempDir(), t.TempDir()
	store := memory.New(nil)
	runner := &sessionRunner{store: store, done: make(chan string, 8)}
	s, err := New(Options{DataDir: data, Runner: runner})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recipePath := filepath.Join(src, "health.yaml")
	os.WriteFile(recipePath, []byte("title: Health\ndescription: Health check\nprompt: Report on {{ service }}\nparameters:\n  - {key: service, input_type: string, requirement: required, description: Service}\n"), 0o644)
	if _, err := s.Create(CreateRequest{ID: "health", RecipePath: recipePath, Cron: "@every 1s", Parameters: Params{{Key: "service", Value: "billing"}}}); err != nil {
		t.Fatal(err)
	}
	var sid string
	select {
	case sid = <-runner.done:
	case <-time.After(5 * time.Second):
		t.Fatal("job did not run within 5s")
	}
	got, err := store.Get(context.Background(), sid, true)
	if err != nil {
		t.Fatal(err)
	}
	if got.SessionType != session.TypeScheduled || got.ScheduleID == nil || *got.ScheduleID != "health" {
		t.Fatalf("session = %+v", got)
	}
	last := got.Conversation[len(got.Conversation)-1]
	if last.Role != conversation.RoleAssistant || last.Content[0].Text.Text != "Report: billing is healthy." {
		t.Fatalf("last message = %+v", last)
	}
	waitFor(t, "last_run", func() bool { j, _ := s.Get("health"); return j.LastRun != nil && !j.CurrentlyRunning })
}

func TestSessionsForJob(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)
	store := memory.New(func() time.Time { now = now.Add(time.Minute); return now })
	mk := func(typ session.Type, sched string) string {
		s, _ := store.Create(ctx, session.NewSession{WorkingDir: "/w", Name: SessionName(sched), SessionType: typ})
		if sched != "" {
			store.Update(ctx, s.ID, session.Update{ScheduleID: &sched})
		}
		return s.ID
	}
	first := mk(session.TypeScheduled, "a")
	mk(session.TypeScheduled, "b")
	mk(session.TypeUser, "")
	second := mk(session.TypeScheduled, "a")
	got, err := Sessions(ctx, store, "a", 10)
	if err != nil || len(got) != 2 || got[0].ID != second || got[1].ID != first || got[0].Name != "Scheduled job: a" {
		t.Fatalf("got %+v, %v", got, err)
	}
	if got, _ := Sessions(ctx, store, "a", 1); len(got) != 1 || got[0].ID != second {
		t.Fatalf("limited: %+v", got)
	}
}
