//go:build !windows

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// loneAgent is a copy of goose-acp in a directory of its own, with a PATH
// that has no goose-acp-configure either.
func loneAgent(t *testing.T) (bin string, env []string, root string) {
	t.Helper()
	dir := t.TempDir()
	b, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(dir, "goose-acp")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	root, env = configureHome(t)
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + t.TempDir()
		}
	}
	return bin, env, root
}

// `goose-acp configure` in a terminal without its helper says where it
// looked, how to build it and what works without it, and saves nothing.
func TestConfigureWithoutHelperSaysHowToGetIt(t *testing.T) {
	bin, env, root := loneAgent(t)
	dir := filepath.Dir(bin)
	p := startPTYBinary(t, bin, append(env, "TERM=xterm-256color"), "configure")
	if code := p.wait(); code != 1 {
		t.Fatalf("exit %d, want 1; screen:\n%s", code, p.screen())
	}
	<-p.done
	want := "Error: goose-acp configure runs its terminal set-up in a separate program, and goose-acp-configure was not found " +
		"(GOOSE_ACP_CONFIGURE is not set, and it is neither in " + dir + " beside goose-acp nor on PATH).\n" +
		"Build it from the goose-acp source into goose-acp's directory: go build -o " + filepath.Join(dir, "goose-acp-configure") + " ./cmd/goose-acp-configure\n" +
		"Or configure without it: goose-acp configure --provider openai --model gpt-4o-mini --api-key-env OPENAI_API_KEY " +
		"(goose-acp configure --help lists the flags).\n"
	if got := p.screen(); got != strings.ReplaceAll(want, "\n", "\r\n") {
		t.Fatalf("screen:\n%q\nwant\n%q", got, want)
	}
	if got := readConfigFile(t, root, "config.yaml"); got != userConfig {
		t.Fatalf("config.yaml changed:\n%s", got)
	}

	// GOOSE_ACP_CONFIGURE naming no program is an error of its own.
	missing := filepath.Join(dir, "nowhere", "goose-acp-configure")
	p = startPTYBinary(t, bin, append(env, "TERM=xterm-256color", "GOOSE_ACP_CONFIGURE="+missing), "configure")
	if code := p.wait(); code != 1 {
		t.Fatalf("exit %d, want 1; screen:\n%s", code, p.screen())
	}
	<-p.done
	want = "Error: goose-acp configure cannot run its terminal set-up: GOOSE_ACP_CONFIGURE is set to " + missing +
		", which is not an executable file (no such file or directory). Point it at a goose-acp-configure (go build -o " + missing +
		" ./cmd/goose-acp-configure) or unset it to use the one beside goose-acp.\n" +
		"Or configure without it: goose-acp configure --provider openai --model gpt-4o-mini --api-key-env OPENAI_API_KEY " +
		"(goose-acp configure --help lists the flags).\n"
	if got := p.screen(); got != strings.ReplaceAll(want, "\n", "\r\n") {
		t.Fatalf("screen:\n%q\nwant\n%q", got, want)
	}
}

// The flags form is goose-acp's own: it works without the helper, and a
// script without flags is still refused the same way.
func TestConfigureWithFlagsNeedsNoHelper(t *testing.T) {
	llm := providertest.Start(providertest.OpenAI, providertest.NewScript(providertest.Turn{Text: []string{"ok"}}))
	defer llm.Close()
	bin, env, root := loneAgent(t)
	run := func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, append([]string{"configure"}, args...)...)
		cmd.Env = append(env, "MY_KEY=sk-lone")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr, cmd.Stdin = &out, &errOut, strings.NewReader("")
		_ = cmd.Run()
		return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
	}
	code, stdout, stderr := run("--provider", "openai", "--model", "gpt-4o-mini", "--host", llm.URL, "--api-key-env", "MY_KEY")
	cfgDir := filepath.Join(root, "config")
	want := "Saved GOOSE_PROVIDER=openai and GOOSE_MODEL=gpt-4o-mini to " + filepath.Join(cfgDir, "config.yaml") + "\n" +
		"Stored OPENAI_API_KEY in " + filepath.Join(cfgDir, "secrets.yaml") + "\n"
	if code != 0 || stdout != want || stderr != "" {
		t.Fatalf("exit %d stdout %q stderr %q\nwant stdout %q", code, stdout, stderr, want)
	}
	if s := readConfigFile(t, root, "secrets.yaml"); s != "GITHUB_TOKEN: ghp-mine\nOPENAI_API_KEY: sk-lone\n" {
		t.Fatalf("secrets.yaml:\n%s", s)
	}
	code, stdout, stderr = run()
	want = "Error: goose-acp configure needs an interactive terminal (stdin is not one).\n" +
		"For scripts: goose-acp configure --provider openai --model gpt-4o-mini --api-key-env OPENAI_API_KEY\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Fatalf("exit %d stdout %q stderr %q", code, stdout, stderr)
	}
}

// GOOSE_ACP_CONFIGURE names the helper explicitly; its exit status (130,
// cancelled) is goose-acp's.
func TestConfigureHelperFromTheEnvironment(t *testing.T) {
	bin, env, root := loneAgent(t)
	p := startPTYBinary(t, bin, append(env, "TERM=xterm-256color", "GOOSE_ACP_CONFIGURE="+configureHelper), "configure")
	p.expect("Which model provider should we use?")
	p.send(keyCtrlC)
	p.expect("Cancelled; nothing was saved.")
	if code := p.wait(); code != 130 {
		t.Fatalf("exit %d; screen:\n%s", code, p.screen())
	}
	if got := readConfigFile(t, root, "config.yaml"); got != userConfig {
		t.Fatalf("config.yaml changed:\n%s", got)
	}
}

// In a plain terminal huh reads lines, so Ctrl-C is the terminal's SIGINT:
// the first cancels, the second ends configure by that signal, as before
// the helper — goose-acp adds no text and ends by SIGINT too.
func TestConfigureSecondCtrlCInAPlainTerminal(t *testing.T) {
	root, env := configureHome(t)
	p := startPTY(t, append(env, "TERM=dumb"), "configure")
	p.expect("Enter a number between 1 and")
	p.send(keyCtrlC, keyCtrlC)
	p.wait()
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Fatalf("ended with %v, want by SIGINT; screen:\n%s", p.cmd.ProcessState, p.screen())
	}
	if s := p.screen(); strings.Contains(s, "Error") || strings.Contains(s, "Cancelled") {
		t.Fatalf("extra text:\n%s", s)
	}
	if got := readConfigFile(t, root, "config.yaml"); got != userConfig {
		t.Fatalf("config.yaml changed:\n%s", got)
	}
}
