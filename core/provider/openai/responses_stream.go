package openai

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// responsesEvent is one stream event. Its fields stay raw until the type
// is known: like goose, events of types it does not read are skipped
// whatever their shape.
type responsesEvent struct {
	Type     string          `json:"type"`
	Delta    json.RawMessage `json:"delta"`
	Item     json.RawMessage `json:"item"`
	Response json.RawMessage `json:"response"`
	Error    json.RawMessage `json:"error"`
	Code     json.RawMessage `json:"code"`
	Message  json.RawMessage `json:"message"`
}

// responsesParser turns a Responses SSE body into Chunks the way goose's
// responses_api_to_streaming_message does: text deltas are yielded as
// they arrive; reasoning summaries, tool calls (and text, if none was
// streamed) come in one message built from the finished output items;
// usage comes last. Argument deltas are not used (the finished item
// carries the arguments) but, like every line, keep the idle watchdog fed.
type responsesParser struct {
	name, model string
	req         provider.Request
	now         func() time.Time
	sse         *sseData
	dec         *json.Decoder

	id        string // response id shared by every message of the reply
	usedModel string // model the server reported
	usage     *provider.Usage
	items     []responsesItem
	streamed  bool // an output_text delta arrived
	completed bool
	text      bytes.Buffer
}

func newResponsesParser(body io.Reader, name, model string, req provider.Request, now func() time.Time) *responsesParser {
	sse := newSSEData(body)
	return &responsesParser{name: name, model: model, req: req, now: now, sse: sse, dec: json.NewDecoder(sse)}
}

// chunks yields the stream's chunks; the first error ends it.
func (p *responsesParser) chunks(ctx context.Context) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		p.sse.events.Touch = provider.Toucher(ctx)
		for !p.completed {
			var ev responsesEvent
			err := p.dec.Decode(&ev)
			if err == io.EOF {
				break
			}
			if err != nil {
				yield(provider.Chunk{}, p.decodeError(ctx, err))
				return
			}
			if err := p.handle(&ev, yield); err != nil {
				if err != errStopped {
					yield(provider.Chunk{}, err)
				}
				return
			}
		}
		if !p.completed && !p.sse.sawDone() {
			yield(provider.Chunk{}, p.cutError(ctx))
			return
		}
		p.finish(yield)
	}
}

// errStopped means the consumer stopped reading.
var errStopped = errors.New("consumer stopped")

func (p *responsesParser) handle(ev *responsesEvent, yield func(provider.Chunk, error) bool) error {
	switch ev.Type {
	case "response.created", "response.in_progress":
		var r responsesObject
		if err := p.field(ev, ev.Response, &r); err != nil {
			return err
		}
		if p.id == "" {
			p.id = r.ID
		}
		p.usedModel = r.Model
	case "response.output_text.delta":
		var delta string
		if err := p.field(ev, ev.Delta, &delta); err != nil {
			return err
		}
		return p.textDelta(delta, yield)
	case "response.output_item.done":
		var it responsesItem
		if err := p.field(ev, ev.Item, &it); err != nil {
			return err
		}
		p.items = append(p.items, it)
	case "response.completed", "response.incomplete":
		var r responsesObject
		if err := p.field(ev, ev.Response, &r); err != nil {
			return err
		}
		p.complete(&r)
	case "response.failed":
		raw := ev.Error
		if isNull(raw) {
			var r responsesObject
			_ = json.Unmarshal(ev.Response, &r)
			raw = r.Error
		}
		return p.streamError("Responses API failed: ", raw)
	case "error":
		raw := ev.Error
		if isNull(raw) {
			raw, _ = json.Marshal(struct {
				Code    json.RawMessage `json:"code,omitempty"`
				Message json.RawMessage `json:"message,omitempty"`
			}{ev.Code, ev.Message})
		}
		return p.streamError("Responses API error: ", raw)
	}
	return nil
}

// field decodes one field of a known event; a missing or malformed field
// fails the stream as goose's strict event parsing does.
func (p *responsesParser) field(ev *responsesEvent, raw json.RawMessage, v any) error {
	err := errors.New("missing field")
	if !isNull(raw) {
		err = json.Unmarshal(raw, v)
	}
	if err != nil {
		return &provider.Error{Kind: provider.KindServer, Provider: p.name,
			Message: "Stream decode error: Failed to parse Responses stream event " + ev.Type + ": " + err.Error(), Err: err}
	}
	return nil
}

func (p *responsesParser) textDelta(delta string, yield func(provider.Chunk, error) bool) error {
	p.streamed = true
	if delta == "" {
		return nil
	}
	p.text.WriteString(delta)
	m := p.message([]conversation.Content{conversation.Text(delta)})
	if !yield(provider.Chunk{Message: &m}, nil) {
		return errStopped
	}
	return nil
}

// complete takes the final usage and, when the response lists its
// output, those items in place of the ones collected from the stream.
func (p *responsesParser) complete(r *responsesObject) {
	p.completed = true
	if r == nil {
		return
	}
	if p.usedModel == "" {
		p.usedModel = r.Model
	}
	if r.Usage != nil {
		u := r.Usage.usage()
		p.usage = &u
	}
	if len(r.Output) > 0 {
		p.items = r.Output
	}
}

// finish yields the message built from the output items, then usage
// (counts the server did not report are estimated as goose does).
func (p *responsesParser) finish(yield func(provider.Chunk, error) bool) {
	content := outputContent(p.items, p.streamed)
	reply := conversation.Message{Role: conversation.RoleAssistant, Content: content}
	if p.text.Len() > 0 {
		reply.Content = append([]conversation.Content{conversation.Text(p.text.String())}, content...)
	}
	if len(content) > 0 {
		m := p.message(content)
		if !yield(provider.Chunk{Message: &m}, nil) {
			return
		}
	}
	pu := provider.ProviderUsage{Model: p.usedModel}
	if pu.Model == "" {
		pu.Model = p.model
	}
	if p.usage != nil {
		pu.Usage = *p.usage
	}
	pu.EnsureTokens(p.req, reply)
	yield(provider.Chunk{Usage: &pu}, nil)
}

func (p *responsesParser) message(content []conversation.Content) conversation.Message {
	if p.id == "" {
		p.id = generatedResponseID()
	}
	m := newReplyMessage(p.now, p.id)
	m.Content = content
	return m
}

func newReplyMessage(now func() time.Time, id string) conversation.Message {
	if id == "" {
		id = generatedResponseID()
	}
	return conversation.Message{ID: &id, Role: conversation.RoleAssistant, Created: now().Unix(),
		Metadata: conversation.VisibleToAll()}
}

// streamError reports an error event with goose's wording; an explicit
// context_length_exceeded code lets the agent compact and retry.
func (p *responsesParser) streamError(prefix string, raw json.RawMessage) *provider.Error {
	if isNull(raw) {
		raw = json.RawMessage("null")
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		compact.Reset()
		compact.Write(raw)
	}
	wrapped, _ := json.Marshal(struct {
		Error json.RawMessage `json:"error"`
	}{compact.Bytes()})
	e := provider.ClassifyStreamError(p.name, wrapped)
	e.Message = "Stream decode error: " + prefix + compact.String()
	return e
}

func (p *responsesParser) decodeError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syn) || errors.As(err, &typ) {
		return &provider.Error{Kind: provider.KindServer, Provider: p.name,
			Message: "Stream decode error: Failed to parse Responses stream event: " + err.Error(), Err: err}
	}
	return p.cutError(ctx)
}

// cutError is the error for a stream that ended before response.completed.
func (p *responsesParser) cutError(ctx context.Context) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	err := p.sse.readErr()
	if err == nil || err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return &provider.Error{Kind: provider.KindNetwork, Provider: p.name,
			Message: "stream ended before the response was complete", Err: io.ErrUnexpectedEOF}
	}
	return &provider.Error{Kind: provider.KindNetwork, Provider: p.name, Message: "stream interrupted: " + err.Error(), Err: err}
}

func isNull(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

// generatedResponseID names a reply whose server sent no response id.
func generatedResponseID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "resp_" + hex.EncodeToString(b[:])
}
