package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sourcegraph/jsonrpc2"
	wsstream "github.com/sourcegraph/jsonrpc2/websocket"
)

// serveProc is a spawned `goose-acp serve`, as Goose Desktop starts it.
type serveProc struct {
	cmd    *exec.Cmd
	base   string // http://127.0.0.1:N
	secret string
	stderr *lockedBuffer
	stdout *lockedBuffer
	done   chan error
}

// startServe spawns `goose-acp serve --platform desktop --enable-scheduler
// --host 127.0.0.1 --port N` with env and the secret, and waits for /status
// the way Desktop does (every 100 ms, 30 s at most).
func startServe(t *testing.T, env *agentEnv, secret string, extra ...string) *serveProc {
	t.Helper()
	_, port, _ := strings.Cut(freeAddr(t), ":")
	args := append([]string{"serve"}, extra...)
	args = append(args, "--platform", "desktop", "--enable-scheduler", "--host", "127.0.0.1", "--port", port)
	p := &serveProc{base: "http://127.0.0.1:" + port, secret: secret, stderr: &lockedBuffer{}, stdout: &lockedBuffer{}, done: make(chan error, 1)}
	p.cmd = exec.Command(binary, args...)
	p.cmd.Env = append(env.environ(), "GOOSE_SERVER__SECRET_KEY="+secret)
	p.cmd.Dir = env.Root
	p.cmd.Stderr, p.cmd.Stdout = p.stderr, p.stdout
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() { p.stop(t) })
	deadline := time.Now().Add(30 * time.Second)
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get(p.base + "/status")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p
			}
		}
		select {
		case err := <-p.done:
			t.Fatalf("goose-acp serve exited before /status answered: %v\nstderr:\n%s", err, p.stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("/status never answered\nstderr:\n%s", p.stderr.String())
		}
	}
}

// stop sends SIGTERM (what Desktop does) and expects a clean exit within 5
// s (Desktop's SIGKILL deadline); stdout must have stayed silent.
func (p *serveProc) stop(t *testing.T) {
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("goose-acp serve exited with %v after SIGTERM\nstderr:\n%s", err, p.stderr.String())
		}
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
		t.Errorf("goose-acp serve outlived SIGTERM by 5 s (Desktop would SIGKILL it)\nstderr:\n%s", p.stderr.String())
	}
	if out := p.stdout.String(); out != "" && !strings.HasPrefix(out, "GOOSED_CERT_FINGERPRINT=") {
		t.Errorf("serve wrote to stdout: %q", out)
	}
}

func (p *serveProc) wsURL(query string) string {
	return "ws" + strings.TrimPrefix(p.base, "http") + "/acp" + query
}

// dialACP opens an ACP connection over WebSocket at url and returns an
// acpClient on it (the same helpers as the stdio client).
func dialACP(t *testing.T, url string, header http.Header, stderr *lockedBuffer) (*acpClient, *websocket.Conn) {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(url, header)
	if err != nil {
		code := 0
		if resp != nil {
			code = resp.StatusCode
		}
		t.Fatalf("dial %s: %v (HTTP %d)", url, err, code)
	}
	c := &acpClient{t: t, stderr: stderr, changed: make(chan struct{}, 1), onRequest: map[string]func(json.RawMessage) (any, error){}}
	c.conn = jsonrpc2.NewConn(context.Background(), wsstream.NewObjectStream(ws), orderedHandler{c},
		jsonrpc2.SetLogger(log.New(io.Discard, "", 0)))
	t.Cleanup(func() { c.conn.Close() })
	return c, ws
}

// dialStatus is the HTTP status of a WebSocket handshake.
func dialStatus(t *testing.T, url string, header http.Header) int {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(url, header)
	if err == nil {
		ws.Close()
		return http.StatusSwitchingProtocols
	}
	if resp == nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	return resp.StatusCode
}

// sseEvents reads the data lines of an SSE body.
func sseEvents(body io.Reader) <-chan string {
	out := make(chan string, 256)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(body)
		sc.Buffer(nil, 8<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				out <- data
			}
		}
	}()
	return out
}

// waitStatus waits up to 20 s for base's /status to answer.
func waitStatus(t *testing.T, base string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(base + "/status")
		if err == nil {
			resp.Body.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s/status never answered: %v", base, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
