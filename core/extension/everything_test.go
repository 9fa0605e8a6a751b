package extension

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// everythingDir holds the pinned @modelcontextprotocol/server-everything.
func everythingDir(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "e2e", "mcpeverything")
}

// everythingServer returns the server's entry point, installing the
// folder's locked npm packages on first use (npmtest: skipped without
// node/npm, a failure with GOOSE_ACP_REQUIRE_NPM=1 as in CI).
func everythingServer(t *testing.T) string {
	t.Helper()
	dir := npmtest.Install(t, everythingDir(t))
	return filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
}

// recorder collects hook traffic.
type recorder struct {
	mu     sync.Mutex
	notes  []string
	elicit []ElicitRequest
}

func (r *recorder) hooks() Hooks {
	return Hooks{
		Notify: func(id string, n Notification) {
			r.mu.Lock()
			r.notes = append(r.notes, id+" "+n.Method+" "+string(n.Params))
			r.mu.Unlock()
		},
		Elicit: func(_ context.Context, req ElicitRequest) (ElicitResponse, error) {
			r.mu.Lock()
			r.elicit = append(r.elicit, req)
			r.mu.Unlock()
			return ElicitResponse{Action: "accept", Content: map[string]any{"name": "Ada Lovelace", "check": true}}, nil
		},
		Sample: func(_ context.Context, ext string, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "sampled by goose"}, Model: "fake-model", Role: "assistant", StopReason: "endTurn"}, nil
		},
	}
}

func (r *recorder) count(method string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, s := range r.notes {
		if strings.Contains(s, " "+method+" ") {
			n++
		}
	}
	return n
}

func TestServerEverythingStdio(t *testing.T) {
	entry := everythingServer(t)
	rec := &recorder{}
	m := newManager(t, Options{Hooks: rec.hooks(), WorkingDir: t.TempDir()})
	cfg := config.ExtensionConfig{Type: config.ExtensionStdio, Name: "everything", Cmd: "node", Args: []string{entry, "stdio"}}
	if err := m.Add(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	exerciseEverything(t, m, rec)
}

func TestServerEverythingStreamableHTTP(t *testing.T) {
	entry := everythingServer(t)
	port := freePort(t)
	cmd := exec.Command("node", entry, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	stderr, _ := cmd.StderrPipe()
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killProcessGroup(cmd); _ = cmd.Wait() })
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		closed := false
		for sc.Scan() {
			if !closed && strings.Contains(sc.Text(), "listening on port") {
				close(ready)
				closed = true
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("server-everything did not start")
	}
	rec := &recorder{}
	m := newManager(t, Options{Hooks: rec.hooks()})
	cfg := config.ExtensionConfig{Type: config.ExtensionStreamableHTTP, Name: "everything", URI: fmt.Sprintf("http://127.0.0.1:%d/mcp", port)}
	if err := m.Add(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	exerciseEverything(t, m, rec)
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func exerciseEverything(t *testing.T, m *Manager, rec *recorder) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	names := toolNames(m.Tools(ctx))
	for _, want := range []string{"everything__echo", "everything__get-sum", "everything__trigger-long-running-operation"} {
		if !strings.Contains(names, want) {
			t.Fatalf("tools %s lack %s", names, want)
		}
	}
	res, err := m.Call(ctx, "sum", "everything__get-sum", map[string]any{"a": 2, "b": 3})
	if err != nil || !strings.Contains(res.Content[0].Text, "5") {
		t.Fatalf("get-sum: %v %+v", err, res)
	}
	// Progress from a long operation; a log message sent while it runs
	// reaches the running call too.
	done := make(chan error, 1)
	go func() {
		_, err := m.Call(ctx, "long", "everything__trigger-long-running-operation", map[string]any{"duration": 2, "steps": 4})
		done <- err
	}()
	waitFor(t, func() bool { return rec.count("notifications/progress") > 0 })
	if _, err := m.Call(ctx, "logs", "everything__toggle-simulated-logging", nil); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// Notifications are handled asynchronously, so the last one may land
	// just after the result.
	waitFor(t, func() bool { return rec.count("notifications/progress") >= 4 })
	if n := rec.count("notifications/progress"); n != 4 {
		t.Errorf("progress notifications = %d, want 4", n)
	}
	waitFor(t, func() bool { return rec.count("notifications/message") > 0 })
	rec.mu.Lock()
	for _, n := range rec.notes {
		if strings.Contains(n, "notifications/progress") && !strings.HasPrefix(n, "long ") {
			t.Errorf("progress routed to the wrong call: %s", n)
		}
	}
	rec.mu.Unlock()
	// Sampling goes to our hook.
	res, err = m.Call(ctx, "s", "everything__trigger-sampling-request", map[string]any{"prompt": "hi", "maxTokens": 10})
	if err != nil || !strings.Contains(res.Content[0].Text, "sampled by goose") {
		t.Fatalf("sampling: %v %+v", err, res)
	}
	// Elicitation goes to our hook and the answer back to the server.
	res, err = m.Call(ctx, "e", "everything__trigger-elicitation-request", nil)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := json.Marshal(res.Content)
	if !strings.Contains(string(all), "Ada Lovelace") {
		t.Fatalf("elicitation result = %s", all)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.elicit) != 1 || rec.elicit[0].CallID != "e" || !strings.Contains(string(rec.elicit[0].Schema), `"email"`) {
		t.Fatalf("elicit requests = %+v", rec.elicit)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
