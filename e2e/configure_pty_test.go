//go:build !windows

package e2e

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// ptySession is goose-acp running on a pseudo-terminal: what a user in a
// terminal (or an editor's terminal-auth) sees and types.
type ptySession struct {
	t    *testing.T
	tty  *os.File
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  strings.Builder
	done chan struct{}
}

func startPTY(t *testing.T, env []string, args ...string) *ptySession {
	t.Helper()
	return startPTYBinary(t, binary, env, args...)
}

// startPTYBinary is startPTY with another goose-acp executable.
func startPTYBinary(t *testing.T, bin string, env []string, args ...string) *ptySession {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	p := &ptySession{t: t, tty: tty, cmd: cmd, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:n])
			p.mu.Unlock()
			p.answerQueries(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = tty.Close()
	})
	return p
}

// answerQueries answers what a terminal emulator answers: the
// background/foreground colour queries (OSC 11/10) and the cursor position
// report termenv sends after them.
func (p *ptySession) answerQueries(b []byte) {
	s := string(b)
	for _, q := range []struct{ ask, answer string }{
		{"\x1b]11;?", "\x1b]11;rgb:0000/0000/0000\x1b\\"},
		{"\x1b]10;?", "\x1b]10;rgb:ffff/ffff/ffff\x1b\\"},
		{"\x1b[6n", "\x1b[1;1R"},
	} {
		for range strings.Count(s, q.ask) {
			_, _ = io.WriteString(p.tty, q.answer)
		}
	}
}

var ansiSeq = regexp.MustCompile(`\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z]|[=>])`)

// screen is everything printed so far without terminal escapes.
func (p *ptySession) screen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return ansiSeq.ReplaceAllString(p.out.String(), "")
}

// expect waits until the output shows s (after the first `after` bytes of
// the stripped output).
func (p *ptySession) expect(s string) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(p.screen(), s) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.t.Fatalf("timed out waiting for %q; screen:\n%s", s, p.screen())
}

func (p *ptySession) send(keys ...string) {
	p.t.Helper()
	for _, k := range keys {
		if _, err := io.WriteString(p.tty, k); err != nil {
			p.t.Fatal(err)
		}
		time.Sleep(80 * time.Millisecond)
	}
}

// wait waits for the process to exit and returns its exit code.
func (p *ptySession) wait() int {
	p.t.Helper()
	exited := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		p.t.Fatalf("process did not exit; screen:\n%s", p.screen())
	}
	return p.cmd.ProcessState.ExitCode()
}

// Keys a terminal sends.
const (
	keyEnter    = "\r"
	keyCtrlU    = "\x15"
	keyCtrlC    = "\x03"
	keyDownward = "\x1b[B"
)

func TestConfigureInteractiveInATerminal(t *testing.T) {
	llm := providertest.Start(providertest.OpenAI, providertest.NewScript(providertest.Turn{Text: []string{"ok"}}))
	defer llm.Close()
	llm.Script.SetModels("gpt-4o", "gpt-4o-mini", "o3")
	root, env := configureHome(t)
	p := startPTY(t, append(env, "TERM=xterm-256color"), "configure")
	p.expect("Which model provider should we use?")
	p.send("/", "(openai)", keyEnter)
	p.expect("OpenAI needs OPENAI_API_KEY")
	p.send("sk-typed-in", keyEnter)
	p.expect("OPENAI_HOST")
	p.send(keyCtrlU, llm.URL, keyEnter)
	p.expect("Select a model:")
	p.send("/", "mini", keyEnter)
	p.expect("Saved GOOSE_PROVIDER=openai and GOOSE_MODEL=gpt-4o-mini")
	if code := p.wait(); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, p.screen())
	}
	if strings.Contains(p.screen(), "sk-typed-in") {
		t.Fatalf("the API key was echoed:\n%s", p.screen())
	}
	got := readConfigFile(t, root, "config.yaml")
	if !strings.HasPrefix(got, keptPrefix("gpt-4o-mini")) || !strings.HasSuffix(got, "\nGOOSE_PROVIDER: openai\nOPENAI_HOST: "+llm.URL+"\n") {
		t.Fatalf("config.yaml:\n%s", got)
	}
	if s := readConfigFile(t, root, "secrets.yaml"); s != "GITHUB_TOKEN: ghp-mine\nOPENAI_API_KEY: sk-typed-in\n" {
		t.Fatalf("secrets.yaml:\n%s", s)
	}
}

// When the model list cannot be fetched the model is typed by hand; Ollama
// asks for its host only.
func TestConfigureInteractiveTypedModelForOllama(t *testing.T) {
	llm := providertest.Start(providertest.Ollama, providertest.NewScript(providertest.Turn{Text: []string{"ok"}}))
	defer llm.Close()
	root, env := configureHome(t)
	p := startPTY(t, append(env, "TERM=xterm-256color"), "configure")
	p.expect("Which model provider should we use?")
	p.send("/", "(ollama)", keyEnter)
	p.expect("OLLAMA_HOST")
	p.send(keyCtrlU, llm.URL, keyEnter)
	p.expect("Could not list models")
	p.expect("Enter the model name:")
	p.send(keyCtrlU, "llama3.2:3b", keyEnter)
	p.expect("Saved GOOSE_PROVIDER=ollama and GOOSE_MODEL=llama3.2:3b")
	if code := p.wait(); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, p.screen())
	}
	if strings.Contains(p.screen(), "OLLAMA_TIMEOUT") {
		t.Fatalf("asked for more than the host:\n%s", p.screen())
	}
	if got := readConfigFile(t, root, "config.yaml"); !strings.HasSuffix(got, "\nGOOSE_PROVIDER: ollama\nOLLAMA_HOST: "+llm.URL+"\n") {
		t.Fatalf("config.yaml:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(root, "config", "secrets.yaml")); err != nil {
		t.Fatal(err)
	}
}

// Ctrl-C leaves without saving anything.
func TestConfigureInteractiveCtrlCSavesNothing(t *testing.T) {
	root, env := configureHome(t)
	p := startPTY(t, append(env, "TERM=xterm-256color"), "configure")
	p.expect("Which model provider should we use?")
	p.send(keyCtrlC)
	p.expect("Cancelled; nothing was saved.")
	if code := p.wait(); code != 130 {
		t.Fatalf("exit %d", code)
	}
	if got := readConfigFile(t, root, "config.yaml"); got != userConfig {
		t.Fatalf("config.yaml changed:\n%s", got)
	}
}

// A plain terminal (TERM=dumb) gets huh's accessible prompts: numbered
// choices and plain lines, no full-screen widgets or escape sequences.
func TestConfigureInAPlainTerminal(t *testing.T) {
	llm := providertest.Start(providertest.Anthropic, providertest.NewScript(providertest.Turn{Text: []string{"ok"}}))
	defer llm.Close()
	llm.Script.SetModels("claude-sonnet-4-5", "claude-haiku-4-5")
	root, env := configureHome(t)
	p := startPTY(t, append(env, "TERM=dumb"), "configure")
	p.expect("Which model provider should we use?")
	p.send("1\r") // Anthropic is first by display name
	p.expect("Anthropic needs ANTHROPIC_API_KEY")
	p.send("sk-ant-plain\r")
	p.expect("ANTHROPIC_HOST")
	p.send(llm.URL + "\r")
	p.expect("Select a model:")
	p.send("2\r")
	p.expect("Saved GOOSE_PROVIDER=anthropic and GOOSE_MODEL=claude-sonnet-4-5")
	if code := p.wait(); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, p.screen())
	}
	p.mu.Lock()
	raw := p.out.String()
	p.mu.Unlock()
	if strings.Contains(raw, "sk-ant-plain") || strings.Contains(raw, "\x1b[") {
		t.Fatalf("key echoed or escape sequences in a dumb terminal:\n%q", raw)
	}
	if s := readConfigFile(t, root, "secrets.yaml"); s != "GITHUB_TOKEN: ghp-mine\nANTHROPIC_API_KEY: sk-ant-plain\n" {
		t.Fatalf("secrets.yaml:\n%s", s)
	}
}

// A key already in the environment is offered for saving (as goose does),
// so editors started without the variable can use it.
func TestConfigureInteractiveSavesAKeyFromTheEnvironment(t *testing.T) {
	llm := providertest.Start(providertest.Google, providertest.NewScript(providertest.Turn{Text: []string{"ok"}}))
	defer llm.Close()
	llm.Script.SetModels("gemini-2.5-flash")
	root, env := configureHome(t)
	p := startPTY(t, append(env, "TERM=xterm-256color", "GOOGLE_API_KEY=g-from-env", "GOOGLE_HOST="+llm.URL), "configure")
	p.expect("Which model provider should we use?")
	p.send("/", "(google)", keyEnter)
	p.expect("GOOGLE_API_KEY is set in the environment. Save it to the secret store?")
	p.send(keyEnter) // yes is the default
	p.expect("GOOGLE_HOST")
	p.send(keyEnter) // keep the environment's host
	p.expect("Select a model:")
	p.send(keyEnter)
	p.expect("Saved GOOSE_PROVIDER=google and GOOSE_MODEL=gemini-2.5-flash")
	if code := p.wait(); code != 0 {
		t.Fatalf("exit %d; screen:\n%s", code, p.screen())
	}
	if s := readConfigFile(t, root, "secrets.yaml"); s != "GITHUB_TOKEN: ghp-mine\nGOOGLE_API_KEY: g-from-env\n" {
		t.Fatalf("secrets.yaml:\n%s", s)
	}
	if got := readConfigFile(t, root, "config.yaml"); strings.Contains(got, "GOOGLE_HOST") {
		t.Fatalf("the environment's host was written:\n%s", got)
	}
}
