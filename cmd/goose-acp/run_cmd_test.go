package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
)

func TestParseRunFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    runFlags
		wantErr string
	}{
		{name: "short text", args: []string{"-t", "hi"}, want: runFlags{text: "hi"}},
		{name: "long text", args: []string{"--text", "hi", "-q"}, want: runFlags{text: "hi", quiet: true}},
		{name: "instructions stdin", args: []string{"-i", "-", "--system", "be brief"}, want: runFlags{instructions: "-", system: "be brief"}},
		{name: "recipe with repeated params", args: []string{"--recipe", "r.yaml", "--params", "a=1", "--params", "b=x=y"},
			want: runFlags{recipe: "r.yaml", params: paramFlags{"a=1", "b=x=y"}}},
		{name: "session and model flags", args: []string{"-t", "x", "-n", "daily", "--no-session", "--max-turns", "3", "--provider", "openai", "--model", "gpt-4o"},
			want: runFlags{text: "x", name: "daily", noSession: true, maxTurns: 3, provider: "openai", model: "gpt-4o"}},
		{name: "no input", args: []string{"-q"}, wantErr: errNoInput.Error()},
		{name: "stray argument", args: []string{"-t", "x", "extra"}, wantErr: `unexpected arguments ["extra"]`},
		{name: "negative max turns", args: []string{"-t", "x", "--max-turns", "-1"}, wantErr: "--max-turns must be positive"},
		{name: "unknown flag", args: []string{"--bogus"}, wantErr: "flag provided but not defined: -bogus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseRunFlags(tt.args)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
	if _, err := parseRunFlags([]string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
}

// runHarness is a private goose home and a mock OpenAI server for
// in-process `goose-acp run` calls.
type runHarness struct {
	root string
	llm  *providertest.Server
	vars map[string]string
}

func newRunHarness(t *testing.T, turns ...providertest.Turn) *runHarness {
	t.Helper()
	root := t.TempDir()
	llm := providertest.Start(providertest.OpenAI, providertest.NewScript(turns...))
	t.Cleanup(llm.Close)
	return &runHarness{root: root, llm: llm, vars: map[string]string{
		"GOOSE_PATH_ROOT": root, "HOME": root,
		"GOOSE_PROVIDER": "openai", "GOOSE_MODEL": "gpt-4o",
		"OPENAI_HOST": llm.URL, "OPENAI_API_KEY": "sk-test",
		"GOOSE_DISABLE_KEYRING": "1", "GOOSE_DISABLE_SESSION_NAMING": "true",
		"GOOSE_MODE": "auto",
	}}
}

func (h *runHarness) run(ctx context.Context, stdin string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	env := &environment{ctx: ctx, opts: options{logLevel: "error"}, stdin: strings.NewReader(stdin),
		stdout: &out, stderr: &errOut, getenv: envFunc(h.vars)}
	code := runHeadless(env, args)
	return code, out.String(), errOut.String()
}

// sessions lists the sessions the runs stored, newest first.
func (h *runHarness) sessions(t *testing.T) []session.Session {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(h.root, "data", "sessions", "sessions.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	page, err := store.List(ctx, session.ListOptions{Types: []session.Type{session.TypeUser, session.TypeScheduled}})
	if err != nil {
		t.Fatal(err)
	}
	var out []session.Session
	for _, s := range page.Sessions {
		full, err := store.Get(ctx, s.ID, true)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, full)
	}
	return out
}

func writeRecipe(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// withoutTurnContext drops the agent's per-turn <turn-context> messages,
// which these tests do not count.
func withoutTurnContext(msgs []conversation.Message) []conversation.Message {
	return conversation.Conversation(msgs).WithoutTurnContext()
}

func TestRunTextStreamsReplyAndStoresSession(t *testing.T) {
	h := newRunHarness(t, providertest.Turn{Text: []string{"Hel", "lo ", "there"}})
	code, stdout, stderr := h.run(context.Background(), "", "-t", "say hello", "-n", "greeting")
	if code != exitOK || stdout != "Hello there\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	ss := h.sessions(t)
	if len(ss) == 1 {
		ss[0].Conversation = withoutTurnContext(ss[0].Conversation)
	}
	if len(ss) != 1 || ss[0].Name != "greeting" || ss[0].SessionType != session.TypeUser || len(ss[0].Conversation) != 2 {
		t.Fatalf("sessions: %+v", ss)
	}
	if got := ss[0].Conversation[0].AsText(); got != "say hello" {
		t.Fatalf("stored prompt %q", got)
	}
}

func TestRunNoSessionDeletesTheSession(t *testing.T) {
	h := newRunHarness(t, providertest.Turn{Text: []string{"ok"}})
	if code, _, stderr := h.run(context.Background(), "", "-t", "x", "--no-session"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if ss := h.sessions(t); len(ss) != 0 {
		t.Fatalf("--no-session left %d sessions", len(ss))
	}
}

func TestRunInstructionsFromStdinWithSystem(t *testing.T) {
	h := newRunHarness(t, providertest.Turn{Text: []string{"done"}})
	code, stdout, stderr := h.run(context.Background(), "list the files\n", "-i", "-", "--system", "Answer in one word.")
	if code != exitOK || stdout != "done\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	body := string(h.llm.Script.Requests()[0])
	if !strings.Contains(body, "Answer in one word.") || !strings.Contains(body, "list the files") {
		t.Fatalf("request lacks the system text or prompt: %s", body)
	}
}

func TestRunProviderErrorExitsOne(t *testing.T) {
	h := newRunHarness(t, providertest.Turn{Status: 400, ErrorBody: `{"error":{"message":"bad model","type":"invalid_request_error"}}`})
	code, stdout, stderr := h.run(context.Background(), "", "-t", "x")
	if code != exitFailed {
		t.Fatalf("exit %d, want 1; stdout %q stderr %q", code, stdout, stderr)
	}
	if !strings.HasPrefix(stdout, "Ran into this error: ") || !strings.Contains(stderr, "Error: ") || !strings.Contains(stderr, "bad model") {
		t.Fatalf("stdout %q stderr %q", stdout, stderr)
	}
}

func TestRunInterruptCancelsTurnAndExits130(t *testing.T) {
	h := newRunHarness(t, providertest.Turn{Text: []string{"partial ", "never"}, Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(h.llm.Script.Requests()) == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	code, stdout, stderr := h.run(ctx, "", "-t", "x")
	if code != exitInterrupt || !strings.HasSuffix(stderr, "Interrupted.\n") {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

const paramRecipe = `version: 1.0.0
title: Greeter
description: Greets someone
instructions: You are polite.
prompt: Say hello to {{ who }} in {{ lang }}.
parameters:
  - key: who
    input_type: string
    requirement: required
    description: Who to greet
  - key: lang
    input_type: string
    requirement: optional
    default: English
    description: Language
`

func TestRunRecipeMissingRequiredParameter(t *testing.T) {
	h := newRunHarness(t)
	path := writeRecipe(t, "greet.yaml", paramRecipe)
	code, stdout, stderr := h.run(context.Background(), "", "--recipe", path)
	want := "Error: Please provide the following parameters in the command line: --params who=your_value\n"
	if code != exitFailed || stdout != "" || stderr != want {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if n := len(h.llm.Script.Requests()); n != 0 {
		t.Fatalf("the provider was called %d times", n)
	}
}

func TestRunRecipeRendersParamsAndRecordsThem(t *testing.T) {
	h := newRunHarness(t, providertest.Turn{Text: []string{"Bonjour, Ada!"}})
	path := writeRecipe(t, "greet.yaml", paramRecipe)
	code, stdout, stderr := h.run(context.Background(), "", "--recipe", path, "--params", "who=Ada", "--params", "lang=French")
	if code != exitOK || stdout != "Bonjour, Ada!\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	wantInfo := "Loading recipe: Greeter\nDescription: Greets someone\nParameters used to load this recipe:\n   who: Ada\n   lang: French\n\n"
	if !strings.HasPrefix(stderr, wantInfo) {
		t.Fatalf("stderr %q", stderr)
	}
	body := string(h.llm.Script.Requests()[0])
	if !strings.Contains(body, "Say hello to Ada in French.") || !strings.Contains(body, "You are polite.") {
		t.Fatalf("request: %s", body)
	}
	s := h.sessions(t)[0]
	if !reflect.DeepEqual(s.UserRecipeValues, map[string]string{"who": "Ada", "lang": "French"}) || !strings.Contains(string(s.Recipe), `"title":"Greeter"`) {
		t.Fatalf("recipe values %v recipe %s", s.UserRecipeValues, s.Recipe)
	}
}

const schemaRecipe = `title: Counter
description: Counts
prompt: Count the files.
response:
  json_schema:
    type: object
    properties:
      count: {type: integer}
    required: [count]
`

func TestRunRecipeFinalOutput(t *testing.T) {
	h := newRunHarness(t,
		providertest.Turn{Text: []string{"I will report."}},
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "final_output", Arguments: `{"final_output":"{\"count\": 3}"}`}}},
	)
	path := writeRecipe(t, "count.yaml", schemaRecipe)
	code, stdout, stderr := h.run(context.Background(), "", "--recipe", path, "-q")
	if code != exitOK || stdout != "I will report.\n{\"count\":3}\n" || stderr != "" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

func TestRunRecipeWithoutFinalOutputFails(t *testing.T) {
	h := newRunHarness(t,
		providertest.Turn{Text: []string{"No."}},
		providertest.Turn{Text: []string{"Still no."}},
	)
	path := writeRecipe(t, "count.yaml", schemaRecipe)
	code, stdout, stderr := h.run(context.Background(), "", "--recipe", path, "-q", "--max-turns", "2")
	if code != exitFailed || !strings.Contains(stderr, "Error: "+errMaxTurns.Error()) {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

func TestRunRecipeInvalidFinalOutputFails(t *testing.T) {
	// final_output called with output the schema rejects, then the model
	// stops: the run fails and the validation error is shown.
	h := newRunHarness(t,
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "final_output", Arguments: `{"final_output":"{\"count\": \"three\"}"}`}}},
		providertest.Turn{Text: []string{"Sorry."}},
	)
	path := writeRecipe(t, "count.yaml", schemaRecipe)
	code, stdout, stderr := h.run(context.Background(), "", "--recipe", path)
	if code != exitFailed || stdout != "Sorry.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	for _, want := range []string{"─── final_output ──────", "    error: Validation failed: …\n", "Error: " + errNoFinalOutput.Error() + "\n"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestRunDeniesApprovalsHeadlessly(t *testing.T) {
	h := newRunHarness(t,
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "shell", Arguments: `{"command":"echo should-not-run"}`}}},
		providertest.Turn{Text: []string{"I could not run it."}},
	)
	h.vars["GOOSE_MODE"] = "approve"
	path := writeRecipe(t, "shell.yaml", "title: Shell\ndescription: Runs a command\nprompt: Run echo.\nextensions:\n  - type: builtin\n    name: developer\n")
	code, stdout, stderr := h.run(context.Background(), "", "--recipe", path)
	if code != exitOK || stdout != "I could not run it.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	for _, want := range []string{
		"─── shell ──────────────────────────\ncommand: echo should-not-run\n",
		"Denied tool call shell: approvals cannot be asked in a headless run (set GOOSE_MODE=auto to allow tool calls)\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if body := string(h.llm.Script.Requests()[1]); !strings.Contains(body, "The user has declined to run this tool") {
		t.Fatalf("second request lacks the declined response: %s", body)
	}
}

func TestReplyPrinterLines(t *testing.T) {
	var out, diag bytes.Buffer
	p := &replyPrinter{out: &out, diag: &diag, finalIDs: map[string]bool{}}
	msg := func(id string, c ...conversation.Content) agent.Event {
		return agent.MessageEvent{Message: conversation.NewMessage(conversation.RoleAssistant, 0).With(c...).WithID(id)}
	}
	p.handle(msg("a", conversation.Text("Look")))
	p.handle(msg("a", conversation.Text("ing.")))
	p.handle(msg("a", conversation.ToolRequestContent("t1", "text_editor",
		map[string]any{"path": "/x", "file_text": strings.Repeat("y", 200) + "\nz", "n": 3})))
	p.handle(msg("b", conversation.Text("Done")))
	p.endLine()
	if out.String() != "Looking.\nDone\n" {
		t.Fatalf("stdout %q", out.String())
	}
	wantDiag := "─── text_editor ──────────────────────────\n" +
		"file_text: " + strings.Repeat("y", 99) + "…\nn: 3\npath: /x\n"
	if diag.String() != wantDiag {
		t.Fatalf("stderr %q", diag.String())
	}
}

func TestRecordSessionJSON(t *testing.T) {
	// The recipe stored on the session is goose's compact JSON.
	h := newRunHarness(t, providertest.Turn{Text: []string{"ok"}})
	path := writeRecipe(t, "r.yaml", "title: T\ndescription: D\nprompt: P\n")
	if code, _, stderr := h.run(context.Background(), "", "--recipe", path); code != 0 {
		t.Fatal(stderr)
	}
	var got map[string]any
	if err := json.Unmarshal(h.sessions(t)[0].Recipe, &got); err != nil {
		t.Fatal(err)
	}
	if got["title"] != "T" || got["prompt"] != "P" || got["version"] != "1.0.0" {
		t.Fatalf("recipe %v", got)
	}
}

func TestRunRecipeRetryResetsAndSucceeds(t *testing.T) {
	if goruntime.GOOS == "windows" {
		t.Skip("the recipe's checks are POSIX shell commands")
	}
	dir := t.TempDir()
	marker, failures := filepath.Join(dir, "marker"), filepath.Join(dir, "failures")
	h := newRunHarness(t,
		providertest.Turn{Text: []string{"first try"}},
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "c1", Name: "shell", Arguments: `{"command":"touch ` + marker + `"}`}}},
		providertest.Turn{Text: []string{"second try"}},
	)
	path := writeRecipe(t, "retry.yaml", "title: Retry\ndescription: Retries\nprompt: Make the marker.\n"+
		"extensions:\n  - type: builtin\n    name: developer\n"+
		"retry:\n  max_retries: 2\n  checks:\n    - type: shell\n      command: test -f "+marker+"\n  on_failure: echo failed >> "+failures+"\n")
	code, stdout, stderr := h.run(context.Background(), "", "--recipe", path)
	if code != exitOK || stdout != "first try\nsecond try\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "Success checks failed; retrying from the start (attempt 1 of 2)\n") {
		t.Errorf("stderr %q", stderr)
	}
	if b, err := os.ReadFile(failures); err != nil || string(b) != "failed\n" {
		t.Fatalf("on_failure ran: %q %v", b, err)
	}
	reqs := h.llm.Script.Requests()
	if len(reqs) != 3 || strings.Contains(string(reqs[1]), "first try") {
		t.Fatalf("the retry did not start from the initial conversation: %d requests, second %s", len(reqs), reqs[1])
	}
	conv := withoutTurnContext(h.sessions(t)[0].Conversation)
	if len(conv) != 4 || conv[0].AsText() != "Make the marker." || conv[3].AsText() != "second try" {
		t.Fatalf("stored conversation after the retry: %d messages", len(conv))
	}
}

func TestRunRecipeRetriesExhausted(t *testing.T) {
	if goruntime.GOOS == "windows" {
		t.Skip("the recipe's checks are POSIX shell commands")
	}
	h := newRunHarness(t, providertest.Turn{Text: []string{"one"}}, providertest.Turn{Text: []string{"two"}})
	path := writeRecipe(t, "retry.yaml", "title: Retry\ndescription: Retries\nprompt: Try.\nretry:\n  max_retries: 1\n  checks:\n    - type: shell\n      command: \"false\"\n")
	code, stdout, stderr := h.run(context.Background(), "", "--recipe", path, "-q")
	want := "one\ntwo\nMaximum retry attempts (1) exceeded. Unable to complete the task successfully.\n"
	if code != exitFailed || stdout != want || stderr != "Error: "+errRetriesExhausted.Error()+"\n" {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

func TestRunUsageAndInputErrors(t *testing.T) {
	h := newRunHarness(t)
	tests := []struct {
		name     string
		args     []string
		code     int
		stderrIs string // exact, or prefix when it ends with "…"
	}{
		{"no input", []string{}, exitUsage, "Error: " + errNoInput.Error() + "\n\n" + runUsage},
		{"missing instruction file", []string{"-i", filepath.Join(t.TempDir(), "nope.md")}, exitFailed,
			"Instruction file not found — did you mean to use goose-acp run --text?\n…"},
		{"bad params", []string{"--recipe", "x.yaml", "--params", "novalue"}, exitUsage,
			"Error: Invalid parameter format: 'novalue'. Expected format: key=value\n"},
		{"missing recipe", []string{"--recipe", filepath.Join(t.TempDir(), "none.yaml")}, exitFailed, "Error: recipe: read …"},
		{"help", []string{"--help"}, exitOK, runUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := h.run(context.Background(), "", tt.args...)
			prefix, isPrefix := strings.CutSuffix(tt.stderrIs, "…")
			if code != tt.code || stdout != "" || (isPrefix && !strings.HasPrefix(stderr, prefix)) || (!isPrefix && stderr != tt.stderrIs) {
				t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
			}
		})
	}
}

func TestRunExplainAndRenderRecipe(t *testing.T) {
	h := newRunHarness(t)
	path := writeRecipe(t, "greet.yaml", paramRecipe)
	code, stdout, stderr := h.run(context.Background(), "", "--recipe", path, "--explain")
	wantExplain := "Title: Greeter\nDescription: Greets someone\nParameters:\n" +
		"   who (string, required) — Who to greet\n   lang (string, optional) default: English — Language\n"
	if code != exitOK || stdout != wantExplain || stderr != "" {
		t.Fatalf("explain: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = h.run(context.Background(), "", "--recipe", path, "--render-recipe", "--params", "who=Ada")
	if code != exitOK || !strings.Contains(stdout, "prompt: Say hello to Ada in English.\n") || stderr != "" {
		t.Fatalf("render: exit %d stdout %q stderr %q", code, stdout, stderr)
	}
	if n := len(h.llm.Script.Requests()); n != 0 {
		t.Fatalf("explain/render called the provider %d times", n)
	}
}

func TestTerminalPromptAsksOnlyOnATerminal(t *testing.T) {
	if terminalPrompt(strings.NewReader("x\n"), &bytes.Buffer{}) != nil {
		t.Fatal("a plain reader must not be prompted")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if terminalPrompt(r, &bytes.Buffer{}) != nil {
		t.Fatal("a pipe must not be prompted")
	}
	if goruntime.GOOS == "windows" {
		return // no pty to stand in for a console
	}
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty available: %v", err)
	}
	defer ptm.Close()
	defer tty.Close()
	var stderr bytes.Buffer
	prompt := terminalPrompt(tty, &stderr)
	if prompt == nil {
		t.Fatal("a terminal must be prompted")
	}
	if _, err := ptm.WriteString("1.2.3\n"); err != nil {
		t.Fatal(err)
	}
	got, err := prompt("version", "Version being released")
	if err != nil || got != "1.2.3" || stderr.String() != "Please enter version (Version being released): " {
		t.Fatalf("got %q err %v stderr %q", got, err, stderr.String())
	}
}

// BenchmarkReplyPrinterStream: the per-chunk cost of streaming a reply to
// the terminal (2,000 chunks of one assistant message).
func BenchmarkReplyPrinterStream(b *testing.B) {
	events := make([]agent.Event, 2000)
	for i := range events {
		events[i] = agent.MessageEvent{Message: conversation.NewMessage(conversation.RoleAssistant, 0).With(conversation.Text("chunk of text ")).WithID("m")}
	}
	b.ReportAllocs()
	for b.Loop() {
		p := &replyPrinter{out: io.Discard, diag: io.Discard, finalIDs: map[string]bool{}}
		for _, ev := range events {
			p.handle(ev)
		}
		p.endLine()
	}
}

// TestRecipeExtensionsReplaceConfiguredOnes: config.yaml's enabled
// extensions load for a plain prompt, but a recipe that lists extensions
// runs with those instead (goose's extensions_override).
func TestRecipeExtensionsReplaceConfiguredOnes(t *testing.T) {
	h := newRunHarness(t, providertest.Turn{Text: []string{"a"}}, providertest.Turn{Text: []string{"b"}})
	if err := os.MkdirAll(filepath.Join(h.root, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "extensions:\n  broken:\n    enabled: true\n    type: stdio\n    name: broken\n    cmd: " +
		filepath.Join(h.root, "no-such-server") + "\n    args: []\n    timeout: 5\n"
	if err := os.WriteFile(filepath.Join(h.root, "config", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	const failed = "Failed to start extension broken: "
	if code, _, stderr := h.run(context.Background(), "", "-t", "x"); code != exitOK || !strings.Contains(stderr, failed) {
		t.Fatalf("plain prompt: exit %d stderr %q", code, stderr)
	}
	path := writeRecipe(t, "r.yaml", "title: T\ndescription: D\nprompt: P\nextensions:\n  - type: builtin\n    name: developer\n")
	code, _, stderr := h.run(context.Background(), "", "--recipe", path)
	if code != exitOK || strings.Contains(stderr, failed) {
		t.Fatalf("recipe: exit %d stderr %q", code, stderr)
	}
	if body := string(h.llm.Script.Requests()[1]); !strings.Contains(body, `"name":"shell"`) {
		t.Fatalf("the recipe's developer tools are missing: %s", body)
	}
}
