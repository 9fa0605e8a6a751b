package e2e

import (
	"bufio"
	"encoding/json"
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
