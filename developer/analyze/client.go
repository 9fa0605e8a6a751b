package analyze

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
