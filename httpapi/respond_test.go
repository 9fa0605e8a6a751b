package httpapi

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/unavailable"
)

// The one table: the status and body a client reads for each kind of
// core failure.
func TestErrorTableOverHTTP(t *testing.T) {
	out := writer{log: slog.New(slog.DiscardHandler)}
	for _, c := range []struct {
		name   string
		err    error
		status int
		body   string
	}{
		{"bad input, with core's detail", fmt.Errorf("rename: %w", errkind.Wrapf(agent.ErrInvalidSessionName, "Session name cannot be empty")),
			400, `{"message":"Session name cannot be empty"}`},
		{"a busy session", agent.ErrSessionBusy, 400, `{"message":"` + agent.ErrSessionBusy.Error() + `"}`},
		{"a missing session", fmt.Errorf("%w: s1", session.ErrNotFound), 404, `{"message":"` + session.ErrNotFound.Error() + `: s1"}`},
		{"a conflict", fmt.Errorf("create: %w", schedule.ErrJobExists), 409, `{"message":"create: ` + schedule.ErrJobExists.Error() + `"}`},
		{"a session the agent has not loaded", fmt.Errorf("%w: s1", agent.ErrSessionNotLoaded), 424, `{"message":"session not loaded: s1"}`},
		{"no provider", agent.ErrNoProvider, 424, `{"message":"` + agent.ErrNoProvider.Error() + `"}`},
		{"a service this server runs without", errNoConfig, 503, `{"message":"configuration is not available in this goose-acp server"}`},
		{"a feature goose-acp does not ship", unavailable.Dictation.Error(), 501, `{"message":"` + unavailable.Dictation.Message() + `"}`},
		{"anything else", errors.New("disk full"), 500, `{"message":"disk full"}`},
		{"a route's own status and words", badRequest("Search query cannot be empty"), 400, `{"message":"Search query cannot be empty"}`},
	} {
		w := httptest.NewRecorder()
		out.error(w, httptest.NewRequest("GET", "/x", nil), c.err)
		if w.Code != c.status || w.Body.String() != c.body {
			t.Errorf("%s: %d %s, want %d %s", c.name, w.Code, w.Body.String(), c.status, c.body)
		}
	}
}
