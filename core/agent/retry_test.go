package agent

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/goose-acp/goose-acp/core/recipe"
)

func TestRecipeRetry(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("checks run through sh")
	}
	flag := filepath.Join(t.TempDir(), "ok")
	onFailure := "touch " + flag
	tests := []struct {
		name     string
		retry    recipe.RetryConfig
		requests int
		last     string
	}{
		{"passes after on_failure", recipe.RetryConfig{MaxRetries: 2, Checks: []recipe.SuccessCheck{{Type: "shell", Command: "test -f " + flag}}, OnFailure: &onFailure}, 2, "second"},
		{"exhausted", recipe.RetryConfig{MaxRetries: 1, Checks: []recipe.SuccessCheck{{Type: "shell", Command: "false"}}}, 2, recipe.MaxRetriesMessage(1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil, say("first"), say("second"))
			h.start(StartOptions{Recipe: &Recipe{Retry: &tc.retry}})
			out, evs := h.reply(context.Background(), "do it", nil)
			msgs := messages(evs)
			if out.StopReason != EndTurn || msgs[len(msgs)-1].AsText() != tc.last {
				t.Fatalf("stop=%v last=%q", out.StopReason, msgs[len(msgs)-1].AsText())
			}
			if n := h.prov.numRequests(); n != tc.requests {
				t.Fatalf("requests = %d", n)
			}
			// The retry restarts from the initial messages.
			if second := h.prov.request(1).Messages; len(second) != 1 {
				t.Fatalf("retry request has %d messages", len(second))
			}
		})
	}
}
