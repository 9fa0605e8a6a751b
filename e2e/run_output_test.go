package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// shellTurns: the model runs one shell command, then answers.
func shellTurns(command, answer string) []providertest.Turn {
	args, _ := json.Marshal(map[string]string{"command": command})
	return []providertest.Turn{
		{ToolCalls: []providertest.ToolCall{{ID: "call_1", Name: "shell", Arguments: string(args)}}, Usage: &providertest.Usage{Input: 10, Output: 5}},
		{Text: []string{answer}, Usage: &providertest.Usage{Input: 20, Output: 3}},
	}
}

// Piped: plain text, the tool call and its result on stderr, no log lines
// below WARN (they go to the state directory's log file).
func TestRunThroughAPipeShowsToolCallsAndKeepsLogsInTheLogFile(t *testing.T) {
	env := newAgentEnv(t, shellTurns("echo hello-from-tool", "There is one greeting.")...)
	delete(env.Vars, "GOOSE_LOG_LEVEL")
	r := runGoose(t, env, t.TempDir(), "", "-t", "list files please")
	if r.code != 0 || r.stdout != "There is one greeting.\n" {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	want := "─── shell ──────────────────────────\ncommand: echo hello-from-tool\n    → hello-from-tool\n"
	if r.stderr != want {
		t.Fatalf("stderr %q\nwant   %q", r.stderr, want)
	}
	logs, err := filepath.Glob(filepath.Join(env.Root, "state", "logs", "cli", "*", "*.log"))
	if err != nil || len(logs) != 1 {
		t.Fatalf("log files %v (%v)", logs, err)
	}
	b, err := os.ReadFile(logs[0])
	if err != nil || !strings.Contains(string(b), `"level":"info"`) {
		t.Fatalf("log file %s lacks info records: %s", logs[0], b)
	}
}

func TestRunStreamJSON(t *testing.T) {
	env := newAgentEnv(t, shellTurns("echo hi", "done")...)
	r := runGoose(t, env, t.TempDir(), "", "-t", "go", "--output-format", "stream-json")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	var types []string
	var sawRequest, sawResponse bool
	var last map[string]any
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("not a JSON line: %q", sc.Text())
		}
		types = append(types, ev["type"].(string))
		if msg, ok := ev["message"].(map[string]any); ok {
			for _, c := range msg["content"].([]any) {
				switch c.(map[string]any)["type"] {
				case "toolRequest":
					sawRequest = true
				case "toolResponse":
					sawResponse = true
				}
			}
		}
		if ev["type"] == "notification" && ev["extension_id"] != "developer" {
			t.Fatalf("notification %v", ev)
		}
		last = ev
	}
	if !sawRequest || !sawResponse || types[0] != "message" || last["type"] != "complete" || last["total_tokens"] != float64(23) {
		t.Fatalf("events %v last %v\n%s", types, last, r.stdout)
	}
}

func TestRunJSONDocument(t *testing.T) {
	env := newAgentEnv(t, shellTurns("echo hi", "done")...)
	r := runGoose(t, env, t.TempDir(), "", "-t", "go", "--output-format", "json")
	var doc struct {
		Messages []struct {
			Role    string           `json:"role"`
			Content []map[string]any `json:"content"`
		} `json:"messages"`
		Metadata map[string]any `json:"metadata"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 0 {
		t.Fatalf("exit %d stdout %q (%v)", r.code, r.stdout, err)
	}
	if len(doc.Messages) != 4 || doc.Messages[0].Role != "user" || doc.Messages[1].Content[0]["type"] != "toolRequest" ||
		doc.Messages[2].Content[0]["type"] != "toolResponse" || doc.Messages[3].Content[0]["text"] != "done" ||
		doc.Metadata["status"] != "completed" || doc.Metadata["total_tokens"] != float64(23) {
		t.Fatalf("document %s", r.stdout)
	}
}

// A failed turn exits 1 and says why, in every format.
func TestRunFailedTurnExitsNonZero(t *testing.T) {
	fail := providertest.Turn{Status: 500, ErrorBody: `{"error":{"message":"model exploded"}}`}
	env := newAgentEnv(t, fail, fail, fail, fail, fail, fail, fail, fail)
	r := runGoose(t, env, t.TempDir(), "", "-t", "go", "--output-format", "stream-json")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var last map[string]any
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &last)
	if r.code != 1 || last["type"] != "error" || !strings.Contains(last["error"].(string), "model exploded") ||
		!strings.Contains(r.stderr, "Error: openai: server error (status 500)") {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runGoose(t, env, t.TempDir(), "", "-t", "go")
	if r.code != 1 || !strings.Contains(r.stderr, "model exploded") {
		t.Fatalf("text: exit %d stderr %q", r.code, r.stderr)
	}
	if r = runGoose(t, env, t.TempDir(), "", "-t", "go", "--output-format", "yaml"); r.code != 2 ||
		!strings.HasPrefix(r.stderr, "Error: --output-format must be text, json or stream-json, not \"yaml\"") {
		t.Fatalf("bad format: exit %d stderr %q", r.code, r.stderr)
	}
}

// With no provider the run says, in one line, what to do.
func TestRunUnconfiguredSaysWhatToDo(t *testing.T) {
	env := newAgentEnv(t)
	unconfigured(env)
	r := runGoose(t, env, t.TempDir(), "", "-t", "hi")
	if r.code != 1 || !strings.HasSuffix("\n"+r.stderr, "\nError: "+unconfiguredReason+"\n") || strings.Contains(r.stderr, "Error: no provider configured") {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
}

// --log-level and --log-file override run's default (a log file in the
// state directory, warnings only on stderr).
func TestRunLogFlagsOverride(t *testing.T) {
	env := newAgentEnv(t, textTurn("one"), textTurn("two"))
	delete(env.Vars, "GOOSE_LOG_LEVEL")
	run := func(args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Env, cmd.Dir = env.environ(), t.TempDir()
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut.String())
		}
		return out.String(), errOut.String()
	}
	if _, stderr := run("--log-level", "info", "run", "-t", "x"); !strings.Contains(stderr, "INFO") {
		t.Fatalf("--log-level info: no INFO on stderr: %q", stderr)
	}
	logFile := filepath.Join(t.TempDir(), "run.log")
	if _, stderr := run("--log-file", logFile, "run", "-t", "x"); stderr != "" {
		t.Fatalf("--log-file: stderr %q", stderr)
	}
	if b, err := os.ReadFile(logFile); err != nil || !strings.Contains(string(b), `"level":"info"`) {
		t.Fatalf("--log-file: %v %s", err, b)
	}
	if logs, _ := filepath.Glob(filepath.Join(env.Root, "state", "logs", "cli", "*", "*.log")); len(logs) != 0 {
		t.Fatalf("a default log file was written too: %v", logs)
	}
}
