package wiretest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/anthropic"
	"github.com/goose-acp/goose-acp/core/provider/openai"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type backend struct {
	format providertest.Format
	build  func(srv *providertest.Server) (provider.Provider, error)
}

var backends = []backend{
	{providertest.OpenAI, func(srv *providertest.Server) (provider.Provider, error) {
		return openai.New(openai.Options{Metadata: provider.Metadata{Name: "openai"}, Host: srv.URL, APIKey: "k", Model: model.Config{ModelName: "gpt-4o"}, HTTPClient: srv.Client()})
	}},
	{providertest.Anthropic, func(srv *providertest.Server) (provider.Provider, error) {
		return anthropic.New(anthropic.Options{BaseURL: srv.URL, APIKey: "k", Model: model.Config{ModelName: "claude-sonnet-4-5"}, HTTPClient: srv.Client()})
	}},
}

type cfg map[string]any

func (c cfg) Get(k string) (any, bool)     { v, ok := c[k]; return v, ok }
func (c cfg) Secret(string) (string, bool) { return "", false }

type fixture struct {
	a   *agent.Agent
	srv *providertest.Server
	id  string
}

func setup(t *testing.T, b backend, mode string, turns ...providertest.Turn) *fixture {
	t.Helper()
	return setupWith(t, b, mode, agent.StartOptions{}, turns...)
}

func setupWith(t *testing.T, b backend, mode string, opts agent.StartOptions, turns ...providertest.Turn) *fixture {
	t.Helper()
	srv := providertest.Start(b.format, providertest.NewScript(turns...))
	t.Cleanup(srv.Close)
	store := memory.New(func() time.Time { return time.Unix(1_700_000_000, 0) })
	a := agent.New(agent.Options{
		Store: store,
		Providers: func(context.Context, string, model.Config) (provider.Provider, error) {
			return b.build(srv)
		},
		Config:      cfg{"GOOSE_MODE": mode, "GOOSE_DISABLE_SESSION_NAMING": "true"},
		Clock:       func() time.Time { return time.Unix(1_700_000_000, 0) },
		TempDir:     t.TempDir(),
		Permissions: askBeforeTodo(t),
	})
	t.Cleanup(func() { _ = a.Close() })
	opts.WorkingDir = t.TempDir()
	opts.Extensions = []config.ExtensionConfig{{Type: config.ExtensionPlatform, Name: "todo"}}
	sess, res, err := a.StartSession(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !res[0].Success {
		t.Fatalf("todo: %s", res[0].Error)
	}
	return &fixture{a: a, srv: srv, id: sess.ID}
}

// askBeforeTodo is a permission.yaml asking before todo_write: the todo
// tool is the one tool these tests have, and it changes only the session's
// notes, so approve mode asks for it only when the user said so.
func askBeforeTodo(t *testing.T) permission.Store {
	t.Helper()
	perms, err := config.OpenPermissions(filepath.Join(t.TempDir(), "permission.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := perms.SetUser("todo__todo_write", config.AskBefore); err != nil {
		t.Fatal(err)
	}
	return permission.FromConfig(perms)
}

func (f *fixture) reply(t *testing.T, text string, on func(agent.Event)) (agent.Outcome, []conversation.Message) {
	t.Helper()
	var msgs []conversation.Message
	out, err := f.a.Reply(context.Background(), f.id, conversation.UserText(1, text), func(e agent.Event) {
		if m, ok := e.(agent.MessageEvent); ok {
			msgs = append(msgs, m.Message)
		}
		if on != nil {
			on(e)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, msgs
}

func TestWireTextAndTools(t *testing.T) {
	for _, b := range backends {
		t.Run(b.format.String(), func(t *testing.T) {
			f := setup(t, b, "auto",
				providertest.Turn{Text: []string{"Let me ", "note that."}, ToolCalls: []providertest.ToolCall{{ID: "call_1", Name: "todo__todo_write", Arguments: `{"content":"- [ ] a"}`}}, Usage: &providertest.Usage{Input: 100, Output: 10}},
				providertest.Turn{Text: []string{"Done."}, Usage: &providertest.Usage{Input: 120, Output: 5}},
			)
			out, msgs := f.reply(t, "track a", nil)
			if out.StopReason != agent.EndTurn {
				t.Fatalf("stop = %v (%v)", out.StopReason, out.Err)
			}
			var texts []string
			for _, m := range msgs {
				if s := m.AsText(); s != "" {
					texts = append(texts, s)
				}
			}
			if got := strings.Join(texts, "|"); !strings.Contains(got, "Let me ") || !strings.HasSuffix(got, "Done.") {
				t.Fatalf("streamed texts = %q", texts)
			}
			reqs := f.srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d provider requests", len(reqs))
			}
			second := string(reqs[1].Body)
			if !strings.Contains(second, "Updated (7 chars)") || !strings.Contains(second, "call_1") {
				t.Fatalf("second request lacks the tool result: %s", second)
			}
			// The todo content reaches the next request through the MOIM.
			if !strings.Contains(second, `Current tasks and notes:\n- [ ] a`) {
				t.Fatalf("MOIM lacks the todo: %s", second)
			}
		})
	}
}

func TestWireApprovalDenied(t *testing.T) {
	for _, b := range backends {
		t.Run(b.format.String(), func(t *testing.T) {
			f := setup(t, b, "approve",
				providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_9", Name: "todo__todo_write", Arguments: `{"content":"x"}`}}},
				providertest.Turn{Text: []string{"OK, not writing."}},
			)
			asked := 0
			out, msgs := f.reply(t, "write", func(e agent.Event) {
				m, ok := e.(agent.MessageEvent)
				if !ok {
					return
				}
				for _, c := range m.Message.Content {
					if c.ActionRequired != nil {
						asked++
						_ = f.a.Confirm(f.id, c.ActionRequired.Data.ID, permission.DenyOnce)
					}
				}
			})
			if asked != 1 {
				t.Fatalf("asked %d times (stop %v %v): %+v", asked, out.StopReason, out.Err, msgs)
			}
			body := string(f.srv.Requests()[1].Body)
			declined, _ := json.Marshal(agent.DeclinedResponse)
			if !strings.Contains(body, strings.Trim(string(declined), `"`)) {
				t.Fatalf("second request lacks the declined text: %s", body)
			}
		})
	}
}

func TestWireContextLengthCompaction(t *testing.T) {
	for _, b := range backends {
		t.Run(b.format.String(), func(t *testing.T) {
			overflow := providertest.Turn{Status: 400, ErrorBody: contextError(b.format)}
			f := setup(t, b, "auto",
				overflow,
				providertest.Turn{Text: []string{"## Goal\nsummary"}}, // the summary (Complete)
				providertest.Turn{Text: []string{"Recovered."}},
			)
			replaced := false
			out, msgs := f.reply(t, "hello", func(e agent.Event) {
				if _, ok := e.(agent.HistoryReplacedEvent); ok {
					replaced = true
				}
			})
			if out.StopReason != agent.EndTurn || !replaced || msgs[len(msgs)-1].AsText() != "Recovered." {
				t.Fatalf("stop=%v replaced=%v last=%q", out.StopReason, replaced, msgs[len(msgs)-1].AsText())
			}
		})
	}
}

func contextError(f providertest.Format) string {
	if f == providertest.Anthropic {
		return `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 250000 tokens > 200000 maximum"}}`
	}
	return `{"error":{"message":"This model's maximum context length is 128000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}`
}
