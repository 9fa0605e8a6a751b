package e2e

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/httpapi"
)

// TestServeAuthOriginAndStatus: /status and /health need nothing; /acp
// needs the secret as ?token= or X-Secret-Key; a foreign Origin is refused
// on the WebSocket handshake, file:// and null (Electron) are not.
func TestServeAuthOriginAndStatus(t *testing.T) {
	env := newAgentEnv(t)
	p := startServe(t, env, "desk-secret")
	for _, path := range []string{"/status", "/health"} {
		resp, err := http.Get(p.base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "ok" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("GET %s: %d %q %v", path, resp.StatusCode, b, resp.Header)
		}
	}
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	for _, c := range []struct {
		name, query string
		header      http.Header
		want        int
	}{
		{"no token", "", nil, 401},
		{"wrong token", "?token=nope", nil, 401},
		{"goosed's ?secret= is not serve's", "?secret=desk-secret", nil, 401},
		{"wrong X-Secret-Key", "", hdr("X-Secret-Key", "nope"), 401},
		{"token", "?token=desk-secret", nil, 101},
		{"X-Secret-Key", "", hdr("X-Secret-Key", "desk-secret"), 101},
		{"foreign origin", "?token=desk-secret", hdr("Origin", "https://evil.example"), 403},
		{"file:// origin", "?token=desk-secret", hdr("Origin", "file://"), 101},
		{"null origin", "?token=desk-secret", hdr("Origin", "null"), 101},
		{"localhost origin", "?token=desk-secret", hdr("Origin", "http://localhost:5173"), 101},
	} {
		if got := dialStatus(t, p.wsURL(c.query), c.header); got != c.want {
			t.Errorf("%s: HTTP %d, want %d", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		url  string
		want int
	}{{p.base + "/sessions", 401}, {p.base + "/sessions?token=desk-secret", 404}} {
		resp, err := http.Get(c.url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("GET %s: %d, want %d", c.url, resp.StatusCode, c.want)
		}
	}
}

// TestServeRefusesWithoutSecretOrOffLoopback: Desktop always sets the
// secret; without it, or on a public host without --allow-remote, serve
// refuses clearly before listening.
func TestServeRefusesWithoutSecretOrOffLoopback(t *testing.T) {
	env := newAgentEnv(t)
	for _, c := range []struct {
		args   []string
		secret string
		want   string
	}{
		{[]string{"serve", "--port", "1"}, "", "GOOSE_SERVER__SECRET_KEY is not set"},
		{[]string{"serve", "--port", "1"}, "   ", "GOOSE_SERVER__SECRET_KEY is not set"},
		{[]string{"serve", "--host", "0.0.0.0", "--port", "1"}, "s", `--host "0.0.0.0:1" is not a loopback address; pass --allow-remote`},
		{[]string{"serve", "--platform", ""}, "s", `--platform needs a value`},
	} {
		cmd := exec.Command(binary, c.args...)
		cmd.Env = append(env.environ(), "GOOSE_SERVER__SECRET_KEY="+c.secret)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), c.want) {
			t.Errorf("%v: %v %s", c.args, err, out)
		}
	}
}

// TestServeWebSocketReconnectLoad: a chat over one socket, the socket
// drops, a new socket (a new initialize) finds the session in session/list
// and session/load replays it; the session keeps working.
func TestServeWebSocketReconnectLoad(t *testing.T) {
	env := newAgentEnv(t, textTurn("first answer"), textTurn("second answer"))
	p := startServe(t, env, "desk-secret")
	c, ws := dialACP(t, p.wsURL("?token=desk-secret"), nil, p.stderr)
	if init := c.initialize(acp.ClientCapabilities{}); !init.AgentCapabilities.LoadSession {
		t.Fatalf("initialize: %+v", init)
	}
	sess := c.newSession(env.Root)
	if resp := c.prompt(sess.SessionID, "hello"); resp.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", resp)
	}
	if got := c.agentText(sess.SessionID); got != "first answer" {
		t.Fatalf("streamed text %q", got)
	}
	ws.Close()
	c.conn.Close()

	c2, _ := dialACP(t, p.wsURL("?token=desk-secret"), nil, p.stderr)
	c2.initialize(acp.ClientCapabilities{})
	var list acp.ListSessionsResponse
	c2.call("session/list", map[string]any{}, &list)
	found := false
	for _, s := range list.Sessions {
		found = found || s.SessionID == sess.SessionID
	}
	if !found {
		t.Fatalf("session %s not listed after reconnect: %+v", sess.SessionID, list)
	}
	c2.call("session/load", acp.LoadSessionRequest{SessionID: sess.SessionID, CWD: env.Root, MCPServers: acp.MCPServers{}}, nil)
	var user, agent strings.Builder
	for _, u := range c2.updatesOf(sess.SessionID) {
		if u.Content == nil {
			continue
		}
		switch u.SessionUpdate {
		case acp.UpdateUserMessageChunk:
			user.WriteString(u.Content.Text)
		case acp.UpdateAgentMessageChunk:
			agent.WriteString(u.Content.Text)
		}
	}
	if user.String() != "hello" || agent.String() != "first answer" {
		t.Fatalf("replay: user %q agent %q", user.String(), agent.String())
	}
	if resp := c2.prompt(sess.SessionID, "again"); resp.StopReason != "end_turn" {
		t.Fatalf("prompt after load: %+v", resp)
	}
	if reqs := env.LLM.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "first answer") {
		t.Fatalf("the second turn did not carry the history: %d requests", len(reqs))
	}
}

// TestServeStreamableHTTP: the RFD's POST/GET/DELETE form against the real
// agent, over HTTP/2 (h2c with prior knowledge, as the RFD requires):
// initialize → 200 + Acp-Connection-Id, session/new and a prompt → 202
// with every answer and update on the GET stream, DELETE → 202; the session
// then loads over a WebSocket.
func TestServeStreamableHTTP(t *testing.T) {
	env := newAgentEnv(t, textTurn("over http"))
	p := startServe(t, env, "desk-secret")
	url := p.base + "/acp?token=desk-secret"
	var h2c http.Protocols
	h2c.SetUnencryptedHTTP2(true)
	client := &http.Client{Transport: &http.Transport{Protocols: &h2c}}
	send := func(conn, session, body string) *http.Response {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if conn != "" {
			req.Header.Set("Acp-Connection-Id", conn)
		}
		if session != "" {
			req.Header.Set("Acp-Session-Id", session)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	resp := send("", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	var init struct {
		ID     int                    `json:"id"`
		Result acp.InitializeResponse `json:"result"`
	}
	conn := resp.Header.Get("Acp-Connection-Id")
	if resp.ProtoMajor != 2 {
		t.Fatalf("initialize was answered over %s, not HTTP/2", resp.Proto)
	}
	if err := json.NewDecoder(resp.Body).Decode(&init); err != nil || resp.StatusCode != 200 || conn == "" || init.ID != 1 || init.Result.ProtocolVersion != 1 {
		t.Fatalf("initialize: %d %q %+v %v", resp.StatusCode, conn, init, err)
	}
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Acp-Connection-Id", conn)
	stream, err := client.Do(req)
	if err != nil || stream.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", stream, err)
	}
	defer stream.Body.Close()
	events := sseEvents(stream.Body)
	nextID := func(id int) (frames []string) {
		t.Helper()
		timeout := time.After(30 * time.Second)
		for {
			select {
			case ev, ok := <-events:
				if !ok {
					t.Fatalf("stream ended; frames so far %q\nstderr:\n%s", frames, p.stderr.String())
				}
				frames = append(frames, ev)
				var m struct {
					ID     *int            `json:"id"`
					Method string          `json:"method"`
					Result json.RawMessage `json:"result"`
				}
				if json.Unmarshal([]byte(ev), &m) == nil && m.ID != nil && *m.ID == id && m.Method == "" {
					return frames
				}
			case <-timeout:
				t.Fatalf("no answer to %d; frames %q", id, frames)
			}
		}
	}
	if r := send(conn, "", `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":`+string(mustMarshal(env.Root))+`,"mcpServers":[]}}`); r.StatusCode != 202 {
		t.Fatalf("session/new: %d", r.StatusCode)
	}
	frames := nextID(2)
	var created struct {
		Result acp.NewSessionResponse `json:"result"`
	}
	_ = json.Unmarshal([]byte(frames[len(frames)-1]), &created)
	sid := created.Result.SessionID
	if sid == "" {
		t.Fatalf("session/new answer: %q", frames)
	}
	prompt := `{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"` + sid + `","prompt":[{"type":"text","text":"hi"}]}}`
	if r := send(conn, "", prompt); r.StatusCode != 400 {
		t.Fatalf("session/prompt without Acp-Session-Id: %d", r.StatusCode)
	}
	if r := send(conn, sid, prompt); r.StatusCode != 202 {
		t.Fatalf("session/prompt: %d", r.StatusCode)
	}
	frames = nextID(3)
	joined := strings.Join(frames, "\n")
	if !strings.Contains(joined, `"agent_message_chunk"`) || !strings.Contains(joined, "over http") || !strings.Contains(frames[len(frames)-1], `"end_turn"`) {
		t.Fatalf("prompt frames: %s", joined)
	}
	del, _ := http.NewRequest("DELETE", url, nil)
	del.Header.Set("Acp-Connection-Id", conn)
	dr, err := client.Do(del)
	if err != nil || dr.StatusCode != 202 {
		t.Fatalf("DELETE: %v %v", dr, err)
	}
	dr.Body.Close()
	if r := send(conn, "", `{"jsonrpc":"2.0","id":4,"method":"session/list","params":{}}`); r.StatusCode != 404 {
		t.Fatalf("after DELETE: %d", r.StatusCode)
	}
	// The session outlived its connection.
	c, _ := dialACP(t, p.wsURL("?token=desk-secret"), nil, p.stderr)
	c.initialize(acp.ClientCapabilities{})
	c.call("session/load", acp.LoadSessionRequest{SessionID: sid, CWD: env.Root, MCPServers: acp.MCPServers{}}, nil)
	if got := c.agentText(sid); got != "over http" {
		t.Fatalf("replay after DELETE: %q", got)
	}
}

// TestSessionsSharedAcrossStdioWebSocketAndREST: one process, one core
// agent: with --http beside stdio, a session made over the editor's stdio is
// listed and loadable over /acp (the goosed ?secret= alias) and a session
// made over /acp is in the editor's session/list and the REST API.
func TestSessionsSharedAcrossStdioWebSocketAndREST(t *testing.T) {
	env := newAgentEnv(t, textTurn("from stdio"), textTurn("from the socket"), textTurn("still the editor's"))
	const secret = "shared-secret"
	env.Vars["GOOSE_SERVER__SECRET_KEY"] = secret
	addr := freeAddr(t)
	c := startAgent(t, env, "--http", addr, "--tls=false")
	c.initialize(acp.ClientCapabilities{})
	editor := c.newSession(env.Root)
	c.prompt(editor.SessionID, "hi")
	base := "http://" + addr
	waitStatus(t, base)
	w, ws := dialACP(t, "ws://"+addr+"/acp?secret="+secret, nil, c.stderr)
	w.initialize(acp.ClientCapabilities{})
	w.call("session/load", acp.LoadSessionRequest{SessionID: editor.SessionID, CWD: env.Root, MCPServers: acp.MCPServers{}}, nil)
	if got := w.agentText(editor.SessionID); got != "from stdio" {
		t.Fatalf("the socket's replay of the editor's session: %q", got)
	}
	desk := w.newSession(env.Root)
	if resp := w.prompt(desk.SessionID, "hello"); resp.StopReason != "end_turn" {
		t.Fatalf("socket prompt: %+v", resp)
	}
	var listed acp.ListSessionsResponse
	c.call("session/list", map[string]any{}, &listed)
	seen := false
	for _, s := range listed.Sessions {
		seen = seen || s.SessionID == desk.SessionID
	}
	if !seen {
		t.Fatalf("socket session %s not in the editor's session/list", desk.SessionID)
	}
	var full struct {
		Conversation []json.RawMessage `json:"conversation"`
	}
	code := httpCall(t, "GET", base+"/sessions/"+desk.SessionID, secret, "", &full)
	full.Conversation = rawWithoutTurnContext(full.Conversation)
	if code != 200 || len(full.Conversation) != 2 || !strings.Contains(string(full.Conversation[1]), "from the socket") {
		t.Fatalf("REST view of the socket session: %d %s", code, full.Conversation)
	}
	c.call("session/load", acp.LoadSessionRequest{SessionID: desk.SessionID, CWD: env.Root, MCPServers: acp.MCPServers{}}, nil)
	if got := c.agentText(desk.SessionID); got != "from the socket" {
		t.Fatalf("the editor's replay of the socket session: %q", got)
	}
	// The socket going away does not take the editor's open session with it.
	ws.Close()
	w.conn.Close()
	time.Sleep(200 * time.Millisecond)
	if resp := c.prompt(editor.SessionID, "again"); resp.StopReason != "end_turn" {
		t.Fatalf("editor prompt after the socket left: %+v", resp)
	}
	terminate(t, c)
}

// TestServeTLSPrintsFingerprint: with --tls, serve prints the
// GOOSED_CERT_FINGERPRINT= line Desktop waits for (and nothing else on
// stdout) and answers /status and the WebSocket over TLS with that
// certificate.
func TestServeTLSPrintsFingerprint(t *testing.T) {
	env := newAgentEnv(t)
	_, port, _ := strings.Cut(freeAddr(t), ":")
	cmd := exec.Command(binary, "serve", "--tls", "--platform", "desktop", "--host", "127.0.0.1", "--port", port)
	cmd.Env = append(env.environ(), "GOOSE_SERVER__SECRET_KEY=tls-secret")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}()
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var fingerprint string
	select {
	case l := <-lines:
		var ok bool
		if fingerprint, ok = strings.CutPrefix(l, "GOOSED_CERT_FINGERPRINT="); !ok || len(fingerprint) != 95 {
			t.Fatalf("first stdout line %q", l)
		}
	case <-time.After(5 * time.Second): // Desktop's TLS_FINGERPRINT_TIMEOUT_MS
		t.Fatalf("no fingerprint line within 5 s\nstderr:\n%s", stderr.String())
	}
	// Pin the certificate by fingerprint, as Desktop does.
	pinned := &tls.Config{InsecureSkipVerify: true, VerifyConnection: func(cs tls.ConnectionState) error {
		if got := httpapi.Fingerprint(cs.PeerCertificates[0].Raw); got != fingerprint {
			return fmt.Errorf("certificate %s, want %s", got, fingerprint)
		}
		return nil
	}}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: pinned}, Timeout: time.Second}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := client.Get("https://127.0.0.1:" + port + "/status")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("/status over TLS: %d", resp.StatusCode)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/status over TLS: %v\nstderr:\n%s", err, stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	dialer := websocket.Dialer{TLSClientConfig: pinned}
	ws, _, err := dialer.Dial("wss://127.0.0.1:"+port+"/acp?token=tls-secret", nil)
	if err != nil {
		t.Fatalf("wss: %v", err)
	}
	defer ws.Close()
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)); err != nil {
		t.Fatal(err)
	}
	_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, msg, err := ws.ReadMessage(); err != nil || !strings.Contains(string(msg), `"protocolVersion":1`) {
		t.Fatalf("initialize over wss: %s %v", msg, err)
	}
	select {
	case l, ok := <-lines:
		if ok {
			t.Errorf("stdout carried more than the fingerprint: %q", l)
		}
	default:
	}
}
