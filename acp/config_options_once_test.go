package acp

import (
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider"
)

// A session's answer lists the providers once (each listing reads the
// custom providers' directory and sorts every provider), and its legacy
// model list is exactly the model option's choices.
func TestSessionSetupListsTheProvidersOnce(t *testing.T) {
	cfg := &liveConfig{m: map[string]any{"GOOSE_DISABLE_SESSION_NAMING": "true", "GOOSE_PROVIDER": "p2", "GOOSE_MODEL": "custom-model", "GOOSE_MODE": "auto"}}
	a := agentWithoutProvider(t, cfg)
	var listed atomic.Int32
	providers := func() []provider.Metadata {
		listed.Add(1)
		return []provider.Metadata{{Name: "p1", DisplayName: "One", KnownModels: []provider.ModelInfo{{Name: "a"}}},
			{Name: "p2", DisplayName: "Two", Description: "the second", KnownModels: []provider.ModelInfo{{Name: "b"}, {Name: "c"}}}}
	}
	c := serveLines(t, Options{Agent: a, Store: a.Sessions(), Builtins: []string{}, Providers: providers})
	r := c.callRaw(t, 1, "session/new", map[string]any{"cwd": t.TempDir(), "mcpServers": []any{}})
	if r.Error != nil {
		t.Fatalf("session/new: %+v", r.Error)
	}
	if n := listed.Load(); n != 1 {
		t.Errorf("session/new listed the providers %d times, want once", n)
	}
	var resp struct {
		Models        json.RawMessage   `json:"models"`
		ConfigOptions []json.RawMessage `json:"configOptions"`
	}
	if err := json.Unmarshal(r.Result, &resp); err != nil {
		t.Fatal(err)
	}
	const wantModels = `{"currentModelId":"custom-model","availableModels":[{"modelId":"custom-model","name":"custom-model"},{"modelId":"b","name":"b"},{"modelId":"c","name":"c"}]}`
	if string(resp.Models) != wantModels {
		t.Errorf("models = %s\nwant %s", resp.Models, wantModels)
	}
	const wantModel = `{"id":"model","name":"Model","category":"model","type":"select","currentValue":"custom-model","options":[{"value":"custom-model","name":"custom-model"},{"value":"b","name":"b"},{"value":"c","name":"c"}]}`
	if len(resp.ConfigOptions) < 3 || string(resp.ConfigOptions[2]) != wantModel {
		t.Errorf("configOptions = %s\nwant the model option %s", resp.ConfigOptions, wantModel)
	}
}
