package provider

import (
	"context"
	"errors"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// ErrEmptyReply is returned by Collect when a stream produced no message.
var ErrEmptyReply = errors.New("provider returned an empty reply")

// Collect runs a stream to its end and merges its chunks into one
// assistant message (goose's streaming merge) and one usage, estimating
// counts the provider did not report. Backends use it for Complete.
func Collect(ctx context.Context, p Provider, req Request) (conversation.Message, ProviderUsage, error) {
	var conv conversation.Conversation
	var usage ProviderUsage
	for c, err := range p.Stream(ctx, req) {
		if err != nil {
			return conversation.Message{}, ProviderUsage{}, err
		}
		if c.Message != nil {
			m := *c.Message
			if last, ok := conv.Last(); ok && last.ID != nil && m.ID != nil && *last.ID != *m.ID {
				m.ID = last.ID // one reply is one message, whatever ids the server sent
			}
			conv.Push(m)
		}
		if c.Usage != nil {
			if c.Usage.Model != "" {
				usage.Model = c.Usage.Model
			}
			usage.Usage = usage.Usage.Merge(c.Usage.Usage)
		}
	}
	msg, ok := conv.Last()
	if !ok {
		return conversation.Message{}, ProviderUsage{}, &Error{Kind: KindServer, Provider: p.Metadata().Name, Err: ErrEmptyReply}
	}
	if usage.Model == "" {
		usage.Model = p.ModelConfig().ModelName
	}
	usage.EnsureTokens(req, msg)
	return msg, usage, nil
}
