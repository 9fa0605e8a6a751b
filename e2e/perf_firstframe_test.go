package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The goose-acp an editor spawns answers its initialize while the binary
// is still initialising (cmd/goose-acp/internal/firstframe) — the same
// bytes the ACP server writes — and the server reads on from there: a
// session/new sent in the same write as initialize is answered, and the
// client capabilities of that initialize are the connection's.
func TestEditorProcessAnswersInitializeWhileStarting(t *testing.T) {
	env := newAgentEnv(t)
	logFile := filepath.Join(env.Root, "agent.log")
	cmd := exec.Command(binary, "--log-level", "debug", "--log-file", logFile)
	cmd.Env, cmd.Dir = env.environ(), env.Root
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	cwd := t.TempDir()
	cwdJSON, _ := json.Marshal(cwd)
	if _, err := stdin.Write([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":` + zedInitialize + "}\n" +
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":` + string(cwdJSON) + `,"mcpServers":[]}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	var init struct {
		ID     int                        `json:"id"`
		Result map[string]json.RawMessage `json:"result"`
	}
	if !lines.Scan() || json.Unmarshal(lines.Bytes(), &init) != nil || init.ID != 0 {
		t.Fatalf("first frame %q, want initialize's answer", lines.Text())
	}
	exe, _ := filepath.Abs(binary)
	if !strings.Contains(lines.Text(), `"terminal-auth":{"args":["configure"],"command":`+string(mustJSON(t, exe))) {
		t.Fatalf("initialize answer without Zed's terminal-auth command %q: %s", exe, lines.Text())
	}
	for lines.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("frame %q: %v", lines.Text(), err)
		}
		if m.ID == nil {
			continue // session/update notifications
		}
		if *m.ID != 1 || m.Error != nil || !strings.Contains(string(m.Result), `"sessionId"`) {
			t.Fatalf("session/new answer %s", lines.Text())
		}
		break
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "initialize was answered while the process started") {
		t.Fatalf("the log does not say initialize was answered at start:\n%s", log)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A start-up that fails after initialize was answered early (here an
// unparsable config.yaml) does not leave the editor with an agent that
// answered and vanished: its next request is answered with the reason,
// as when the session database cannot open, and the process exits with
// the failure's code once the editor closes stdin. initialize is in the
// pipe before the process starts, so it is nearly always read before the
// configuration fails; a run where the failure came first must end as
// before the early answer existed (no answer, exit 1), and is tried again.
func TestEditorProcessTellsWhyItCouldNotStartAfterInitialize(t *testing.T) {
	env := newAgentEnv(t)
	if err := os.MkdirAll(filepath.Join(env.Root, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(env.Root, "config", "config.yaml"), []byte("extensions: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if startFailureAfterInitialize(t, env) {
			return
		}
	}
	t.Fatal("in 10 runs the configuration always failed before initialize was read")
}

// startFailureAfterInitialize runs one such process; false when start-up
// failed before initialize was answered (checked to end as it did before).
func startFailureAfterInitialize(t *testing.T, env *agentEnv) bool {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inW.Close()
	if _, err := inW.Write([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":` + zedInitialize + "}\n")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary)
	cmd.Env, cmd.Dir, cmd.Stdin = env.environ(), env.Root, inR
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	defer func() { _ = cmd.Process.Kill() }()
	lines := bufio.NewScanner(stdout)
	exitedWith := func(code int) {
		t.Helper()
		var exit *exec.ExitError
		if err := cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != code {
			t.Fatalf("exit %v, want code %d; stderr %q", err, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "goose-acp: config: cannot parse") {
			t.Fatalf("stderr %q", stderr.String())
		}
	}
	if !lines.Scan() {
		exitedWith(1) // the configuration failed first: nothing was answered
		return false
	}
	if !strings.HasPrefix(lines.Text(), `{"id":0,"result":`) {
		t.Fatalf("initialize answer %q", lines.Text())
	}
	if _, err := inW.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	if !lines.Scan() {
		t.Fatalf("no answer to session/new; stderr %q", stderr.String())
	}
	var m struct {
		ID    int `json:"id"`
		Error struct {
			Code int    `json:"code"`
			Data string `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(lines.Bytes(), &m); err != nil || m.ID != 1 || m.Error.Code != -32603 ||
		!strings.HasPrefix(m.Error.Data, "goose-acp could not start: config: cannot parse ") {
		t.Fatalf("session/new answer %s", lines.Text())
	}
	inW.Close()
	exitedWith(1)
	return true
}
