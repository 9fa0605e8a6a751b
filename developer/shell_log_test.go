//go:build !windows

package developer

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a bytes.Buffer safe for the handler's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) records(t *testing.T) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// Shell calls leave structured logs (start, completion with exit code,
// timeout, spawn failure) and counters an operator can read.
func TestShellStructuredLogsAndCounters(t *testing.T) {
	var logs syncBuffer
	shell := "/bin/sh"
	stats := &ShellStats{}
	h := newHarness(t, Options{
		Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
		Stats:  stats,
		Getenv: func(k string) string {
			if k == "GOOSE_SHELL" {
				return shell
			}
			return os.Getenv(k)
		},
	})
	h.mustCall(t, "shell", map[string]any{"command": "exit 3"})
	h.mustCall(t, "shell", map[string]any{"command": "sleep 5", "timeout_secs": 1})
	shell = "/nonexistent/goose-acp-test-shell"
	_, err := h.call(t, "shell", map[string]any{"command": "true"})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/goose-acp-test-shell") {
		t.Fatalf("spawn failure error = %v", err)
	}

	var got []string
	for _, r := range logs.records(t) {
		if !strings.HasPrefix(r["msg"].(string), "shell ") {
			continue
		}
		entry := r["level"].(string) + " " + r["msg"].(string) + " " + r["command"].(string)
		if code, ok := r["exit_code"]; ok {
			entry += " exit_code=" + jsonString(code)
		}
		if _, ok := r["err"]; ok {
			entry += " err"
		}
		got = append(got, entry)
	}
	want := []string{
		"INFO shell start exit 3", "INFO shell completed exit 3 exit_code=3",
		"INFO shell start sleep 5", "INFO shell timed out sleep 5",
		"INFO shell start true", "ERROR shell spawn failed true err",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("shell logs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if stats.Started.Load() != 3 || stats.Failed.Load() != 1 || stats.TimedOut.Load() != 1 || stats.SpawnErrors.Load() != 1 ||
		stats.Succeeded.Load() != 0 || stats.MeanLatency() <= 0 {
		t.Fatalf("stats: started=%d failed=%d timedOut=%d spawn=%d ok=%d mean=%v", stats.Started.Load(), stats.Failed.Load(),
			stats.TimedOut.Load(), stats.SpawnErrors.Load(), stats.Succeeded.Load(), stats.MeanLatency())
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
