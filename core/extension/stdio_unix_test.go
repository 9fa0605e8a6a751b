//go:build !windows

package extension

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
)

func TestStdioExtension(t *testing.T) {
	m := newManager(t, Options{Secret: func(k string) (string, bool) { return "s3cret", k == "API_KEY" }})
	cfg := stdioConfig("Std IO!")
	cfg.EnvKeys = []string{"API_KEY"}
	if err := m.Add(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	res, err := m.Call(context.Background(), "c", "stdio___env", map[string]any{"Name": "API_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Content[0].Text != "s3cret" {
		t.Fatalf("env = %q", res.Content[0].Text)
	}
	// The child's process group dies with the extension.
	res, err = m.Call(context.Background(), "c", "stdio___spawn", nil)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(res.Content[0].Text)
	if err := m.Remove("Std IO!"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d survived", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestInlinePythonRunsThroughUvx(t *testing.T) {
	bin := t.TempDir()
	argsFile := filepath.Join(t.TempDir(), "args")
	exe, _ := os.Executable()
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + argsFile + "\nexec env " + serverEnv + "=1 " + exe + " -test.run='^$'\n"
	if err := os.WriteFile(filepath.Join(bin, "uvx"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	var logs bytes.Buffer
	var mu sync.Mutex
	m := newManager(t, Options{Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	cfg := config.ExtensionConfig{Type: config.ExtensionInlinePython, Name: "py", Code: "print('hi')", Dependencies: []string{"requests==2.32.0"}}
	if err := m.Add(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	res, err := m.Call(context.Background(), "c", "py__echo", nil)
	if err != nil || res.Content[0].Text != "echo:{}" {
		t.Fatalf("call: %v %+v", err, res)
	}
	args, _ := os.ReadFile(argsFile)
	lines := strings.Split(strings.TrimSpace(string(args)), "\n")
	if len(lines) != 6 || strings.Join(lines[:5], " ") != "--with mcp --with requests==2.32.0 python" || filepath.Base(lines[5]) != "py.py" {
		t.Fatalf("uvx args = %q", lines)
	}
	// The child's stderr went to the log.
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "test server starting") {
		t.Fatalf("stderr not logged: %s", logs.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
