package anthropic

import (
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

func text(s string) conversation.Content { return conversation.Text(s) }

func thinkingContent(t, sig string) conversation.Content { return conversation.Thinking(t, sig) }

func redactedThinking(data string) conversation.Content { return conversation.RedactedThinking(data) }

func toolRequestError(id, msg string) conversation.Content {
	return conversation.ToolRequestError(id, msg)
}

// toolRequest parses accumulated input_json_delta fragments with goose's
// lenient parser (empty is {}, non-objects are wrapped as {"value": …});
// unparsable input becomes a tool request error the model can read, with
// goose's anthropic wording.
func toolRequest(id, name string, args []byte) conversation.Content {
	if len(args) == 0 {
		return conversation.ToolRequestContent(id, name, map[string]any{})
	}
	obj, err := provider.ParseToolArguments(string(args))
	if err != nil {
		return toolRequestError(id, "Could not parse tool arguments: "+string(args))
	}
	return conversation.ToolRequestContent(id, name, obj)
}

// chunk wraps one content item in a partial assistant message carrying
// the stream's message id.
// The id pointer is shared by the stream's chunks (ids are never mutated).
func (s *streamState) chunk(c conversation.Content) provider.Chunk {
	if s.idPtr == nil && s.msgID != "" {
		id := s.msgID
		s.idPtr = &id
	}
	return provider.Chunk{Message: &conversation.Message{ID: s.idPtr, Role: conversation.RoleAssistant, Created: s.created,
		Content: []conversation.Content{c}, Metadata: conversation.VisibleToAll()}}
}

// usageAcc holds Anthropic's usage components; input excludes cache tokens
// on the wire and includes them in goose's accounting.
type usageAcc struct {
	input, output, cacheRead, cacheWrite int64
}

// mergeStart takes message_start's usage.
func (a *usageAcc) mergeStart(u wireUsage) {
	a.input, a.output = deref(u.InputTokens), deref(u.OutputTokens)
	a.cacheRead, a.cacheWrite = deref(u.CacheRead), deref(u.CacheCreation)
}

// mergeDelta applies message_delta usage, which is cumulative: fields the
// delta reports win, as in goose's merge_delta_usage.
func (a *usageAcc) mergeDelta(d wireUsage) {
	if d.OutputTokens != nil {
		a.output = *d.OutputTokens
	}
	if d.InputTokens == nil {
		return
	}
	a.input = *d.InputTokens
	if d.CacheRead != nil || d.CacheCreation != nil {
		a.cacheRead, a.cacheWrite = deref(d.CacheRead), deref(d.CacheCreation)
	}
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func (a usageAcc) toUsage() provider.Usage {
	in := clampInt(a.input + a.cacheRead + a.cacheWrite)
	out := clampInt(a.output)
	total := clampInt(int64(in) + int64(out))
	return provider.Usage{InputTokens: &in, OutputTokens: &out, TotalTokens: &total}
}

func clampInt(n int64) int {
	const maxInt32 = 1<<31 - 1
	return int(min(n, maxInt32))
}
