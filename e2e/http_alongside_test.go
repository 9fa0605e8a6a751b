package e2e

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// httpGet calls the goosed API with the secret and decodes JSON into out.
func httpCall(t *testing.T, method, url, secret, body string, out any) int {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("X-Secret-Key", secret)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v (%s)", method, url, err, b)
		}
	}
	return resp.StatusCode
}

// TestHTTPAlongsideACPSharesSessions: with --http, a session made in the
// editor shows up (with its conversation) for the desktop and one made by
// the desktop shows up in the editor's session/list; stdout stays ACP-only
// and closing stdin does not stop the HTTP server.
func TestHTTPAlongsideACPSharesSessions(t *testing.T) {
	env := newAgentEnv(t, providertest.Turn{Text: []string{"hello from ", "the editor"}})
	const secret = "alongside-secret"
	env.Vars["GOOSE_SERVER__SECRET_KEY"] = secret
	addr := freeAddr(t)
	base := "http://" + addr
	c := startAgent(t, env, "--http", addr, "--tls=false")
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	if resp := c.prompt(sess.SessionID, "hi"); resp.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", resp)
	}
	waitStatus(t, base)
	if code := httpCall(t, "GET", base+"/sessions", "wrong", "", nil); code != 401 {
		t.Fatalf("wrong secret: %d", code)
	}
	var list struct {
		Sessions []struct {
			ID           string `json:"id"`
			MessageCount int    `json:"message_count"`
		} `json:"sessions"`
	}
	httpCall(t, "GET", base+"/sessions", secret, "", &list)
	found := false
	for _, s := range list.Sessions {
		found = found || (s.ID == sess.SessionID && s.MessageCount == 2)
	}
	if !found {
		t.Fatalf("editor session %s not listed for the desktop: %+v", sess.SessionID, list)
	}
	var full struct {
		Conversation []json.RawMessage `json:"conversation"`
	}
	httpCall(t, "GET", base+"/sessions/"+sess.SessionID, secret, "", &full)
	full.Conversation = rawWithoutTurnContext(full.Conversation)
	if len(full.Conversation) != 2 || !strings.Contains(string(full.Conversation[1]), "the editor") {
		t.Fatalf("conversation seen by the desktop: %s", full.Conversation)
	}
	// And back: a desktop session is in the editor's list.
	var started struct {
		ID string `json:"id"`
	}
	if code := httpCall(t, "POST", base+"/agent/start", secret, `{"working_dir":`+string(mustMarshal(env.Root))+`}`, &started); code != 200 {
		t.Fatalf("agent/start: %d", code)
	}
	var listed acp.ListSessionsResponse
	c.call("session/list", map[string]any{}, &listed)
	seen := false
	for _, s := range listed.Sessions {
		seen = seen || s.SessionID == started.ID
	}
	if !seen {
		t.Fatalf("desktop session %s not in session/list: %+v", started.ID, listed)
	}
	c.assertCleanStdout()
	terminate(t, c)
}

// TestHTTPAlongsideSurvivesStdinClose: closing stdin ends ACP, but the
// HTTP server keeps serving until the process is signalled.
func TestHTTPAlongsideSurvivesStdinClose(t *testing.T) {
	env := newAgentEnv(t)
	const secret = "alongside-secret"
	env.Vars["GOOSE_SERVER__SECRET_KEY"] = secret
	addr := freeAddr(t)
	base := "http://" + addr
	c := startAgent(t, env, "--http", addr, "--tls=false")
	c.initialize(acp.ClientCapabilities{})
	waitStatus(t, base)
	_ = c.stdin.Close()
	time.Sleep(500 * time.Millisecond)
	req, _ := http.NewRequest("GET", base+"/sessions", nil)
	req.Header.Set("X-Secret-Key", secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("HTTP API stopped when stdin closed: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("after stdin closed: %d", resp.StatusCode)
	}
	terminate(t, c)
}

// terminate ends an agent serving --http the way Desktop does, with
// SIGTERM (closing stdin alone leaves the HTTP API running), and checks it
// exits promptly and cleanly.
func terminate(t *testing.T, c *acpClient) {
	t.Helper()
	_ = c.stdin.Close()
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("goose-acp exited with %v after SIGTERM\nstderr:\n%s", err, c.stderr.String())
		}
	case <-time.After(10 * time.Second):
		_ = c.cmd.Process.Kill()
		t.Fatalf("goose-acp did not exit within 10s of SIGTERM\nstderr:\n%s", c.stderr.String())
	}
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
