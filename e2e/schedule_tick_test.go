package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
)

// goosedProc is a spawned `goose-acp agent` serving plain HTTP on loopback.
type goosedProc struct {
	t      *testing.T
	cmd    *exec.Cmd
	base   string
	secret string
	stderr *lockedBuffer
	done   chan error
}

func startGoosed(t *testing.T, env *agentEnv) *goosedProc {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	p := &goosedProc{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", port), secret: "e2e-secret", stderr: &lockedBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(binary, "agent")
	p.cmd.Env = append(env.environ(), "GOOSE_TLS=false", fmt.Sprintf("GOOSE_PORT=%d", port), "GOOSE_SERVER__SECRET_KEY="+p.secret)
	p.cmd.Dir, p.cmd.Stderr = env.Root, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(p.stop)
	deadline := time.Now().Add(15 * time.Second)
	for {
		if resp, err := http.Get(p.base + "/status"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("goose-acp agent not ready within 15s\nstderr:\n%s", p.stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop interrupts the server (as the desktop does) and waits for it.
func (p *goosedProc) stop() {
	if p.cmd.ProcessState != nil {
		return
	}
	if runtime.GOOS == "windows" {
		_ = p.cmd.Process.Kill()
	} else {
		_ = p.cmd.Process.Signal(os.Interrupt)
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
		p.t.Errorf("goose-acp agent did not stop within 10s\nstderr:\n%s", p.stderr.String())
	}
}

// do sends an authenticated JSON request and returns status and body.
func (p *goosedProc) do(method, path string, body any) (int, []byte) {
	p.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			p.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, p.base+path, rd)
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("X-Secret-Key", p.secret)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestScheduledJobRunsOnOneSecondCron: a job created through
// /schedule/create with a 1-second cron fires on its own, and its run is a
// "scheduled" session carrying the schedule id, with the recipe's prompt
// and the model's reply stored in sessions.db.
func TestScheduledJobRunsOnOneSecondCron(t *testing.T) {
	reply := providertest.Turn{Text: []string{"billing: ", "all checks green"}}
	env := newAgentEnv(t, reply, reply, reply, reply, reply)
	srv := startGoosed(t, env)
	rec := map[string]any{"version": "1.0.0", "title": "Health", "description": "Health check",
		"instructions": "Be brief.", "prompt": "Report the health of billing."}
	code, body := srv.do("POST", "/schedule/create", map[string]any{"id": "health", "recipe": rec, "cron": "* * * * * *"})
	if code != http.StatusOK {
		t.Fatalf("create: %d %s", code, body)
	}
	waitUntil(t, srv, "a finished scheduled run", func() bool {
		_, b := srv.do("GET", "/schedule/health/sessions", nil)
		var ss []struct {
			MessageCount int `json:"messageCount"`
		}
		_ = json.Unmarshal(b, &ss)
		return len(ss) > 0 && ss[len(ss)-1].MessageCount == 2
	})
	if code, body := srv.do("POST", "/schedule/health/pause", nil); code != http.StatusOK && code != http.StatusNoContent {
		t.Fatalf("pause: %d %s", code, body)
	}
	waitUntil(t, srv, "the job to be idle", func() bool {
		_, b := srv.do("GET", "/schedule/list", nil)
		var l struct{ Jobs []schedule.Job }
		return json.Unmarshal(b, &l) == nil && len(l.Jobs) == 1 && l.Jobs[0].Paused && !l.Jobs[0].CurrentlyRunning && l.Jobs[0].LastRun != nil
	})
	srv.stop()

	var run *session.Session
	for _, s := range storedSessions(t, env) {
		s.Conversation = withoutTurnContext(s.Conversation)
		if s.SessionType == session.TypeScheduled && s.ScheduleID != nil && *s.ScheduleID == "health" && len(s.Conversation) == 2 {
			run = &s
		}
	}
	if run == nil {
		t.Fatalf("no finished scheduled session in sessions.db\nstderr:\n%s", srv.stderr.String())
	}
	if run.Name != "Scheduled job: health" || run.Conversation[0].AsText() != "Report the health of billing." ||
		run.Conversation[1].AsText() != "billing: all checks green" {
		t.Fatalf("scheduled session: name %q conversation %q / %q", run.Name, run.Conversation[0].AsText(), run.Conversation[1].AsText())
	}
	if body := string(env.LLM.Requests()[0].Body); !strings.Contains(body, "Be brief.") {
		t.Fatalf("the recipe's instructions are missing from the system prompt")
	}
}

// waitUntil polls cond for up to 20 s.
func waitUntil(t *testing.T, srv *goosedProc, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s\nstderr:\n%s", what, srv.stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
