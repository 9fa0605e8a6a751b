package agent

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/developer"
)

// processesWithEnv returns the pids whose environment holds marker.
func processesWithEnv(t *testing.T, marker string) []string {
	t.Helper()
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err == nil && bytes.Contains(env, []byte(marker)) {
			out = append(out, filepath.Base(d))
		}
	}
	return out
}

// TestCancelDeveloperShell runs `sleep 30` through the real developer
// server and cancels the turn: Reply returns within 2 s and no process of
// the call is left.
func TestCancelDeveloperShell(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks leftover processes through /proc (linux only)")
	}
	marker := fmt.Sprintf("GOOSE_ACP_CANCEL_MARK=%d", time.Now().UnixNano())
	h := newHarnessWith(t, nil, func(o *Options) {
		o.Builtins["developer"] = func(ctx context.Context, env extension.Env) (extension.Server, error) {
			return extension.Direct(developer.NewDirect(developer.Options{Surface: developer.Editor, WorkingDir: env.WorkingDir})), nil
		}
	}, calls(call("sh", "shell", map[string]any{"command": marker + " sleep 30"})))
	h.start(StartOptions{Extensions: []config.ExtensionConfig{{Type: config.ExtensionBuiltin, Name: "developer"}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for limit := time.Now().Add(10 * time.Second); len(processesWithEnv(t, marker)) == 0 && time.Now().Before(limit); {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	start := time.Now()
	out, _ := h.reply(ctx, "sleep please", nil)
	elapsed := time.Since(start)
	if out.StopReason != Cancelled {
		t.Fatalf("stop = %v", out.StopReason)
	}
	if elapsed > 2*time.Second {
		t.Fatalf("cancel took %v", elapsed)
	}
	deadline := time.Now().Add(time.Second)
	for {
		left := processesWithEnv(t, marker)
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes left after cancel: %v", left)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDeveloperShellOutputNotifications runs a real developer shell call:
// its live output reaches the sink as notifications/message tagged with
// the tool request id.
func TestDeveloperShellOutputNotifications(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a POSIX shell command")
	}
	// The command outlives its output line: live output is what is being
	// tested, and the MCP client may deliver a notification after the
	// result of a call that ends at once.
	h := newHarnessWith(t, nil, func(o *Options) {
		o.Builtins["developer"] = func(ctx context.Context, env extension.Env) (extension.Server, error) {
			return extension.Direct(developer.NewDirect(developer.Options{Surface: developer.Editor, WorkingDir: env.WorkingDir})), nil
		}
	}, calls(call("sh1", "shell", map[string]any{"command": "echo live-line; sleep 0.2"})), say("ok"))
	h.start(StartOptions{Extensions: []config.ExtensionConfig{{Type: config.ExtensionBuiltin, Name: "developer"}}})
	_, evs := h.reply(context.Background(), "run", nil)
	found := false
	for _, e := range evs {
		if n, ok := e.(NotificationEvent); ok && n.RequestID == "sh1" && n.Method == "notifications/message" && bytes.Contains(n.Params, []byte("live-line")) {
			found = true
		}
	}
	if !found {
		t.Fatalf("no shell output notification in %#v", evs)
	}
}
