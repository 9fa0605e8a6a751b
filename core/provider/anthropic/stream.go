package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// stream posts body and yields chunks as events arrive.
func (p *Provider) stream(ctx context.Context, cfg model.Config, body wireRequest, yield func(provider.Chunk, error) bool) {
	raw, err := json.Marshal(body)
	if err != nil {
		yield(provider.Chunk{}, fmt.Errorf("anthropic: encoding request: %w", err))
		return
	}
	opts := []option.RequestOption{option.WithRequestBody("application/json", raw)}
	for _, b := range betaHeaders(cfg, body.Thinking != nil) {
		opts = append(opts, option.WithHeaderAdd("anthropic-beta", b))
	}
	s := p.messages.NewStreaming(ctx, sdk.MessageNewParams{}, opts...)
	defer s.Close()

	st := newStreamState(p.opts.Now().Unix())
	for !st.stopped && s.Next() {
		chunks, err := st.handle(s.Current())
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
		if err != nil {
			yield(provider.Chunk{}, p.errorf(provider.KindRequest, err))
			return
		}
	}
	if err := s.Err(); err != nil {
		yield(provider.Chunk{}, p.classify(ctx, err))
		return
	}
	for _, c := range st.finish() {
		if !yield(c, nil) {
			return
		}
	}
	if !st.stopped {
		yield(provider.Chunk{}, p.errorf(provider.KindNetwork, errors.New("stream ended before message_stop")))
	}
}

// block is an open content block being accumulated.
type block struct {
	kind      string // "tool_use" or "thinking"
	id, name  string
	args      []byte
	text      []byte
	signature []byte
}

// streamState turns Messages API events into goose chunks, as goose's
// response_to_streaming_message does.
type streamState struct {
	created    int64
	msgID      string
	model      string
	usage      usageAcc
	hasUsage   bool
	open       map[int64]*block
	order      []int64
	stopReason string
	stopped    bool
}

func newStreamState(created int64) *streamState {
	return &streamState{created: created, open: map[int64]*block{}}
}

// handle processes one event. A non-nil error ends the stream after the
// returned chunks (a refusal).
func (s *streamState) handle(ev sdk.MessageStreamEventUnion) ([]provider.Chunk, error) {
	switch ev.Type {
	case "message_start":
		s.msgID, s.model = ev.Message.ID, string(ev.Message.Model)
		s.usage = startUsage(ev.Message.Usage)
		s.hasUsage = true
	case "content_block_start":
		return s.blockStart(ev), nil
	case "content_block_delta":
		return s.blockDelta(ev), nil
	case "content_block_stop":
		return s.blockStop(ev.Index), nil
	case "message_delta":
		return s.messageDelta(ev)
	case "message_stop":
		s.stopped = true
	}
	return nil, nil
}

func (s *streamState) blockStart(ev sdk.MessageStreamEventUnion) []provider.Chunk {
	cb := ev.ContentBlock
	switch cb.Type {
	case "tool_use":
		s.openBlock(ev.Index, &block{kind: "tool_use", id: cb.ID, name: cb.Name})
	case "thinking":
		s.openBlock(ev.Index, &block{kind: "thinking", text: []byte(cb.Thinking), signature: []byte(cb.Signature)})
	case "redacted_thinking":
		return []provider.Chunk{s.chunk(redactedThinking(cb.Data))}
	case "text":
		if cb.Text != "" {
			return []provider.Chunk{s.chunk(text(cb.Text))}
		}
	}
	return nil
}

func (s *streamState) openBlock(idx int64, b *block) {
	s.open[idx] = b
	s.order = append(s.order, idx)
}

func (s *streamState) blockDelta(ev sdk.MessageStreamEventUnion) []provider.Chunk {
	d := ev.Delta
	if d.Type == "text_delta" {
		return []provider.Chunk{s.chunk(text(d.Text))}
	}
	b := s.open[ev.Index]
	if b == nil {
		return nil
	}
	switch d.Type {
	case "input_json_delta":
		b.args = append(b.args, d.PartialJSON...)
	case "thinking_delta":
		b.text = append(b.text, d.Thinking...)
	case "signature_delta":
		b.signature = append(b.signature, d.Signature...)
	}
	return nil
}

func (s *streamState) blockStop(idx int64) []provider.Chunk {
	b := s.open[idx]
	if b == nil {
		return nil
	}
	delete(s.open, idx)
	if b.kind == "thinking" {
		if len(b.text) == 0 {
			return nil
		}
		return []provider.Chunk{s.chunk(thinkingContent(string(b.text), string(b.signature)))}
	}
	return []provider.Chunk{s.chunk(toolRequest(b.id, b.name, b.args))}
}

func (s *streamState) messageDelta(ev sdk.MessageStreamEventUnion) ([]provider.Chunk, error) {
	if ev.JSON.Usage.Valid() {
		s.usage.mergeDelta(ev.Usage)
		s.hasUsage = true
	}
	d := ev.Delta
	if s.stopReason == "" {
		s.stopReason = string(d.StopReason)
	}
	details := ""
	if d.JSON.StopDetails.Valid() {
		details = d.StopDetails.RawJSON()
	}
	if d.StopReason == "refusal" {
		explanation := d.StopDetails.Explanation
		if explanation == "" {
			explanation = details
		}
		if explanation == "" {
			explanation = "No additional details were provided."
		}
		var out []provider.Chunk
		if u := s.usageChunk(); u != nil {
			out = append(out, *u)
			s.hasUsage = false
		}
		return out, fmt.Errorf("the model refused to respond: %s", explanation)
	}
	if details != "" {
		return []provider.Chunk{s.chunk(text("The provider ended the response with: " + details))}, nil
	}
	return nil, nil
}

// finish reports tool calls left open (their arguments are truncated) and
// the final usage.
func (s *streamState) finish() []provider.Chunk {
	var out []provider.Chunk
	for _, idx := range s.order {
		b := s.open[idx]
		if b == nil || b.kind != "tool_use" {
			continue
		}
		out = append(out, s.chunk(toolRequestError(b.id, truncatedToolMessage(string(b.args), s.stopReason == "max_tokens"))))
	}
	if u := s.usageChunk(); u != nil {
		out = append(out, *u)
	}
	return out
}

func (s *streamState) usageChunk() *provider.Chunk {
	if !s.hasUsage {
		return nil
	}
	m := s.model
	if m == "" {
		m = "unknown"
	}
	return &provider.Chunk{Usage: &provider.ProviderUsage{Model: m, Usage: s.usage.toUsage()}}
}

// truncatedToolMessage is goose's explanation for a tool_use block the
// stream never closed.
func truncatedToolMessage(args string, byLimit bool) string {
	guidance := "A tool call was not completed before the stream ended. " +
		"Try resending your message or breaking the task into smaller steps."
	if byLimit {
		guidance = "The model's response was truncated — it hit the output token limit while generating this tool call. " +
			"Try increasing max_tokens for this provider or breaking the task into smaller steps."
	}
	r := []rune(args)
	tail := r[max(0, len(r)-80):]
	return fmt.Sprintf("%s\nReceived %d characters of arguments; cut off at: …%s", guidance, len(r), string(tail))
}
