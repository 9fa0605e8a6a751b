package agent

import (
	"context"
	"iter"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// summaryProvider answers every request with a final_output call: an
// instant subagent.
type summaryProvider struct{}

func (summaryProvider) Metadata() provider.Metadata { return provider.Metadata{Name: "fake"} }
func (summaryProvider) ModelConfig() model.Config   { return model.Config{ModelName: "fake-model"} }
func (summaryProvider) FetchModels(context.Context) ([]string, error) {
	return nil, nil
}
func (summaryProvider) Complete(context.Context, provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	return conversation.AssistantText(0, "x"), provider.ProviderUsage{}, nil
}
func (summaryProvider) Stream(context.Context, provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		m := conversation.NewMessage(conversation.RoleAssistant, 0).WithID("r").
			With(call("f", FinalOutputToolName, map[string]any{"final_output": `{"summary":"done"}`}))
		yield(provider.Chunk{Message: &m}, nil)
	}
}

// BenchmarkDelegate is one delegate's own cost against an instant model:
// start the sub_agent session (summon and the test tools), run its one
// final_output turn, read the outcome and unload it.
func BenchmarkDelegate(b *testing.B) {
	t := &testing.T{}
	h := newHarnessWith(t, mapConfig{"GOOSE_MODE": "auto"}, func(o *Options) {
		o.Providers = func(context.Context, string, model.Config) (provider.Provider, error) { return summaryProvider{}, nil }
	})
	h.start(StartOptions{Extensions: []config.ExtensionConfig{{Type: config.ExtensionPlatform, Name: platform.Summon}}})
	defer h.a.Close()
	hk := hooks{h.a}
	task := "do it"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hk.Delegate(context.Background(), h.id, "call", platform.DelegateParams{Instructions: &task}); err != nil {
			b.Fatal(err)
		}
	}
}
