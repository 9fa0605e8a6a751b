package recipe

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

func needShell(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the checks below are POSIX shell commands")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("sh not installed")
	}
}

func i64(v int64) *int64 { return &v }

func TestRunChecks(t *testing.T) {
	needShell(t)
	ctx := context.Background()
	pass := RetryConfig{MaxRetries: 1, Checks: []SuccessCheck{{Type: "Shell", Command: "echo test"}, {Type: "Shell", Command: `test "$AGENT" = goose && test "$GOOSE_TERMINAL" = 1`}}}
	if ok, err := RunChecks(ctx, pass, nil); !ok || err != nil {
		t.Fatalf("pass: %v %v", ok, err)
	}
	fail := RetryConfig{MaxRetries: 1, Checks: []SuccessCheck{{Type: "Shell", Command: "true"}, {Type: "Shell", Command: "false"}}}
	if ok, err := RunChecks(ctx, fail, nil); ok || err != nil {
		t.Fatalf("fail: %v %v", ok, err)
	}
	// The bound is far inside the sleep's 30 s and far above a loaded
	// machine's delays: it only tells a timed-out check from a waited one.
	slow := RetryConfig{MaxRetries: 1, TimeoutSeconds: i64(1), Checks: []SuccessCheck{{Type: "Shell", Command: "sleep 30"}}}
	start := time.Now()
	_, err := RunChecks(ctx, slow, nil)
	if !errors.Is(err, ErrCommandTimeout) || !strings.HasPrefix(err.Error(), "Shell command timed out after 1s: sleep 30") || time.Since(start) > 20*time.Second {
		t.Fatalf("timeout: %v after %v", err, time.Since(start))
	}
}

func TestRunOnFailure(t *testing.T) {
	needShell(t)
	cmd := "echo cleaning >&2; exit 3"
	err := RunOnFailure(context.Background(), RetryConfig{MaxRetries: 1, OnFailure: &cmd}, nil)
	if err == nil || err.Error() != "On_failure command failed: command 'echo cleaning >&2; exit 3' exited with status exit status: 3, stderr: cleaning\n" {
		t.Fatalf("err = %v", err)
	}
	ok := "true"
	if err := RunOnFailure(context.Background(), RetryConfig{MaxRetries: 1, OnFailure: &ok}, nil); err != nil {
		t.Fatal(err)
	}
	if err := RunOnFailure(context.Background(), RetryConfig{MaxRetries: 1}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestRetryTimeouts(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	r := RetryConfig{}
	if d := r.CheckTimeout(env(nil)); d != 300*time.Second {
		t.Errorf("default check = %v", d)
	}
	if d := r.OnFailureTimeout(env(nil)); d != 600*time.Second {
		t.Errorf("default on_failure = %v", d)
	}
	e := env(map[string]string{RetryTimeoutEnv: "42", OnFailureTimeoutEnv: "7"})
	if r.CheckTimeout(e) != 42*time.Second || r.OnFailureTimeout(e) != 7*time.Second {
		t.Error("env not used")
	}
	r.TimeoutSeconds, r.OnFailureTimeoutSeconds = i64(5), i64(6)
	if r.CheckTimeout(e) != 5*time.Second || r.OnFailureTimeout(e) != 6*time.Second {
		t.Error("recipe value not preferred")
	}
	if MaxRetriesMessage(3) != "Maximum retry attempts (3) exceeded. Unable to complete the task successfully." {
		t.Error(MaxRetriesMessage(3))
	}
	tb := &tailBuffer{max: 4}
	tb.Write([]byte("abc"))
	tb.Write([]byte("def"))
	if tb.String() != "cdef" {
		t.Errorf("tail = %q", tb.String())
	}
	tb.Write([]byte("0123456789"))
	if tb.String() != "6789" {
		t.Errorf("tail = %q", tb.String())
	}
}
