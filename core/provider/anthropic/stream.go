package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/sse"
)

// stream posts body and yields chunks as events arrive. Events are decoded
// into the small structs below, which keeps per-event cost low and lets an
// "error" event be classified by its type.
func (p *Provider) stream(ctx context.Context, cfg model.Config, body wireRequest, yield func(provider.Chunk, error) bool) {
	raw, err := marshalRequest(body)
	if err != nil {
		yield(provider.Chunk{}, fmt.Errorf("anthropic: encoding request: %w", err))
		return
	}
	resp, err := p.send(ctx, http.MethodPost, p.messagesURL, raw, "text/event-stream", betaHeaders(cfg, body.Thinking != nil))
	if err != nil {
		yield(provider.Chunk{}, err)
		return
	}
	defer resp.Body.Close()
	events := newSSEReader(resp.Body)
	// Tool-call arguments arrive as many deltas that yield nothing until
	// the block ends, and must not look like a stalled stream.
	events.Touch = provider.Toucher(ctx)
	p.readEvents(ctx, events, yield)
}

// readEvents runs the stream's events through a streamState.
func (p *Provider) readEvents(ctx context.Context, dec *sse.Reader, yield func(provider.Chunk, error) bool) {
	st := newStreamState(p.opts.Now().Unix())
	st.name = p.opts.Name
	var readErr error
	for !st.stopped {
		ev, err := dec.Next()
		if err != nil {
			if err != io.EOF {
				readErr = err
			}
			break
		}
		if ev.Name == "error" {
			yield(provider.Chunk{}, p.streamError(ev.Data))
			return
		}
		if len(ev.Data) == 0 {
			continue // a bare "event: ping" from a proxy carries nothing
		}
		chunks, err := st.handleRaw(ev.Data)
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
	}
	if readErr != nil {
		yield(provider.Chunk{}, p.networkError(ctx, readErr))
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

// event is one Messages API stream event; pointers mark what was sent.
type event struct {
	Type         string        `json:"type"`
	Index        int64         `json:"index"`
	Message      *eventMessage `json:"message"`
	ContentBlock *eventBlock   `json:"content_block"`
	Delta        *eventDelta   `json:"delta"`
	Usage        *wireUsage    `json:"usage"`
}

type eventMessage struct {
	ID    string    `json:"id"`
	Model string    `json:"model"`
	Usage wireUsage `json:"usage"`
}

type eventBlock struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Text      string `json:"text"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
	Data      string `json:"data"`
}

type eventDelta struct {
	Type        string          `json:"type"`
	Text        string          `json:"text"`
	PartialJSON string          `json:"partial_json"`
	Thinking    string          `json:"thinking"`
	Signature   string          `json:"signature"`
	StopReason  string          `json:"stop_reason"`
	StopDetails json.RawMessage `json:"stop_details"`
}

// wireUsage is Anthropic's usage object; nil fields were not sent.
type wireUsage struct {
	InputTokens   *int64 `json:"input_tokens"`
	OutputTokens  *int64 `json:"output_tokens"`
	CacheRead     *int64 `json:"cache_read_input_tokens"`
	CacheCreation *int64 `json:"cache_creation_input_tokens"`
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
	name       string // provider name for errors
	created    int64
	msgID      string
	idPtr      *string
	model      string
	usage      usageAcc
	hasUsage   bool
	open       map[int64]*block
	order      []int64
	stopReason string
	stopped    bool
}

func newStreamState(created int64) *streamState {
	return &streamState{name: Name, created: created, open: map[int64]*block{}}
}

// handleRaw decodes and processes one event's data.
func (s *streamState) handleRaw(data []byte) ([]provider.Chunk, error) {
	var ev event
	if err := json.Unmarshal(data, &ev); err != nil {
		return nil, &provider.Error{Kind: provider.KindServer, Provider: s.name,
			Message: fmt.Sprintf("invalid stream event %.200q: %v", data, err), Err: err}
	}
	return s.handle(ev)
}

// handle processes one event. A non-nil error ends the stream after the
// returned chunks (a refusal).
func (s *streamState) handle(ev event) ([]provider.Chunk, error) {
	switch ev.Type {
	case "message_start":
		if ev.Message != nil {
			s.msgID, s.model = ev.Message.ID, ev.Message.Model
			s.usage.mergeStart(ev.Message.Usage)
			s.hasUsage = true
		}
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

func (s *streamState) blockStart(ev event) []provider.Chunk {
	cb := ev.ContentBlock
	if cb == nil {
		return nil
	}
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

func (s *streamState) blockDelta(ev event) []provider.Chunk {
	d := ev.Delta
	if d == nil {
		return nil
	}
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

func (s *streamState) messageDelta(ev event) ([]provider.Chunk, error) {
	if ev.Usage != nil {
		s.usage.mergeDelta(*ev.Usage)
		s.hasUsage = true
	}
	d := ev.Delta
	if d == nil {
		return nil, nil
	}
	if s.stopReason == "" {
		s.stopReason = d.StopReason
	}
	details := ""
	if len(d.StopDetails) > 0 && string(d.StopDetails) != "null" {
		details = string(d.StopDetails)
	}
	if d.StopReason == "refusal" {
		var out []provider.Chunk
		if u := s.usageChunk(); u != nil {
			out = append(out, *u)
			s.hasUsage = false
		}
		return out, &provider.Error{Kind: provider.KindRefusal, Provider: s.name,
			Message: "the model refused to respond: " + refusalExplanation(details)}
	}
	if details != "" {
		return []provider.Chunk{s.chunk(text("The provider ended the response with: " + details))}, nil
	}
	return nil, nil
}

// refusalExplanation is stop_details.explanation, else the raw details,
// else goose's fallback text.
func refusalExplanation(details string) string {
	var d struct {
		Explanation string `json:"explanation"`
	}
	if json.Unmarshal([]byte(details), &d) == nil && d.Explanation != "" {
		return d.Explanation
	}
	if details != "" {
		return details
	}
	return "No additional details were provided."
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
