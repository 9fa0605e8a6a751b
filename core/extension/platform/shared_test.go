package platform

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

// sessionAgent records which session each call ran in.
type sessionAgent struct {
	mu    sync.Mutex
	calls []string
}

func (a *sessionAgent) record(s string) {
	a.mu.Lock()
	a.calls = append(a.calls, s)
	a.mu.Unlock()
}

func (a *sessionAgent) got() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return strings.Join(a.calls, ",")
}

func (a *sessionAgent) SubRecipes(string) []recipe.SubRecipe { return nil }
func (a *sessionAgent) Delegate(_ context.Context, parentID, callID string, _ DelegateParams) (string, error) {
	a.record("delegate:" + parentID + ":" + callID)
	return "delegated from " + parentID, nil
}
func (a *sessionAgent) Complete(_ context.Context, sessionID, _, _ string) (string, error) {
	a.record("complete:" + sessionID)
	return "summary for " + sessionID, nil
}

var sharedPlatforms = []string{Todo, ChatRecall, ExtensionManager, Skills, Summon, Summarize}

// sharedSession is one session of TestSharedServersKeepSessionsApart.
type sharedSession struct {
	id      string
	m       *extension.Manager
	agent   *sessionAgent
	changes *atomic.Int32
}

func newSharedSession(t *testing.T, store session.Store, home, wd string) sharedSession {
	t.Helper()
	ctx := context.Background()
	sess, err := store.Create(ctx, session.NewSession{WorkingDir: wd, SessionType: session.TypeUser})
	if err != nil {
		t.Fatal(err)
	}
	s := sharedSession{id: sess.ID, agent: &sessionAgent{}, changes: &atomic.Int32{}}
	deps := Deps{Store: store, Home: home, ConfigDir: filepath.Join(home, ".config", "goose"), Agent: s.agent,
		Catalog: Known, OnChange: func() { s.changes.Add(1) }}
	s.m = extension.New(extension.Options{SessionID: sess.ID, WorkingDir: wd, Platforms: Defaults(deps)})
	t.Cleanup(func() { _ = s.m.Close() })
	for _, r := range s.m.AddAll(ctx, platformConfigs(sharedPlatforms...)) {
		if !r.Success {
			t.Fatal(r.Name, r.Error)
		}
	}
	return s
}

func platformConfigs(names ...string) []config.ExtensionConfig {
	var out []config.ExtensionConfig
	for _, n := range names {
		out = append(out, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: n})
	}
	return out
}

func (s sharedSession) call(t *testing.T, tool string, args map[string]any) string {
	t.Helper()
	res, err := s.m.Call(context.Background(), "call-"+s.id, tool, args)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res.Content[0].Text
}

func (s sharedSession) instructions(key string) string {
	for _, info := range s.m.Extensions() {
		if info.Key == key {
			return info.Instructions
		}
	}
	return "<no " + key + ">"
}

// Todo, chatrecall, extensionmanager, skills, summon and summarize are one
// server per process each: two sessions connect to the same server, yet
// every call acts in its own session (todo, recall's own session left
// out, the manager's extensions, skills and sources of its working dir,
// the agent calls), the instructions are each session's own, and closing
// one session leaves the other working.
func TestSharedServersKeepSessionsApart(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	home, wd1, wd2 := filepath.Join(root, "home"), filepath.Join(root, "one"), filepath.Join(root, "two")
	writeFile(t, filepath.Join(wd1, ".agents/skills/alpha/SKILL.md"), skillMD("alpha", "Alpha rules", "alpha body"))
	writeFile(t, filepath.Join(wd2, ".agents/skills/beta/SKILL.md"), skillMD("beta", "Beta rules", "beta body"))
	writeFile(t, filepath.Join(wd1, ".agents/agents/first.md"), "---\nname: first\ndescription: the first agent\n---\nYou are first.")
	writeFile(t, filepath.Join(wd2, ".agents/agents/second.md"), "---\nname: second\ndescription: the second agent\n---\nYou are second.")
	writeFile(t, filepath.Join(wd1, "a.txt"), "one\n")
	writeFile(t, filepath.Join(wd2, "b.txt"), "two\n")
	store := memory.New(nil)
	s1 := newSharedSession(t, store, home, wd1)
	s2 := newSharedSession(t, store, home, wd2)
	for _, name := range sharedPlatforms {
		env := func(s sharedSession) extension.Env { return extension.Env{SessionID: s.id, Manager: s.m} }
		a, err1 := Defaults(Deps{Store: store})[name](ctx, env(s1))
		b, err2 := Defaults(Deps{Store: store})[name](ctx, env(s2))
		if err1 != nil || err2 != nil || a.Server == nil || b.Server == nil {
			t.Fatalf("%s: %v, %v", name, err1, err2)
		}
		if ta, tb := a.Server.Tools(), b.Server.Tools(); len(ta) == 0 || ta[0] != tb[0] {
			t.Errorf("%s: tool definitions built per session", name)
		}
	}

	// Instructions name each session's own skills and sources.
	if got := s1.instructions(Skills); !strings.Contains(got, "• alpha - Alpha rules") || strings.Contains(got, "beta") {
		t.Errorf("session 1 skills instructions = %q", got)
	}
	if got := s2.instructions(Skills); !strings.Contains(got, "• beta - Beta rules") || strings.Contains(got, "alpha") {
		t.Errorf("session 2 skills instructions = %q", got)
	}
	if got := s1.instructions(Summon); !strings.Contains(got, "• first — the first agent") || strings.Contains(got, "second") {
		t.Errorf("session 1 summon instructions = %q", got)
	}
	if got := s2.instructions(Summon); !strings.Contains(got, "• second — the second agent") || strings.Contains(got, "first") {
		t.Errorf("session 2 summon instructions = %q", got)
	}
	if got := s1.instructions(Todo); got != todoInstructions {
		t.Errorf("todo instructions = %q", got)
	}

	// Todo: each session writes and sees its own.
	if got := s1.call(t, "todo__todo_write", map[string]any{"content": "- [ ] one"}); got != "Updated (9 chars)" {
		t.Fatalf("todo write 1 = %q", got)
	}
	empty := "Current tasks and notes:\nOnce given a task, immediately update your todo with all explicit and implicit requirements\n"
	if got := s2.m.MOIM(ctx); len(got) != 1 || got[0] != empty {
		t.Errorf("session 2 MOIM after session 1 wrote = %q", got)
	}
	_ = s2.call(t, "todo__todo_write", map[string]any{"content": "- [ ] two"})
	for _, c := range []struct {
		s    sharedSession
		want string
	}{{s1, "- [ ] one"}, {s2, "- [ ] two"}} {
		sess, _ := store.Get(ctx, c.s.id, false)
		if got := TodoContent(sess.ExtensionData); got != c.want {
			t.Errorf("session %s todo = %q, want %q", c.s.id, got, c.want)
		}
		if got := c.s.m.MOIM(ctx); len(got) != 1 || got[0] != "Current tasks and notes:\n"+c.want+"\n" {
			t.Errorf("session %s MOIM = %q", c.s.id, got)
		}
	}

	// Skills and summon sources come from each session's working dir.
	if got := s1.call(t, "load_skill", map[string]any{"name": "alpha"}); !strings.Contains(got, "alpha body") {
		t.Errorf("session 1 load_skill alpha = %q", got)
	}
	if got := s2.call(t, "load_skill", map[string]any{"name": "alpha"}); got != "Skill 'alpha' not found." {
		t.Errorf("session 2 load_skill alpha = %q", got)
	}
	if got := s2.call(t, "load", map[string]any{}); !strings.Contains(got, "• second - the second agent") || strings.Contains(got, "first") {
		t.Errorf("session 2 load() = %q", got)
	}
	if got := s1.call(t, "load", map[string]any{"source": "first"}); !strings.Contains(got, "You are first.") {
		t.Errorf("session 1 load(first) = %q", got)
	}

	// Agent calls run in the calling session.
	if got := s2.call(t, "summarize__summarize", map[string]any{"paths": []string{"."}, "question": "?"}); !strings.HasPrefix(got, "summary for "+s2.id) {
		t.Errorf("session 2 summarize = %q", got)
	}
	if got := s1.call(t, "delegate", map[string]any{"instructions": "go"}); got != "delegated from "+s1.id {
		t.Errorf("session 1 delegate = %q", got)
	}
	if a1, a2 := s1.agent.got(), s2.agent.got(); a1 != "delegate:"+s1.id+":call-"+s1.id || a2 != "complete:"+s2.id {
		t.Errorf("agent calls: session 1 %q, session 2 %q", a1, a2)
	}

	// Chat recall leaves out the calling session only.
	for _, s := range []sharedSession{s1, s2} {
		if err := store.AppendMessage(ctx, s.id, conversation.UserText(1, "zebra notes of "+s.id)); err != nil {
			t.Fatal(err)
		}
	}
	r1 := s1.call(t, "chatrecall__chatrecall", map[string]any{"query": "zebra"})
	r2 := s2.call(t, "chatrecall__chatrecall", map[string]any{"query": "zebra"})
	if !strings.Contains(r1, "Session "+s2.id+" ") || strings.Contains(r1, "Session "+s1.id+" ") ||
		!strings.Contains(r2, "Session "+s1.id+" ") || strings.Contains(r2, "Session "+s2.id+" ") {
		t.Errorf("recall: session 1 %q, session 2 %q", r1, r2)
	}

	// The extension manager changes its own session's extensions.
	if got := s2.call(t, "extensionmanager__manage_extensions", map[string]any{"action": "disable", "extension_name": ChatRecall}); got != "The extension 'chatrecall' has been disabled successfully" {
		t.Fatalf("disable = %q", got)
	}
	if s2.m.Has(ChatRecall) || !s1.m.Has(ChatRecall) {
		t.Errorf("chatrecall: session 1 %v, session 2 %v", s1.m.Has(ChatRecall), s2.m.Has(ChatRecall))
	}
	if c1, c2 := s1.changes.Load(), s2.changes.Load(); c1 != 0 || c2 != 1 {
		t.Errorf("OnChange ran %d times in session 1, %d in session 2", c1, c2)
	}
	if got := s1.call(t, "extensionmanager__search_available_extensions", map[string]any{}); !strings.Contains(got, "Extensions available to disable:\n- chatrecall") {
		t.Errorf("session 1 search = %q", got)
	}

	// Closing session 1 leaves session 2 working.
	_ = s1.m.Close()
	if got := s2.call(t, "todo__todo_write", map[string]any{"content": "- [x] two"}); got != "Updated (9 chars)" {
		t.Errorf("session 2 todo after session 1 closed = %q", got)
	}
	if got := s2.call(t, "load_skill", map[string]any{"name": "beta"}); !strings.Contains(got, "beta body") {
		t.Errorf("session 2 load_skill after session 1 closed = %q", got)
	}
	if got := s2.call(t, "extensionmanager__search_available_extensions", map[string]any{}); !strings.Contains(got, "Extensions available to enable:\n- apps") {
		t.Errorf("session 2 search after session 1 closed = %q", got)
	}
}

// A client of a shared server's MCP twin (bound to no session) is told so
// instead of acting in some session.
func TestSharedServerUnboundSession(t *testing.T) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := todoServer.server().MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ss.Close(); _ = ss.Wait() }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "todo_write", Arguments: map[string]any{"content": "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || res.Content[0].(*mcp.TextContent).Text != "Error: this session is not connected to the todo extension" {
		t.Fatalf("unbound call = %+v", res)
	}
}
