package developer

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeTerminal scripts a delegated terminal and records the call sequence.
type fakeTerminal struct {
	mu       sync.Mutex
	calls    []string
	req      TerminalRequest
	exit     *int
	output   string
	block    bool // WaitForExit blocks until ctx ends
	waitErr  error
	released bool
}

func (f *fakeTerminal) record(s string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
}

func (f *fakeTerminal) Create(_ context.Context, req TerminalRequest) (string, error) {
	f.record("create")
	f.req = req
	return "term-1", nil
}

func (f *fakeTerminal) Output(_ context.Context, id string) (TerminalOutput, error) {
	f.record("output " + id)
	return TerminalOutput{Output: f.output}, nil
}

func (f *fakeTerminal) WaitForExit(ctx context.Context, id string) (ExitStatus, error) {
	f.record("wait " + id)
	if f.block {
		<-ctx.Done()
		return ExitStatus{}, ctx.Err()
	}
	if f.waitErr != nil {
		return ExitStatus{}, f.waitErr
	}
	return ExitStatus{ExitCode: f.exit}, nil
}

func (f *fakeTerminal) Kill(_ context.Context, id string) error {
	f.record("kill " + id)
	return nil
}

func (f *fakeTerminal) Release(ctx context.Context, id string) error {
	if ctx.Err() != nil {
		return ctx.Err() // release must run on a live context
	}
	f.record("release " + id)
	f.mu.Lock()
	f.released = true
	f.mu.Unlock()
	return nil
}

func TestShellViaTerminal(t *testing.T) {
	zero, seven := 0, 7
	cases := []struct {
		name      string
		term      *fakeTerminal
		args      map[string]any
		wantCalls string
		wantTexts []string
		wantErr   bool
	}{
		{"success", &fakeTerminal{exit: &zero, output: "hi\n"}, map[string]any{"command": "echo hi"},
			"create|wait term-1|output term-1|release term-1", []string{"exit code: 0", "hi\n"}, false},
		{"non-zero", &fakeTerminal{exit: &seven, output: "bad\n"}, map[string]any{"command": "false"},
			"create|wait term-1|output term-1|release term-1", []string{"exit code: 7", "bad\n"}, true},
		{"timeout kills", &fakeTerminal{block: true, output: "partial"}, map[string]any{"command": "sleep 9", "timeout_secs": 1},
			"create|wait term-1|kill term-1|output term-1|release term-1", []string{"exit code: unknown", "partial\n\nCommand timed out after 1 seconds"}, true},
		{"wait error still releases", &fakeTerminal{waitErr: errors.New("gone")}, map[string]any{"command": "x"},
			"create|wait term-1|release term-1", []string{"Failed waiting on shell command: gone"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			em := &recordingEmitter{}
			h := newHarness(t, Options{Surface: Editor, Terminal: tc.term, Emitter: em})
			res, err := h.callMeta(t, "shell", tc.args, map[string]any{MetaSessionID: "s-9"})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(tc.term.calls, "|"); got != tc.wantCalls {
				t.Fatalf("calls = %s, want %s", got, tc.wantCalls)
			}
			if got := texts(res); strings.Join(got, "\x00") != strings.Join(tc.wantTexts, "\x00") || res.IsError != tc.wantErr {
				t.Fatalf("texts = %q isError=%v", got, res.IsError)
			}
			if tc.term.req.Command != tc.args["command"] || tc.term.req.Cwd != h.dir || tc.term.req.OutputByteLimit != 50000 ||
				tc.term.req.Env["AGENT_SESSION_ID"] != "s-9" || tc.term.req.Env["GIT_TERMINAL_PROMPT"] != "0" {
				t.Fatalf("request = %+v", tc.term.req)
			}
			if tc.wantCalls != "create|wait term-1|release term-1" {
				if m, _ := res.Meta[MetaKeyTerminal].(map[string]any); m["terminalId"] != "term-1" {
					t.Fatalf("meta = %v", res.Meta)
				}
			}
			if k := em.kinds(); len(k) == 0 || k[0] != "terminal" {
				t.Fatalf("events = %v", k)
			}
		})
	}
}

func TestShellViaTerminalReleasesOnCancel(t *testing.T) {
	term := &fakeTerminal{block: true}
	h := newHarness(t, Options{Surface: Classic, Terminal: term})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	h.cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell", Arguments: map[string]any{"command": "sleep 60"}})
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		term.mu.Lock()
		done := term.released
		term.mu.Unlock()
		if done {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	term.mu.Lock()
	defer term.mu.Unlock()
	if got := strings.Join(term.calls, "|"); got != "create|wait term-1|kill term-1|output term-1|release term-1" {
		t.Fatalf("calls = %s", got)
	}
}
