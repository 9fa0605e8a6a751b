package acp

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

// liveConfig is config.yaml as another face (goosed's /config/set_provider,
// _goose/unstable/defaults/save) may change it while the editor is
// connected.
type liveConfig struct {
	mu sync.Mutex
	m  map[string]any
}

func (c *liveConfig) Get(k string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *liveConfig) Secret(string) (string, bool) { return "", false }

func (c *liveConfig) set(k string, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

// TestConfigOptionsShowTheDefaultsAsConfiguredNow: a session whose
// provider cannot be built shows core's defaults — GOOSE_PROVIDER,
// GOOSE_MODEL and GOOSE_MODE as the configuration says when it is asked,
// not a copy taken when the editor connected.
func TestConfigOptionsShowTheDefaultsAsConfiguredNow(t *testing.T) {
	cfg := &liveConfig{m: map[string]any{"GOOSE_DISABLE_SESSION_NAMING": "true", "GOOSE_PROVIDER": "first", "GOOSE_MODEL": "m1", "GOOSE_MODE": "approve"}}
	a := agentWithoutProvider(t, cfg)
	c := serveLines(t, Options{Agent: a, Store: a.Sessions(), Builtins: []string{}})
	current := func(id int) map[string]string {
		t.Helper()
		r := c.callRaw(t, id, "session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}})
		if r.Error != nil {
			t.Fatalf("session/new: %+v", r.Error)
		}
		var resp NewSessionResponse
		if err := json.Unmarshal(r.Result, &resp); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{"modes": resp.Modes.CurrentModeID}
		for _, o := range resp.ConfigOptions {
			out[o.ID] = o.CurrentValue
		}
		return out
	}
	if got := current(1); got["provider"] != "first" || got["model"] != "m1" || got["mode"] != "approve" {
		t.Fatalf("first session shows %v", got)
	}
	cfg.set("GOOSE_PROVIDER", "second")
	cfg.set("GOOSE_MODEL", "m2")
	if got := current(2); got["provider"] != "second" || got["model"] != "m2" {
		t.Fatalf("after the default changed, a new session shows %v", got)
	}
}

// agentWithoutProvider is an agent over an in-memory store whose provider
// can never be built (no key), reading cfg.
func agentWithoutProvider(t *testing.T, cfg agent.ConfigReader) *agent.Agent {
	t.Helper()
	a := agent.New(agent.Options{
		Store: memory.New(nil),
		Providers: func(context.Context, string, model.Config) (provider.Provider, error) {
			return nil, errors.New("no key")
		},
		Config:  cfg,
		TempDir: t.TempDir(),
	})
	t.Cleanup(func() { _ = a.Close() })
	return a
}
