package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/internal/helperexe"
)

func helperEnv(vars map[string]string) *environment {
	return &environment{ctx: context.Background(), stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{},
		getenv: func(k string) string { return vars[k] }}
}

// No helper beside goose-acp (here: the test binary) or on PATH: where it
// looked, the build command, the flags form; exit 1.
func TestConfigureHelperMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir, err := helperexe.Dir(os.Executable)
	if err != nil {
		t.Fatal(err)
	}
	env := helperEnv(nil)
	if code := runConfigureHelper(env); code != exitFailed {
		t.Fatalf("exit %d, want %d", code, exitFailed)
	}
	name := helperexe.Name("goose-acp-configure")
	want := "Error: goose-acp configure runs its terminal set-up in a separate program, and " + name + " was not found " +
		"(GOOSE_ACP_CONFIGURE is not set, and it is neither in " + dir + " beside goose-acp nor on PATH).\n" +
		"Build it from the goose-acp source into goose-acp's directory: go build -o " + filepath.Join(dir, name) + " ./cmd/goose-acp-configure\n" +
		"Or configure without it: goose-acp configure --provider openai --model gpt-4o-mini --api-key-env OPENAI_API_KEY " +
		"(goose-acp configure --help lists the flags).\n"
	if got := env.stderr.(*bytes.Buffer).String(); got != want {
		t.Errorf("stderr:\n%q\nwant\n%q", got, want)
	}
	if got := env.stdout.(*bytes.Buffer).String(); got != "" {
		t.Errorf("stdout %q", got)
	}
}

// The helper gets goose-acp's stdio, the log flags and goose-acp's path;
// its exit status is goose-acp's.
func TestConfigureHelperRunsWithTheSameStdio(t *testing.T) {
	if filepath.Separator == '\\' {
		t.Skip("a shell script stands in for the helper")
	}
	script := filepath.Join(t.TempDir(), "fake-configure")
	body := "#!/bin/sh\necho \"args: $*\"\nread line\necho \"stdin: $line\"\necho oops >&2\nexit 7\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	env := helperEnv(map[string]string{configureHelperEnv: script})
	env.stdin = strings.NewReader("typed\n")
	env.opts.logLevel, env.opts.logFile = "debug", "/tmp/x.log"
	if code := runConfigureHelper(env); code != 7 {
		t.Fatalf("exit %d, want 7", code)
	}
	exe, _ := os.Executable()
	want := "args: --agent " + exe + " --log-level debug --log-file /tmp/x.log\nstdin: typed\n"
	if got := env.stdout.(*bytes.Buffer).String(); got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if got := env.stderr.(*bytes.Buffer).String(); got != "oops\n" {
		t.Errorf("stderr %q", got)
	}
}
