package provider

import (
	"context"
	"iter"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
)

// fakeProvider replays a fixed list of attempts; each attempt yields its
// chunks then its error. Wrappers are tested against it; backends are
// tested against real wire servers in their own packages.
type fakeProvider struct {
	attempts [][]fakeItem
	calls    int
	hang     bool // block after chunks until ctx ends, then return ctx error
}

type fakeItem struct {
	text string
	err  error
}

func (f *fakeProvider) Metadata() Metadata        { return Metadata{Name: "fake"} }
func (f *fakeProvider) ModelConfig() model.Config { return model.Config{ModelName: "m"} }
func (f *fakeProvider) FetchModels(context.Context) ([]string, error) {
	return nil, nil
}

func (f *fakeProvider) Stream(ctx context.Context, _ Request) iter.Seq2[Chunk, error] {
	items := f.attempts[min(f.calls, len(f.attempts)-1)]
	f.calls++
	return func(yield func(Chunk, error) bool) {
		for _, it := range items {
			if it.err != nil {
				yield(Chunk{}, it.err)
				return
			}
			m := conversation.AssistantText(0, it.text)
			if !yield(Chunk{Message: &m}, nil) {
				return
			}
		}
		if f.hang {
			<-ctx.Done()
			yield(Chunk{}, ctx.Err())
		}
	}
}

func (f *fakeProvider) Complete(ctx context.Context, req Request) (conversation.Message, ProviderUsage, error) {
	var text string
	for c, err := range f.Stream(ctx, req) {
		if err != nil {
			return conversation.Message{}, ProviderUsage{}, err
		}
		text += c.Message.AsText()
	}
	return conversation.AssistantText(0, text), ProviderUsage{}, nil
}
