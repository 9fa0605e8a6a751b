package platform

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func setup(t *testing.T, getenv map[string]string) (*extension.Manager, session.Store, string) {
	t.Helper()
	clock := func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) }
	store := memory.New(clock)
	sess, err := store.Create(context.Background(), session.NewSession{WorkingDir: "/w", SessionType: session.TypeUser})
	if err != nil {
		t.Fatal(err)
	}
	deps := Deps{Store: store, Clock: clock, Getenv: func(k string) string { return getenv[k] }}
	m := extension.New(extension.Options{SessionID: sess.ID, Platforms: Defaults(deps), Builtins: map[string]extension.BuiltinFactory{"res": resourceServer}})
	t.Cleanup(func() { _ = m.Close() })
	for _, name := range []string{Todo, ChatRecall} {
		if err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionPlatform, Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	return m, store, sess.ID
}

// resourceServer is a builtin that serves one resource.
func resourceServer(context.Context, extension.Env) (extension.Server, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "res", Version: "1"}, nil)
	s.AddResource(&mcp.Resource{URI: "mem://note", Name: "note", MIMEType: "text/plain"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "mem://note", MIMEType: "text/plain", Text: "hello"}}}, nil
	})
	return extension.MCP(s), nil
}

func TestTodoWrite(t *testing.T) {
	m, store, id := setup(t, map[string]string{"GOOSE_TODO_MAX_CHARS": "10"})
	ctx := context.Background()
	if got := strings.Join(m.MOIM(ctx), ""); got != "Current tasks and notes:\nOnce given a task, immediately update your todo with all explicit and implicit requirements\n" {
		t.Fatalf("empty MOIM = %q", got)
	}
	res, err := m.Call(ctx, "c1", "todo__todo_write", map[string]any{"content": "- [ ] é"})
	if err != nil || res.Content[0].Text != "Updated (7 chars)" {
		t.Fatalf("write: %v %+v", err, res)
	}
	sess, _ := store.Get(ctx, id, false)
	if string(sess.ExtensionData[TodoKey]) != `{"content":"- [ ] é"}` {
		t.Fatalf("extension data = %s", sess.ExtensionData[TodoKey])
	}
	if got := strings.Join(m.MOIM(ctx), ""); got != "Current tasks and notes:\n- [ ] é\n" {
		t.Fatalf("MOIM = %q", got)
	}
	res, _ = m.Call(ctx, "c2", "todo__todo_write", map[string]any{"content": "12345678901"})
	if !res.IsError || res.Content[0].Text != "Error: Todo list too large: 11 chars (max: 10)" {
		t.Fatalf("too large = %+v", res)
	}
}

func TestChatRecall(t *testing.T) {
	m, store, id := setup(t, nil)
	ctx := context.Background()
	other, _ := store.Create(ctx, session.NewSession{WorkingDir: "/p", Name: "Past work", SessionType: session.TypeUser})
	_ = store.AppendMessage(ctx, other.ID, conversation.UserText(1, "we chose the zebra migration plan"))
	_ = store.AppendMessage(ctx, id, conversation.UserText(1, "zebra again?"))
	res, err := m.Call(ctx, "c", "chatrecall__chatrecall", map[string]any{"query": "zebra"})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].Text
	if !strings.Contains(text, other.ID) || strings.Contains(text, "Session "+id+" ") {
		t.Fatalf("search = %q", text)
	}
	res, _ = m.Call(ctx, "c", "chatrecall__chatrecall", map[string]any{"session_id": other.ID})
	if !strings.Contains(res.Content[0].Text, "[user]: we chose the zebra migration plan") {
		t.Fatalf("load = %q", res.Content[0].Text)
	}
	res, _ = m.Call(ctx, "c", "chatrecall__chatrecall", map[string]any{})
	if !res.IsError {
		t.Fatalf("empty call = %+v", res)
	}
	b, _ := json.Marshal(m.Tools(ctx))
	if !strings.Contains(string(b), "chatrecall__chatrecall") {
		t.Fatal("tool missing")
	}
}

func TestTomMOIM(t *testing.T) {
	file := filepath.Join(t.TempDir(), "moim.txt")
	if err := os.WriteFile(file, []byte("from file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, _ := setup(t, map[string]string{"GOOSE_MOIM_MESSAGE_TEXT": " remember X ", "GOOSE_MOIM_MESSAGE_FILE": file})
	if err := m.Add(context.Background(), config.ExtensionConfig{Type: config.ExtensionPlatform, Name: Tom}); err != nil {
		t.Fatal(err)
	}
	got := m.MOIM(context.Background())
	if len(got) != 2 || got[1] != "remember X\nfrom file" {
		t.Fatalf("moim = %q", got)
	}
}
