package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session/memory"
	"github.com/goose-acp/goose-acp/core/setup"
)

// A session/new that arrives while the open is still running checks the
// provider meanwhile, once, and answers as a session/new after the open
// does: a session for a usable provider, the same -32000 for an unusable
// one, and bad params still reported first.
func TestSessionNewChecksTheProviderWhileTheOpenRuns(t *testing.T) {
	unusable := setup.Status{Err: fmt.Errorf("%w", errors.New("no AI provider is configured"))}
	for _, tc := range []struct {
		name   string
		status setup.Status
		cwd    string
		want   string // the error code, or "" for a session
	}{
		{"usable", setup.Status{Provider: "openai"}, t.TempDir(), ""},
		{"unusable", unusable, t.TempDir(), "-32000"},
		{"bad params first", unusable, "relative", "-32602"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opened, checks, checksBeforeOpen atomic.Int32
			release := make(chan struct{})
			checked := make(chan struct{}, 1)
			status := func() setup.Status {
				checks.Add(1)
				if opened.Load() == 0 {
					checksBeforeOpen.Add(1)
				}
				select {
				case checked <- struct{}{}:
				default:
				}
				return tc.status
			}
			a := instantAgent(t)
			c := serveLines(t, Options{Auth: AuthOptions{Status: status}, Open: func(context.Context) (Options, error) {
				<-release
				opened.Store(1)
				return Options{Agent: a, Store: a.Sessions(), Builtins: []string{}}, nil
			}})
			c.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
			c.read(t)
			params, _ := json.Marshal(map[string]any{"cwd": tc.cwd, "mcpServers": []any{}})
			c.send(t, `{"jsonrpc":"2.0","id":2,"method":"session/new","params":`+string(params)+`}`)
			select {
			case <-checked: // while the open is held
				close(release)
			case <-time.After(5 * time.Second):
				close(release)
				t.Fatal("session/new did not check the provider while the open ran")
			}
			early := readReply(t, c, 2)
			if n, before := checks.Load(), checksBeforeOpen.Load(); n != 1 || before != 1 {
				t.Fatalf("provider checked %d times, %d before the open ended; want once, before", n, before)
			}
			c.send(t, `{"jsonrpc":"2.0","id":3,"method":"session/new","params":`+string(params)+`}`)
			late := readReply(t, c, 3)
			if want := map[bool]int32{true: 1, false: 2}[tc.cwd == "relative"]; checks.Load() != want {
				t.Fatalf("the handler did not check again once open (%d checks)", checks.Load())
			}
			if tc.want == "" {
				if early.Error != nil || late.Error != nil || !json.Valid(early.Result) || string(early.Result) == "null" {
					t.Fatalf("usable provider: early %s %+v, late %+v", early.Result, early.Error, late.Error)
				}
				return
			}
			eb, _ := json.Marshal(early.Error)
			lb, _ := json.Marshal(late.Error)
			if early.Error == nil || string(eb) != string(lb) || !contains(string(eb), `"code":`+tc.want) {
				t.Fatalf("checked early: %s\nchecked in the handler: %s\nwant both code %s", eb, lb, tc.want)
			}
		})
	}
}

// readReply reads lines until the answer to id.
func readReply(t *testing.T, c *lineClient, id int) rpcReply {
	t.Helper()
	for {
		var r rpcReply
		line := c.read(t)
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("agent wrote a non-JSON line: %s", line)
		}
		if string(r.ID) == fmt.Sprint(id) {
			return r
		}
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// instantAgent is an agent over an in-memory store whose model answers at
// once, session naming off; closed with the test.
func instantAgent(t *testing.T) *agent.Agent {
	t.Helper()
	a := agent.New(agent.Options{
		Store:     memory.New(nil),
		Providers: func(context.Context, string, model.Config) (provider.Provider, error) { return instantModel{}, nil },
		Config:    &liveConfig{m: map[string]any{"GOOSE_DISABLE_SESSION_NAMING": "true"}},
		TempDir:   t.TempDir(),
	})
	t.Cleanup(func() { _ = a.Close() })
	return a
}
