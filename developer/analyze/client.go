package analyze

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// HelperName is the helper's file name (with .exe on windows).
var HelperName = helperName(runtime.GOOS)

func helperName(goos string) string {
	if goos == "windows" {
		return "goose-acp-analyze.exe"
	}
	return "goose-acp-analyze"
}

// HelperEnv names the helper's path explicitly.
const HelperEnv = "GOOSE_ACP_ANALYZE"

// Find returns the helper to run: $GOOSE_ACP_ANALYZE when set, else
// goose-acp-analyze beside executable (the running goose-acp, symlinks
// resolved; nil means os.Executable), else the first on PATH. None →
// an error matching ErrNoHelper that says where it looked and how to
// build one.
func Find(getenv func(string) string, executable func() (string, error)) (string, error) {
	if p := getenv(HelperEnv); p != "" {
		found, err := exec.LookPath(p)
		if err != nil {
			return "", &Error{Kind: ErrNoHelper, Msg: fmt.Sprintf("analyze cannot run its helper: %s is set to %s, "+
				"which is not an executable file (%v). Point it at a goose-acp-analyze built with cgo "+
				"(go build -o %s ./cmd/goose-acp-analyze, which needs a C compiler such as gcc or clang) "+
				"or unset it to use the one beside goose-acp.", HelperEnv, p, unwrapAll(err), p)}
		}
		return found, nil
	}
	if executable == nil {
		executable = os.Executable
	}
	dir, dirErr := agentDir(executable)
	if dirErr == nil {
		if p, err := exec.LookPath(filepath.Join(dir, HelperName)); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath(HelperName); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, nil
		}
		return p, nil
	}
	where, target := "beside goose-acp", filepath.Join("<directory of goose-acp>", HelperName)
	if dirErr == nil {
		where, target = "in "+dir+" beside goose-acp", filepath.Join(dir, HelperName)
	}
	return "", &Error{Kind: ErrNoHelper, Msg: fmt.Sprintf("analyze is not available: its helper program %s was not found "+
		"(%s is not set, and it is neither %s nor on PATH). It needs cgo and a C compiler (gcc or clang); "+
		"build it from the goose-acp source into goose-acp's directory: go build -o %s ./cmd/goose-acp-analyze",
		HelperName, HelperEnv, where, target)}
}

// agentDir is the directory of the running executable, symlinks resolved.
func agentDir(executable func() (string, error)) (string, error) {
	exe, err := executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Dir(exe), nil
}

func unwrapAll(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// Analyze runs one analysis in the helper Find returns (with os.Getenv).
func Analyze(ctx context.Context, req Request) (string, error) {
	helper, err := Find(os.Getenv, nil)
	if err != nil {
		return "", err
	}
	return Run(ctx, helper, req)
}

// stderrLimit bounds what is kept of the helper's stderr for an error.
const stderrLimit = 4 << 10

// Run runs one analysis in helper: the request on its stdin, the answer
// read from its stdout. Cancelling ctx kills the helper, and Run returns
// only once it has been reaped. The text is goose's analysis (or its
// large-output warning); errors match the sentinels and carry goose's
// message.
func Run(ctx context.Context, helper string, req Request) (string, error) {
	in, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("analyze: encoding the request: %w", err)
	}
	cmd := exec.CommandContext(ctx, helper)
	cmd.Stdin = bytes.NewReader(in)
	var stdout bytes.Buffer
	stderr := &tailBuffer{limit: stderrLimit}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	// The helper starts no processes of its own; the delay only bounds a
	// wait on pipes if something it ran still held them.
	cmd.WaitDelay = time.Second
	release := dieWithParent(cmd)
	runErr := cmd.Run()
	release()
	if ctx.Err() != nil {
		return "", fmt.Errorf("analyze: %w", ctx.Err())
	}
	var a Answer
	dec := json.NewDecoder(&stdout)
	if err := dec.Decode(&a); err != nil || dec.More() {
		if runErr == nil {
			runErr = fmt.Errorf("its output is not one answer: %q", truncate(stdout.String(), 200))
		}
		return "", fmt.Errorf("analyze: %s failed: %w%s", helper, runErr, stderr.suffix())
	}
	return a.result()
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// tailBuffer keeps the last limit bytes written to it.
type tailBuffer struct {
	limit int
	b     []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - t.limit; over > 0 {
		t.b = t.b[over:]
	}
	return len(p), nil
}

func (t *tailBuffer) suffix() string {
	s := strings.TrimSpace(string(t.b))
	if s == "" {
		return ""
	}
	return ": " + s
}
