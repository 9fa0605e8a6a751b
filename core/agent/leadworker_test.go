package agent

import (
	"context"
	"iter"
	"reflect"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/registry"
)

// namedModel answers every request with text and a usage report naming
// its model (usageModel, as an API would, else its configured name).
type namedModel struct {
	name, usageModel string
}

func (n namedModel) Metadata() provider.Metadata { return provider.Metadata{Name: "fake"} }
func (n namedModel) ModelConfig() model.Config   { return model.Config{ModelName: n.name} }
func (n namedModel) FetchModels(context.Context) ([]string, error) {
	return []string{n.name}, nil
}
func (n namedModel) Complete(context.Context, provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	return conversation.AssistantText(0, n.name), provider.ProviderUsage{Model: n.name}, nil
}
func (n namedModel) Stream(context.Context, provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		m := conversation.AssistantText(0, "from "+n.name)
		if !yield(provider.Chunk{Message: &m}, nil) {
			return
		}
		um := n.usageModel
		if um == "" {
			um = n.name
		}
		yield(provider.Chunk{Usage: &provider.ProviderUsage{Model: um, Usage: provider.NewUsage(3, 2)}}, nil)
	}
}

func TestLeadWorkerModelChangeEvents(t *testing.T) {
	lw := registry.NewLeadWorker(namedModel{name: "big"}, namedModel{name: "small", usageModel: "small-2026-01-01"},
		registry.LeadWorkerSettings{LeadTurns: 1, FailureThreshold: 2, FallbackTurns: 2}, nil)
	h := newHarnessWith(t, nil, func(o *Options) {
		o.Providers = func(context.Context, string, model.Config) (provider.Provider, error) { return lw, nil }
	})
	h.start(StartOptions{})
	var got []ModelChangeEvent
	for _, text := range []string{"one", "two", "three"} {
		h.reply(context.Background(), text, func(e Event) {
			if mc, ok := e.(ModelChangeEvent); ok {
				got = append(got, mc)
			}
		})
	}
	// The lead answers first, then the worker (reported under its dated
	// API id, mode from the provider); the third turn changes nothing.
	want := []ModelChangeEvent{{Model: "big", Mode: ModeLead}, {Model: "small-2026-01-01", Mode: ModeWorker}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("model changes = %+v, want %+v", got, want)
	}
}

func TestNoModelChangeWithoutLeadWorker(t *testing.T) {
	u := provider.NewUsage(1, 1)
	h := newHarness(t, nil, step{text: []string{"hi"}, usage: &u})
	h.start(StartOptions{})
	_, evs := h.reply(context.Background(), "x", nil)
	for _, e := range evs {
		if _, ok := e.(ModelChangeEvent); ok {
			t.Fatalf("unexpected %+v", e)
		}
	}
}

func TestStartTemperature(t *testing.T) {
	var cfgs []model.Config
	h := newHarnessWith(t, nil, func(o *Options) {
		o.Providers = func(_ context.Context, _ string, cfg model.Config) (provider.Provider, error) {
			cfgs = append(cfgs, cfg)
			return namedModel{name: "m"}, nil
		}
	})
	temp := 0.25
	h.start(StartOptions{Temperature: &temp})
	if len(cfgs) != 1 || cfgs[0].Temperature == nil || *cfgs[0].Temperature != 0.25 {
		t.Fatalf("provider configs = %+v", cfgs)
	}
	temp = 0.9 // the session keeps its own copy
	if *cfgs[0].Temperature != 0.25 {
		t.Fatal("temperature aliased the caller's variable")
	}
	h.start(StartOptions{})
	if cfgs[1].Temperature != nil {
		t.Fatalf("temperature without a recipe setting: %v", *cfgs[1].Temperature)
	}
}
