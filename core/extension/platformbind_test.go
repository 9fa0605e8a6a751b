package extension

import (
	"context"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
)

// A platform server shared by two managers: each manager's server session
// is bound (before its client initializes) to that manager's session, a
// tool finds it from its request, the Platform's instructions replace the
// server's only when set, and removing the extension unbinds it once its
// server session has closed while the other session keeps working.
func TestPlatformBindSharedServer(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	bound := map[*mcp.ServerSession]string{}
	var events []string
	s := mcp.NewServer(&mcp.Implementation{Name: "p", Version: "1"}, &mcp.ServerOptions{Instructions: "server text"})
	s.AddTool(&mcp.Tool{Name: "who", InputSchema: map[string]any{"type": "object"}}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		mu.Lock()
		defer mu.Unlock()
		return text("session " + bound[req.Session]), nil
	})
	factory := func(_ context.Context, env Env) (Platform, error) {
		instr := ""
		if env.SessionID == "s1" {
			instr = "s1 text"
		}
		return Platform{Server: s, Instructions: instr, Bind: func(ss *mcp.ServerSession) func() {
			mu.Lock()
			defer mu.Unlock()
			if ss.InitializeParams() != nil {
				t.Errorf("%s bound after initialize", env.SessionID)
			}
			bound[ss] = env.SessionID
			events = append(events, "bind "+env.SessionID)
			return func() {
				mu.Lock()
				defer mu.Unlock()
				delete(bound, ss)
				events = append(events, "unbind "+env.SessionID)
			}
		}}, nil
	}
	var ms []*Manager
	for _, id := range []string{"s1", "s2"} {
		m := newManager(t, Options{SessionID: id, Platforms: map[string]PlatformFactory{"p": factory}})
		if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: "p"}); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	for i, want := range []struct{ who, instructions string }{{"session s1", "s1 text"}, {"session s2", "server text"}} {
		res, err := ms[i].Call(ctx, "c", "p__who", nil)
		if err != nil || res.Content[0].Text != want.who {
			t.Errorf("manager %d who = %+v, %v; want %q", i, res, err, want.who)
		}
		if got := ms[i].Extensions()[0].Instructions; got != want.instructions {
			t.Errorf("manager %d instructions = %q, want %q", i, got, want.instructions)
		}
	}
	if err := ms[0].Remove("p"); err != nil {
		t.Fatal(err)
	}
	if res, err := ms[1].Call(ctx, "c", "p__who", nil); err != nil || res.Content[0].Text != "session s2" {
		t.Errorf("s2 after s1 removed its extension = %+v, %v", res, err)
	}
	_ = ms[1].Close()
	mu.Lock()
	defer mu.Unlock()
	if len(bound) != 0 || len(events) != 4 || events[2] != "unbind s1" || events[3] != "unbind s2" {
		t.Errorf("bound %v after both closed; events %q", bound, events)
	}
}
