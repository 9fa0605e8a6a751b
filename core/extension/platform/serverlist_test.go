package platform

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

// rawExchange connects s over newline-delimited JSON and returns the
// server's exact answers to initialize and tools/list, as on the wire.
func rawExchange(t *testing.T, s *mcp.Server) (initialize, toolsList string) {
	t.Helper()
	ctx := context.Background()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ss, err := s.Connect(ctx, &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cw.Close(); _ = ss.Close(); _ = ss.Wait() }()
	lines := bufio.NewScanner(cr)
	lines.Buffer(nil, 1<<20)
	send := func(msg string) {
		t.Helper()
		if _, err := io.WriteString(cw, msg+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	recv := func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		return lines.Text()
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"goose","version":"1.0.0"}}}`)
	initialize = recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`)
	toolsList = recv()
	return initialize, toolsList
}

// TestPlatformServersGolden pins every platform server as a client sees
// it: the initialize answer (name, title, instructions, capabilities) and
// the tools/list answer, byte for byte. Regenerate with
// `go test ./core/extension/platform -run TestPlatformServersGolden -update`
// and review the diff.
func TestPlatformServersGolden(t *testing.T) {
	ctx := context.Background()
	clock := func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) }
	store := memory.New(clock)
	home, wd := t.TempDir(), t.TempDir()
	user, err := store.Create(ctx, session.NewSession{WorkingDir: wd, SessionType: session.TypeUser})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := store.Create(ctx, session.NewSession{WorkingDir: wd, SessionType: session.TypeSubAgent})
	if err != nil {
		t.Fatal(err)
	}
	deps := Deps{Store: store, Clock: clock, Home: home, ConfigDir: home}
	var b strings.Builder
	for _, c := range []struct{ label, sessionID string }{{"", user.ID}, {" (subagent session)", sub.ID}} {
		m := extension.New(extension.Options{SessionID: c.sessionID, WorkingDir: wd})
		env := extension.Env{SessionID: c.sessionID, WorkingDir: wd, Manager: m}
		factories := Defaults(deps)
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range factories {
				if !yield(k) {
					return
				}
			}
		})
		for _, name := range names {
			p, err := factories[name](ctx, env)
			if err != nil {
				t.Fatal(name, err)
			}
			init, tools := rawExchange(t, p.Server.MCP())
			b.WriteString("== " + name + c.label + "\n" + init + "\n" + tools + "\n")
			if p.Close != nil {
				p.Close()
			}
		}
		_ = m.Close()
	}
	golden := filepath.Join("testdata", "platform_servers.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("platform servers changed; got:\n%s", got)
	}
}

// The session-independent servers (apps, code_execution, tom) are built
// once per process; each session connects to the same one, and closing
// one session leaves the others working.
func TestStaticServersShared(t *testing.T) {
	ctx := context.Background()
	store := memory.New(time.Now)
	var mgrs []*extension.Manager
	for range 2 {
		sess, err := store.Create(ctx, session.NewSession{WorkingDir: "/w", SessionType: session.TypeUser})
		if err != nil {
			t.Fatal(err)
		}
		m := extension.New(extension.Options{SessionID: sess.ID, Platforms: Defaults(Deps{Store: store})})
		defer m.Close()
		for _, name := range []string{Apps, CodeExecution, Tom} {
			if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: name}); err != nil {
				t.Fatal(err)
			}
		}
		mgrs = append(mgrs, m)
	}
	for _, name := range []string{Apps, CodeExecution, Tom} {
		a, _ := Defaults(Deps{})[name](ctx, extension.Env{})
		b, _ := Defaults(Deps{})[name](ctx, extension.Env{})
		if a.Server == nil || a.Server != b.Server {
			t.Errorf("%s: a server per session", name)
		}
	}
	_ = mgrs[0].Close()
	res, err := mgrs[1].Call(ctx, "c1", "apps__list_apps", map[string]any{})
	if err != nil || !res.IsError || res.Content[0].Text != "Error: "+appsUnavailable {
		t.Fatalf("list_apps after another session closed = %+v, %v", res, err)
	}
}
