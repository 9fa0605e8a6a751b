package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginHooksInRun: the same user plugin works in `goose-acp run`
// (the headless path scheduled recipes take too): its SessionStart banner
// is printed on stderr before the turn, its PreToolUse hook denies rm -rf
// (the command never runs, the model reads goose's denial), its Stop hook
// re-prompts once with goose's line printed, and SessionEnd runs when the
// run ends.
func TestPluginHooksInRun(t *testing.T) {
	work := t.TempDir()
	keep := filepath.Join(work, "keep.txt")
	if err := os.WriteFile(keep, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := newAgentEnv(t,
		toolCallTurn("call_rm", shellTool, map[string]string{"command": "rm -rf keep.txt"}),
		textTurn("All done."),
		textTurn("Tests pass. Done."))
	root := userPlugin(t, env, "guard", map[string]string{
		"guard.sh": guardScript,
		"stop.sh":  stopScript,
		"hooks/hooks.json": hooksJSON(map[string][2]string{
			"SessionStart": {"", `cat > /dev/null; printf '{"banner":"3 open tasks in this repo"}'`},
			"PreToolUse":   {"shell$", "sh ${PLUGIN_ROOT}/guard.sh"},
			"Stop":         {"", "sh ${PLUGIN_ROOT}/stop.sh"},
			"SessionEnd":   {"", recordTo("end.log")},
		}),
	})
	r := runGoose(t, env, work, "", "-t", "clean up")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if r.stdout != "All done.\nTests pass. Done.\n" {
		t.Fatalf("stdout %q", r.stdout)
	}
	lines := strings.Split(r.stderr, "\n")
	if lines[0] != "3 open tasks in this repo" || !strings.Contains(r.stderr, "\n    error: Tool call denied by policy hook `guard`: rm -rf is not allowed here.") ||
		!strings.Contains(r.stderr, "\nStop hook `guard` blocked ending this turn.\n") {
		t.Fatalf("stderr (banner first, the denied call, the Stop hook's line):\n%s", r.stderr)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "precious" {
		t.Fatalf("the denied command ran: %v %q", err, b)
	}
	if !llmSaw(env, "Tool call denied by policy hook `guard`: rm -rf is not allowed here. Do not retry; this is a policy denial, not a transient failure.") {
		t.Fatal("the model did not read the denial")
	}
	if n := len(env.LLM.Requests()); n != 3 {
		t.Fatalf("%d model requests, want 3 (the tool call, the blocked stop, the re-prompt)", n)
	}
	if pre := payloads(filepath.Join(root, "pre.log")); len(pre) != 1 || !strings.Contains(pre[0], `"tool_call_id":"call_rm"`) {
		t.Fatalf("PreToolUse payloads %q", pre)
	}
	if stop := payloads(filepath.Join(root, "stop.log")); len(stop) != 2 {
		t.Fatalf("Stop ran %d times, want 2", len(stop))
	}
	if end := waitPayloads(filepath.Join(root, "end.log"), 1); len(end) != 1 {
		t.Fatalf("SessionEnd payloads %q", end)
	}
}

// TestPluginHooksInGoosed: the same hooks over goosed's REST face (the
// legacy POST /reply SSE stream Desktop reads): the PreToolUse hook
// denies rm -rf (the command never runs, the tool response carries
// goose's denial), and the Stop hook's notification is an inline system
// notification message in the stream before the re-prompted answer.
func TestPluginHooksInGoosed(t *testing.T) {
	work := t.TempDir()
	keep := filepath.Join(work, "keep.txt")
	if err := os.WriteFile(keep, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := newAgentEnv(t,
		toolCallTurn("call_rm", shellTool, map[string]string{"command": "rm -rf keep.txt"}),
		textTurn("All done."),
		textTurn("Tests pass. Done."))
	root := userPlugin(t, env, "guard", map[string]string{
		"guard.sh": guardScript,
		"stop.sh":  stopScript,
		"hooks/hooks.json": hooksJSON(map[string][2]string{
			"PreToolUse": {"shell$", "sh ${PLUGIN_ROOT}/guard.sh"},
			"Stop":       {"", "sh ${PLUGIN_ROOT}/stop.sh"},
		}),
	})
	const secret = "hooks-secret"
	base := startPlainGoosed(t, env, secret)
	var started struct {
		ID string `json:"id"`
	}
	if code := httpCall(t, "POST", base+"/agent/start", secret, `{"working_dir":`+string(mustMarshal(work))+`}`, &started); code != 200 {
		t.Fatalf("agent/start: %d", code)
	}
	body := `{"session_id":"` + started.ID + `","user_message":{"role":"user","created":1,"content":[{"type":"text","text":"clean up"}],"metadata":{"userVisible":true,"agentVisible":true}}}`
	req, _ := http.NewRequest("POST", base+"/reply", strings.NewReader(body))
	req.Header.Set("X-Secret-Key", secret)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	stream, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(stream), `"type":"Finish"`) {
		t.Fatalf("/reply %d:\n%s", resp.StatusCode, stream)
	}
	if b, err := os.ReadFile(keep); err != nil || string(b) != "precious" {
		t.Fatalf("the denied command ran: %v %q", err, b)
	}
	// What Desktop renders, in stream order: the denied call's result,
	// the Stop hook's inline notification, the re-prompted answer.
	var order []string
	for _, line := range strings.Split(string(stream), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type    string `json:"type"`
			Message struct {
				Content []struct {
					Type       string          `json:"type"`
					Text       string          `json:"text"`
					Msg        string          `json:"msg"`
					ToolResult json.RawMessage `json:"toolResult"`
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(data), &ev) != nil || ev.Type != "Message" {
			continue
		}
		for _, c := range ev.Message.Content {
			switch c.Type {
			case "toolResponse":
				if strings.Contains(string(c.ToolResult), "Tool call denied by policy hook `guard`: rm -rf is not allowed here.") {
					order = append(order, "denied")
				}
			case "systemNotification":
				order = append(order, "notification: "+c.Msg)
			case "text":
				if c.Text == "Tests pass. Done." {
					order = append(order, "answer")
				}
			}
		}
	}
	want := "denied|notification: Stop hook `guard` blocked ending this turn.|answer"
	if strings.Join(order, "|") != want {
		t.Fatalf("stream order %q, want %q\n%s", order, want, stream)
	}
	if stop := payloads(filepath.Join(root, "stop.log")); len(stop) != 2 || !strings.Contains(stop[0], `"session_id":"`+started.ID+`"`) {
		t.Fatalf("Stop payloads %q", stop)
	}
}
