package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// TestFacesAskOneProviderSetup: in one process (`--http`), goosed's
// provider routes and the ACP face's provider methods answer from the
// same core/setup over the real provider registry: the same live model
// list from the provider's server, and a default chosen over REST is the
// one ACP reads back.
func TestFacesAskOneProviderSetup(t *testing.T) {
	env := newAgentEnv(t)
	delete(env.Vars, "GOOSE_MODEL") // the default model is config.yaml's
	env.LLM.Script.SetModels("o3", "gpt-4o")
	const secret = "faces-secret"
	env.Vars["GOOSE_SERVER__SECRET_KEY"] = secret
	addr := freeAddr(t)
	base := "http://" + addr
	c := startAgent(t, env, "--http", addr, "--tls=false")
	c.initialize(acp.ClientCapabilities{})
	waitStatus(t, base)

	var rest []string
	if code := httpCall(t, "GET", base+"/config/providers/openai/models", secret, "", &rest); code != 200 {
		t.Fatalf("REST models: %d", code)
	}
	var viaACP json.RawMessage
	c.call("_goose/unstable/providers/supported-models/list", map[string]string{"providerId": "openai"}, &viaACP)
	if got := string(viaACP); got != `{"models":["gpt-4o","o3"],"providerId":"openai"}` {
		t.Fatalf("ACP supported models %s", got)
	}
	if b, _ := json.Marshal(rest); string(b) != `["gpt-4o","o3"]` {
		t.Fatalf("REST models %s", b)
	}
	listed := 0
	for _, r := range env.LLM.Requests() {
		if r.Method == "GET" && r.Path == "/v1/models" && r.Header.Get("Authorization") == "Bearer sk-test-secret" {
			listed++
		}
	}
	if listed != 2 {
		t.Fatalf("the provider's model list was fetched %d times with the key, want 2 (one per face): %+v", listed, env.LLM.Requests())
	}

	if code := httpCall(t, "POST", base+"/config/set_provider", secret, `{"provider":"openai","model":"o3"}`, nil); code != 200 {
		t.Fatalf("set_provider: %d", code)
	}
	cfg, err := os.ReadFile(filepath.Join(env.Root, "config", "config.yaml"))
	if err != nil || !strings.HasSuffix(string(cfg), "\nGOOSE_PROVIDER: openai\nGOOSE_MODEL: o3\n") {
		t.Fatalf("config.yaml after set_provider: %q %v", cfg, err)
	}
	var defaults json.RawMessage
	c.call("_goose/unstable/defaults/read", map[string]any{}, &defaults)
	if got := string(defaults); got != `{"providerId":"openai","modelId":"o3"}` {
		t.Fatalf("ACP defaults after REST set_provider: %s", got)
	}
	if code := httpCall(t, "POST", base+"/config/set_provider", secret, `{"provider":"anthropic","model":"claude-sonnet-4"}`, nil); code != 400 {
		t.Fatalf("set_provider of a provider without its key: %d, want 400", code)
	}
	if after, _ := os.ReadFile(filepath.Join(env.Root, "config", "config.yaml")); string(after) != string(cfg) {
		t.Fatalf("a refused set_provider wrote config.yaml: %q", after)
	}
	c.assertCleanStdout()
	terminate(t, c)
}
