package extension_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
	"github.com/goose-acp/goose-acp/developer"
)

// directAndMCP returns two managers with the developer extension (surface)
// in wd: one calling it directly, one over an in-memory MCP session, and
// the notifications each forwarded.
func directAndMCP(t *testing.T, surface developer.Surface, wdDirect, wdMCP string) (direct, viaMCP *extension.Manager, notes func(*extension.Manager) []string) {
	t.Helper()
	var mu sync.Mutex
	seen := map[*extension.Manager][]string{}
	mk := func(wd string, build func(developer.Options) extension.Server) *extension.Manager {
		var m *extension.Manager
		m = extension.New(extension.Options{SessionID: "s1", WorkingDir: wd,
			Builtins: map[string]extension.BuiltinFactory{"developer": func(_ context.Context, env extension.Env) (extension.Server, error) {
				return build(developer.Options{Surface: surface, WorkingDir: env.WorkingDir, Getenv: func(k string) string {
					return map[string]string{"SHELL": "/bin/sh", "HOME": wd}[k]
				}}), nil
			}},
			Hooks: extension.Hooks{Notify: func(callID string, n extension.Notification) {
				mu.Lock()
				defer mu.Unlock()
				seen[m] = append(seen[m], callID+" "+n.Method+" "+string(n.Params))
			}},
		})
		t.Cleanup(func() { _ = m.Close() })
		if err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "developer"}); err != nil {
			t.Fatal(err)
		}
		return m
	}
	direct = mk(wdDirect, func(o developer.Options) extension.Server { return extension.Direct(developer.NewDirect(o)) })
	viaMCP = mk(wdMCP, func(o developer.Options) extension.Server { return extension.MCP(developer.NewServer(o)) })
	return direct, viaMCP, func(m *extension.Manager) []string {
		mu.Lock()
		defer mu.Unlock()
		return seen[m]
	}
}

// Calling the developer tools directly is what calling them over MCP was:
// the same tools as the agent sees them (names, descriptions, schema bytes,
// annotations, declared kinds), instructions, prompts, results (content,
// structured content, _meta, isError), error texts, and live shell output.
func TestDirectDeveloperMatchesMCP(t *testing.T) {
	ctx := context.Background()
	for _, surface := range []developer.Surface{developer.Editor, developer.Classic} {
		// Each manager works in a directory of its own with the same
		// files; paths in the answers are compared as "WD".
		root := t.TempDir()
		wdD, wdM := filepath.Join(root, "d", "wd"), filepath.Join(root, "m", "wd")
		for _, wd := range []string{wdD, wdM} {
			if err := os.MkdirAll(wd, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(wd, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d, m, notes := directAndMCP(t, surface, wdD, wdM)
		dt, mt := d.Tools(ctx), m.Tools(ctx)
		if len(dt) < 4 || !reflect.DeepEqual(dt, mt) {
			t.Fatalf("surface %d tools differ:\ndirect %+v\nmcp    %+v", surface, dt, mt)
		}
		if di, mi := strings.ReplaceAll(js(t, d.Extensions()), wdD, "WD"), strings.ReplaceAll(js(t, m.Extensions()), wdM, "WD"); di != mi {
			t.Errorf("surface %d extension info differs:\ndirect %s\nmcp    %s", surface, di, mi)
		}
		dp, _ := d.ListPrompts(ctx)
		mp, _ := m.ListPrompts(ctx)
		if len(dp) == 0 || !reflect.DeepEqual(dp, mp) {
			t.Errorf("surface %d prompts differ: %+v / %+v", surface, dp, mp)
		}
		for _, args := range []map[string]string{{"additional_info": "more"}, {"x/../y": "1"}} {
			dr, derr := d.GetPrompt(ctx, "developer", dp[0].Prompt.Name, args)
			mr, merr := m.GetPrompt(ctx, "developer", dp[0].Prompt.Name, args)
			if !sameJSON(t, dr, mr) || errText(derr) != errText(merr) {
				t.Errorf("prompt %v: direct %s %v, mcp %s %v", args, js(t, dr), derr, js(t, mr), merr)
			}
		}
		if _, err := d.GetPrompt(ctx, "developer", "nope", nil); errText(err) != `calling "prompts/get": unknown prompt "nope"` {
			t.Errorf("unknown prompt: %v", err)
		}
		calls := []struct {
			tool string
			args map[string]any
		}{
			{"shell", map[string]any{"command": "echo live-one; echo live-two; exit 3"}},
			{"shell", map[string]any{"command": "echo to-stderr 1>&2"}},
			{"shell", map[string]any{"command": 5}},
			{"shell", nil},
			{"nope", map[string]any{}},
		}
		if surface == developer.Editor {
			calls = append(calls, []struct {
				tool string
				args map[string]any
			}{
				{"read", map[string]any{"path": "a.txt"}},
				{"write", map[string]any{"path": "b.txt", "content": "new\n"}},
				{"edit", map[string]any{"path": "b.txt", "before": "new", "after": "newer"}},
				{"edit", map[string]any{"path": "b.txt", "before": "absent", "after": "x"}},
				{"tree", map[string]any{"path": "."}},
			}...)
		} else {
			calls = append(calls, []struct {
				tool string
				args map[string]any
			}{
				{"text_editor", map[string]any{"command": "view", "path": "WD/a.txt"}},
				{"text_editor", map[string]any{"command": "bogus", "path": "WD/a.txt"}},
				{"text_editor", map[string]any{"command": "write", "path": "WD/c.txt", "file_text": "c\n"}},
			}...)
		}
		for i, c := range calls {
			id := "call-" + string(rune('a'+i))
			dr, derr := d.Call(ctx, id, "developer__"+c.tool, inWD(c.args, wdD))
			mr, merr := m.Call(ctx, id, "developer__"+c.tool, inWD(c.args, wdM))
			dj, mj := strings.ReplaceAll(js(t, dr)+errText(derr), wdD, "WD"), strings.ReplaceAll(js(t, mr)+errText(merr), wdM, "WD")
			if dj != mj {
				t.Errorf("surface %d %s %v:\ndirect %s\nmcp    %s", surface, c.tool, c.args, dj, mj)
			}
		}
		// Live shell output reached the hooks, each line with its own call.
		// (Over MCP the client may deliver a notification after its call
		// returned: a fast command's last lines were then lost, or given to
		// the next call running on the extension.)
		want := []string{`call-a notifications/message {"data":{"output":"live-one","stream":"stdout","type":"shell_output"},"level":"info","logger":"shell_tool"}`,
			`call-a notifications/message {"data":{"output":"live-two","stream":"stdout","type":"shell_output"},"level":"info","logger":"shell_tool"}`,
			`call-b notifications/message {"data":{"output":"to-stderr","stream":"stderr","type":"shell_output"},"level":"info","logger":"shell_tool"}`}
		if got := notes(d); !slices.Equal(got, want) {
			t.Errorf("surface %d: direct notifications %q, want %q", surface, got, want)
		}
	}
}

// inWD replaces a leading "WD" in string arguments with wd.
func inWD(args map[string]any, wd string) map[string]any {
	if args == nil {
		return nil
	}
	out := map[string]any{}
	for k, v := range args {
		if s, ok := v.(string); ok && strings.HasPrefix(s, "WD/") {
			v = wd + s[2:]
		}
		out[k] = v
	}
	return out
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	return js(t, a) == js(t, b)
}

// Every platform extension, called directly, offers the agent the tools
// its MCP twin lists (so the tools in a model request are unchanged).
func TestDirectPlatformToolsMatchMCP(t *testing.T) {
	ctx := context.Background()
	store := memory.New(nil)
	sess, err := store.Create(ctx, session.NewSession{WorkingDir: t.TempDir(), SessionType: session.TypeUser})
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	factories := platform.Defaults(platform.Deps{Store: store, Home: home, ConfigDir: home})
	for _, k := range platform.Known() {
		direct := extension.New(extension.Options{SessionID: sess.ID, Platforms: factories})
		var twin *extension.Manager
		var offer func(string) bool // a builtin has no Offer: filter the twin's list by the platform's
		twin = extension.New(extension.Options{SessionID: sess.ID, Builtins: map[string]extension.BuiltinFactory{k.Name: func(ctx context.Context, env extension.Env) (extension.Server, error) {
			env.Manager = twin
			p, err := factories[k.Name](ctx, env)
			if err != nil {
				return extension.Server{}, err
			}
			offer = p.Offer
			return extension.MCP(p.Server.MCP()), nil
		}}})
		if err := direct.Add(ctx, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: k.Name}); err != nil {
			t.Fatal(k.Name, err)
		}
		if err := twin.Add(ctx, config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: k.Name}); err != nil {
			t.Fatal(k.Name, err)
		}
		mt := twin.Tools(ctx)
		if offer != nil {
			mt = slices.DeleteFunc(mt, func(t extension.Tool) bool { return !offer(t.Local) })
		}
		if dt := direct.Tools(ctx); !reflect.DeepEqual(dt, mt) {
			t.Errorf("%s tools differ:\ndirect %+v\nmcp    %+v", k.Name, dt, mt)
		}
		_ = direct.Close()
		_ = twin.Close()
	}
}
