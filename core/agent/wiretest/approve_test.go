package wiretest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

// TestWireAlwaysAllowAndFrontend approves with always_allow (written to
// permission.yaml) and answers a frontend tool in the same turn.
func TestWireAlwaysAllowAndFrontend(t *testing.T) {
	for _, b := range backends {
		t.Run(b.format.String(), func(t *testing.T) {
			srv := providertest.Start(b.format, providertest.NewScript(
				providertest.Turn{ToolCalls: []providertest.ToolCall{
					{ID: "fe1", Name: "ui__pick", Arguments: `{"choice":"a"}`},
					todoCall("td1", "x"),
				}},
				providertest.Turn{Text: []string{"both done"}},
			))
			t.Cleanup(srv.Close)
			dir := t.TempDir()
			perms, err := config.OpenPermissions(filepath.Join(dir, "permission.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			// The todo tool is asked about only when the user said so.
			if err := perms.SetUser("todo__todo_write", config.AskBefore); err != nil {
				t.Fatal(err)
			}
			a := agent.New(agent.Options{
				Store:       memory.New(time.Now),
				Providers:   func(context.Context, string, model.Config) (provider.Provider, error) { return b.build(srv) },
				Config:      cfg{"GOOSE_MODE": "approve", "GOOSE_DISABLE_SESSION_NAMING": "true"},
				Permissions: permission.FromConfig(perms),
				TempDir:     t.TempDir(),
			})
			t.Cleanup(func() { _ = a.Close() })
			sess, _, err := a.StartSession(context.Background(), agent.StartOptions{WorkingDir: t.TempDir(), Extensions: []config.ExtensionConfig{
				{Type: config.ExtensionPlatform, Name: "todo"},
				{Type: config.ExtensionFrontend, Name: "ui", Tools: []json.RawMessage{json.RawMessage(`{"name":"pick","inputSchema":{"type":"object","properties":{"choice":{"type":"string"}}}}`)}},
			}})
			if err != nil {
				t.Fatal(err)
			}
			var order []string
			out, err := a.Reply(context.Background(), sess.ID, conversation.UserText(1, "go"), func(e agent.Event) {
				m, ok := e.(agent.MessageEvent)
				if !ok {
					return
				}
				for _, c := range m.Message.Content {
					switch {
					case c.FrontendToolRequest != nil:
						order = append(order, "frontend")
						_ = a.SubmitFrontendToolResult(sess.ID, c.FrontendToolRequest.ID, conversation.TextResult("picked a"))
					case c.ActionRequired != nil:
						order = append(order, "confirm")
						_ = a.Confirm(sess.ID, c.ActionRequired.Data.ID, permission.AlwaysAllow)
					}
				}
			})
			if err != nil || out.StopReason != agent.EndTurn {
				t.Fatalf("out=%v err=%v", out, err)
			}
			if strings.Join(order, ",") != "frontend,confirm" {
				t.Fatalf("order = %v", order)
			}
			body := string(srv.Requests()[1].Body)
			if !strings.Contains(body, "picked a") || !strings.Contains(body, "Updated (1 chars)") {
				t.Fatalf("second request: %s", body)
			}
			yaml, _ := os.ReadFile(filepath.Join(dir, "permission.yaml"))
			if string(yaml) != "user:\n  always_allow:\n    - todo__todo_write\n  ask_before: []\n  never_allow: []\n" {
				t.Fatalf("permission.yaml =\n%s", yaml)
			}
		})
	}
}
