//go:build !windows

package e2e

import (
	"strings"
	"testing"
)

// In a terminal: thinking dimmed, the tool call with its command, the
// approval asked inline (approve mode), a result line, the answer, and no
// INFO log lines.
func TestRunInATerminalAsksApprovalInline(t *testing.T) {
	turns := shellTurns("echo hello-from-tool", "All done.")
	turns[0].Thinking = []string{"I should list them."}
	env := newAgentEnv(t, turns...)
	delete(env.Vars, "GOOSE_LOG_LEVEL")
	env.Vars["GOOSE_MODE"] = "approve"
	env.Vars["TERM"] = "xterm-256color"
	p := startPTY(t, env.environ(), "run", "-t", "list files please")
	p.expect("goose would like to call the above tool (shell), do you allow?")
	p.send("y\r")
	p.expect("All done.")
	if code := p.wait(); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, p.screen())
	}
	screen := p.screen()
	for _, want := range []string{
		"I should list them.",
		"─── shell ──────────────────────────\r\ncommand: echo hello-from-tool\r\n",
		"    → hello-from-tool\r\n",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	p.mu.Lock()
	raw := p.out.String()
	p.mu.Unlock()
	if !strings.Contains(raw, "\x1b[2mI should list them.\x1b[0m") || !strings.Contains(raw, "\x1b[36m─── shell") {
		t.Errorf("thinking not dimmed or header not coloured: %q", raw)
	}
	if strings.Contains(screen, "INFO") {
		t.Errorf("INFO log lines on the terminal:\n%s", screen)
	}
}

// Denying in the terminal sends goose's declined response to the model.
func TestRunInATerminalDenied(t *testing.T) {
	env := newAgentEnv(t, shellTurns("rm -rf /tmp/nothing", "Understood.")...)
	env.Vars["GOOSE_MODE"] = "approve"
	p := startPTY(t, env.environ(), "run", "-t", "clean up")
	p.expect("do you allow?")
	p.send("maybe\r")
	p.expect("do you allow?")
	p.send("n\r")
	p.expect("Understood.")
	if code := p.wait(); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, p.screen())
	}
	reqs := env.LLM.Script.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1]), "The user has declined to run this tool") {
		t.Fatalf("second request lacks the declined response: %d requests", len(reqs))
	}
}
