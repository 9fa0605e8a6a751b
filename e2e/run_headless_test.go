package e2e

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

// runResult is one finished `goose-acp run`.
type runResult struct {
	code           int
	stdout, stderr string
}

// runGoose runs `goose-acp run args…` in dir with env and waits (30 s at
// most) for it to exit.
func runGoose(t *testing.T, env *agentEnv, dir, stdin string, args ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"run"}, args...)...)
	cmd.Env, cmd.Dir = env.environ(), dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("goose-acp run did not exit within 30s\nstderr:\n%s", errOut.String())
	case errors.As(err, &exitErr):
	case err != nil:
		t.Fatal(err)
	}
	return runResult{code: cmd.ProcessState.ExitCode(), stdout: out.String(), stderr: errOut.String()}
}

// storedSessions opens the run's sessions.db (after the process exited)
// and returns every user and scheduled session with its conversation.
func storedSessions(t *testing.T, env *agentEnv) []session.Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(env.Root, "data", "sessions", "sessions.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	page, err := store.List(ctx, session.ListOptions{Types: []session.Type{session.TypeUser, session.TypeScheduled}})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]session.Session, 0, len(page.Sessions))
	for _, s := range page.Sessions {
		full, err := store.Get(ctx, s.ID, true)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, full)
	}
	return out
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunTextPrompt(t *testing.T) {
	env := newAgentEnv(t, providertest.Turn{Text: []string{"Hel", "lo ", "there"}, Usage: &providertest.Usage{Input: 12, Output: 3}})
	r := runGoose(t, env, t.TempDir(), "", "-t", "say hello")
	if r.code != 0 || r.stdout != "Hello there\n" {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	ss := storedSessions(t, env)
	if len(ss) == 1 {
		ss[0].Conversation = withoutTurnContext(ss[0].Conversation)
	}
	if len(ss) != 1 || ss[0].SessionType != session.TypeUser || len(ss[0].Conversation) != 2 ||
		ss[0].Conversation[0].AsText() != "say hello" || ss[0].Conversation[1].AsText() != "Hello there" {
		t.Fatalf("stored sessions: %+v", ss)
	}
}

// TestRunStreamsAndCtrlCCancels: the first chunk reaches stdout while the
// model is still answering, and SIGINT cancels the turn, keeps the partial
// reply in the session and exits 130.
func TestRunStreamsAndCtrlCCancels(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGINT cannot be sent to a process on Windows")
	}
	// The first chunk, then a slow stream that would take a minute.
	chunks := []string{"partial answer"}
	for range 200 {
		chunks = append(chunks, ".")
	}
	env := newAgentEnv(t, providertest.Turn{Text: chunks, Delay: 300 * time.Millisecond})
	cmd := exec.Command(binary, "run", "-t", "think hard")
	cmd.Env, cmd.Dir = env.environ(), t.TempDir()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	first := make(chan string, 1)
	go func() {
		b := make([]byte, len("partial answer"))
		_, err := io.ReadFull(bufio.NewReader(stdout), b)
		first <- string(b)
		if err == nil {
			_, _ = io.Copy(io.Discard, stdout)
		}
		done <- cmd.Wait()
	}()
	select {
	case got := <-first:
		if got != "partial answer" {
			t.Fatalf("first stdout bytes %q; stderr:\n%s", got, stderr.String())
		}
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("no streamed text within 15s; stderr:\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("goose-acp run did not exit within 10s of SIGINT; stderr:\n%s", stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.HasSuffix(stderr.String(), "Interrupted.\n") {
		t.Fatalf("exit %d stderr %q", code, stderr.String())
	}
	ss := storedSessions(t, env)
	if len(ss) == 1 {
		ss[0].Conversation = withoutTurnContext(ss[0].Conversation)
	}
	if len(ss) != 1 || len(ss[0].Conversation) != 2 || !strings.HasPrefix(ss[0].Conversation[1].AsText(), "partial answer") {
		t.Fatalf("stored sessions after cancel: %+v", ss)
	}
}

func TestRunRecipeWithParamsAndToolCall(t *testing.T) {
	env := newAgentEnv(t,
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_1", Name: "shell", Arguments: `{"command":"echo released > notes.txt && cat notes.txt"}`}}},
		providertest.Turn{Text: []string{"Wrote notes.txt for v2.0."}},
	)
	work, recipes := t.TempDir(), t.TempDir()
	path := writeFile(t, recipes, "notes.yaml", `version: 1.0.0
title: Notes
description: Writes release notes
instructions: Keep it short.
prompt: Write release notes for {{ version }} into notes.txt ({{ style }} style).
extensions:
  - type: builtin
    name: developer
parameters:
  - key: version
    input_type: string
    requirement: required
    description: Version
  - key: style
    input_type: select
    requirement: optional
    default: terse
    options: [terse, chatty]
    description: Style
`)
	r := runGoose(t, env, work, "", "--recipe", path, "--params", "version=v2.0")
	if r.code != 0 || r.stdout != "Wrote notes.txt for v2.0.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "Loading recipe: Notes\n") || !strings.Contains(r.stderr, "─── shell ──") {
		t.Fatalf("stderr %q", r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(work, "notes.txt")); err != nil || string(b) != "released\n" {
		t.Fatalf("notes.txt in the working directory: %q %v", b, err)
	}
	reqs := env.LLM.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[0].Body), "Write release notes for v2.0 into notes.txt (terse style).") ||
		!strings.Contains(string(reqs[0].Body), "Keep it short.") || !strings.Contains(string(reqs[1].Body), "released") {
		t.Fatalf("LLM requests: %d", len(reqs))
	}
	s := storedSessions(t, env)[0]
	if s.UserRecipeValues["version"] != "v2.0" || !strings.Contains(string(s.Recipe), `"title":"Notes"`) {
		t.Fatalf("session recipe %s values %v", s.Recipe, s.UserRecipeValues)
	}
}

func TestRunRecipeMissingRequiredParameter(t *testing.T) {
	env := newAgentEnv(t)
	path := writeFile(t, t.TempDir(), "r.yaml", "title: R\ndescription: D\nprompt: Hi {{ who }} and {{ what }}\nparameters:\n"+
		"  - {key: who, input_type: string, requirement: required, description: W}\n"+
		"  - {key: what, input_type: string, requirement: required, description: X}\n")
	r := runGoose(t, env, t.TempDir(), "", "--recipe", path, "--params", "who=me")
	want := "Error: Please provide the following parameters in the command line: --params what=your_value\n"
	if r.code != 1 || r.stdout != "" || r.stderr != want {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if n := len(env.LLM.Requests()); n != 0 {
		t.Fatalf("the provider was called %d times", n)
	}
}

func TestRunRecipeResponseSchemaNeverSatisfied(t *testing.T) {
	env := newAgentEnv(t, providertest.Turn{Text: []string{"Here you go."}}, providertest.Turn{Text: []string{"Done."}})
	path := writeFile(t, t.TempDir(), "r.yaml", "title: R\ndescription: D\nprompt: Count.\nresponse:\n  json_schema:\n    type: object\n"+
		"    properties:\n      n: {type: integer}\n    required: [n]\n")
	r := runGoose(t, env, t.TempDir(), "", "--recipe", path, "--max-turns", "2")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: stopped: the maximum number of turns was reached") {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	// The model was told to call final_output after its text-only reply.
	if reqs := env.LLM.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "You MUST call the `final_output` tool") {
		t.Fatalf("LLM requests: %d", len(reqs))
	}
}
