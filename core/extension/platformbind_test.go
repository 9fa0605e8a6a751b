package extension

import (
	"context"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
)

type whoKey struct{}

// A platform server built once and shared by two managers: each session's
// Platform is the server bound to that session (inproc.Server.With), a
// tool finds the binding in its call's context, the Platform's
// instructions replace the server's only when set, and removing the
// extension closes that session's binding only, while the other session
// keeps working.
func TestPlatformBindSharedServer(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var events []string
	s := inproc.NewServer(&mcp.Implementation{Name: "p", Version: "1"}, "server text")
	s.AddTool(&mcp.Tool{Name: "who", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		id, _ := ctx.Value(whoKey{}).(string)
		return text("session " + id), nil
	})
	factory := func(_ context.Context, env Env) (Platform, error) {
		instr := ""
		if env.SessionID == "s1" {
			instr = "s1 text"
		}
		bound := s.With(func(ctx context.Context) context.Context { return context.WithValue(ctx, whoKey{}, env.SessionID) })
		bound.OnClose(func() {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, "close "+env.SessionID)
		})
		return Platform{Server: bound, Instructions: instr}, nil
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
	if len(events) != 2 || events[0] != "close s1" || events[1] != "close s2" {
		t.Errorf("events %q", events)
	}
}
