package openai

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// streamParser turns a Chat Completions SSE body into Chunks: text and
// reasoning deltas are yielded as they arrive, tool calls once their
// choice finishes, and usage (estimated where the server reported none)
// last. Every message of one reply shares one id: the first chunk id, or a
// generated one.
type streamParser struct {
	name  string // provider name for errors
	model string // configured model, for usage when the server names none
	req   provider.Request
	now   func() time.Time

	sse   *sseData
	dec   *json.Decoder
	chunk wireChunk
	acc   toolAccumulator

	msgID    *string
	usage    *provider.Usage
	usedFor  string // model the server reported
	finished bool   // a finish_reason arrived
	reply    strings.Builder
	scratch  []byte
}

func newStreamParser(body io.Reader, name, model string, req provider.Request, now func() time.Time) *streamParser {
	sse := newSSEData(body)
	return &streamParser{name: name, model: model, req: req, now: now, sse: sse, dec: json.NewDecoder(sse)}
}

// chunks yields the stream's chunks; the first error ends it.
func (p *streamParser) chunks(ctx context.Context) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		p.sse.events.Touch = provider.Toucher(ctx)
		for {
			p.chunk.reset()
			err := p.dec.Decode(&p.chunk)
			if err == io.EOF {
				break
			}
			if err != nil {
				yield(provider.Chunk{}, p.decodeError(ctx, err))
				return
			}
			if e := p.streamError(); e != nil {
				yield(provider.Chunk{}, e)
				return
			}
			if !p.handle(yield) {
				return
			}
		}
		if err := p.sse.readErr(); err != nil && !(err == io.EOF && p.finished) {
			yield(provider.Chunk{}, p.cutError(ctx, err))
			return
		}
		p.finish(yield)
	}
}

// handle processes one decoded chunk; false means the consumer stopped.
func (p *streamParser) handle(yield func(provider.Chunk, error) bool) bool {
	c := &p.chunk
	if p.msgID == nil && c.ID.v != "" {
		id := c.ID.v
		p.msgID = &id
	}
	if c.Usage != nil && c.Usage.CompletionTokens != nil {
		p.usage = usageFromWire(c.Usage)
		p.usedFor = c.Model.v
	}
	if len(c.Choices) == 0 {
		return true
	}
	ch := &c.Choices[0]
	if m := p.deltaMessage(&ch.Delta); m != nil && !yield(provider.Chunk{Message: m}, nil) {
		return false
	}
	for i := range ch.Delta.ToolCalls {
		p.acc.add(&ch.Delta.ToolCalls[i])
	}
	if ch.FinishReason.present() {
		p.finished = true
		return p.flushTools(yield)
	}
	return true
}

// deltaMessage builds the partial message for a text/reasoning delta.
func (p *streamParser) deltaMessage(d *wireDelta) *conversation.Message {
	reasoning := d.ReasoningContent
	if reasoning.empty() {
		reasoning = d.Reasoning
	}
	if reasoning.empty() && d.Content.empty() {
		return nil
	}
	n := 0
	if !reasoning.empty() {
		n++
	}
	if !d.Content.empty() {
		n++
	}
	content := make([]conversation.Content, 0, n)
	if !reasoning.empty() {
		content = append(content, conversation.Thinking(reasoning.String(), ""))
	}
	if !d.Content.empty() {
		p.scratch = d.Content.appendTo(p.scratch[:0])
		text := string(p.scratch)
		p.reply.WriteString(text)
		content = append(content, conversation.Text(text))
	}
	return p.message(content)
}

func (p *streamParser) message(content []conversation.Content) *conversation.Message {
	if p.msgID == nil {
		id := generatedID()
		p.msgID = &id
	}
	return &conversation.Message{ID: p.msgID, Role: conversation.RoleAssistant, Created: p.now().Unix(),
		Content: content, Metadata: conversation.VisibleToAll()}
}

func (p *streamParser) flushTools(yield func(provider.Chunk, error) bool) bool {
	if !p.acc.pending() {
		return true
	}
	calls := p.acc.flush()
	for _, c := range calls {
		if tr := c.ToolRequest; tr.ToolCall.Value != nil {
			args, _ := json.Marshal(tr.ToolCall.Value.Arguments)
			fmt.Fprintf(&p.reply, "%s:%s:%s", tr.ID, tr.ToolCall.Value.Name, args)
		}
	}
	return yield(provider.Chunk{Message: p.message(calls)}, nil)
}

// finish flushes tool calls a server left without a finish_reason and
// yields the usage, filling counts the server did not report with goose's
// estimates.
func (p *streamParser) finish(yield func(provider.Chunk, error) bool) {
	if !p.flushTools(yield) {
		return
	}
	pu := provider.ProviderUsage{Model: p.usedFor}
	if pu.Model == "" {
		pu.Model = p.model
	}
	if p.usage != nil {
		pu.Usage = *p.usage
	}
	reply := conversation.AssistantText(0, p.reply.String())
	pu.EnsureTokens(p.req, reply)
	yield(provider.Chunk{Usage: &pu}, nil)
}

// streamError reports an error object sent inside the stream.
func (p *streamParser) streamError() *provider.Error {
	c := &p.chunk
	if len(c.Error) == 0 && c.Object.v != "error" {
		return nil
	}
	raw, _ := json.Marshal(struct {
		Error   json.RawMessage `json:"error,omitempty"`
		Message string          `json:"message,omitempty"`
	}{Error: c.Error, Message: c.Message.String()})
	return provider.ClassifyStreamError(p.name, raw)
}

func (p *streamParser) decodeError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) {
		return &provider.Error{Kind: provider.KindServer, Provider: p.name,
			Message: "Failed to parse streaming chunk: " + err.Error(), Err: err}
	}
	return p.cutError(ctx, err)
}

// cutError is the error for a stream that ended before it was complete.
func (p *streamParser) cutError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return &provider.Error{Kind: provider.KindNetwork, Provider: p.name,
			Message: "stream ended before the response was complete", Err: io.ErrUnexpectedEOF}
	}
	return &provider.Error{Kind: provider.KindNetwork, Provider: p.name,
		Message: "stream interrupted: " + err.Error(), Err: err}
}

func usageFromWire(u *wireUsage) *provider.Usage {
	out := &provider.Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	if out.TotalTokens == nil && out.InputTokens != nil && out.OutputTokens != nil {
		out.TotalTokens = provider.Int(*out.InputTokens + *out.OutputTokens)
	}
	return out
}

// generatedID names a reply whose server sent no chunk id.
func generatedID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "chatcmpl-" + hex.EncodeToString(b[:])
}
