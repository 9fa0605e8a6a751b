package google

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/sse"
)

// stream runs one reply: a streamGenerateContent request and, for a long
// decode, its continuation hops.
func (p *Provider) stream(ctx context.Context, modelName string, body generateRequest, yield func(provider.Chunk, error) bool) {
	url, err := p.streamURL(modelName)
	if err != nil {
		yield(provider.Chunk{}, p.errorf(provider.KindRequest, err))
		return
	}
	s := &streamState{p: p, id: p.opts.NewID(), created: p.opts.Now().Unix()}
	var run continuation
	for {
		body.ContinuationToken = run.start()
		hopErr := p.hop(ctx, url, body, func(r *generateResponse) bool {
			run.observe(r)
			for _, c := range s.response(r) {
				if !yield(c, nil) {
					return false
				}
			}
			return true
		})
		if errors.Is(hopErr, errStopped) {
			return
		}
		resume, err := run.end(ctx, hopErr)
		if resume {
			continue
		}
		if err != nil && !s.fail(ctx, err, yield) {
			return
		}
		break
	}
	if ctx.Err() != nil {
		yield(provider.Chunk{}, ctx.Err())
		return
	}
	for _, c := range s.finish() {
		if !yield(c, nil) {
			return
		}
	}
	if !s.finished {
		yield(provider.Chunk{}, p.errorf(provider.KindNetwork, errors.New("stream ended before a finish reason")))
	}
}

func (p *Provider) streamURL(modelName string) (string, error) {
	path, err := modelPath(modelName)
	if err != nil {
		return "", err
	}
	return p.endpoint(path+":streamGenerateContent", "alt=sse")
}

// hop sends one request and hands each chunk to onChunk until the stream
// ends (nil), onChunk returns false (errStopped) or the hop fails.
func (p *Provider) hop(ctx context.Context, url string, body generateRequest, onChunk func(*generateResponse) bool) error {
	b, err := encodeRequest(body)
	if err != nil {
		return fmt.Errorf("encoding request: %w", err)
	}
	resp, err := p.do(ctx, http.MethodPost, url, b)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	dec := newSSEReader(resp.Body, maxSSELine)
	// Keep-alive comments keep an idle watchdog quiet.
	dec.Touch = provider.Toucher(ctx)
	for {
		data, err := nextData(dec)
		if errors.Is(err, io.EOF) {
			return nil
		}
		var bad *sse.LineError
		if errors.As(err, &bad) {
			if f, ok := eventFailure(bad.Line); ok {
				return f
			}
			return &malformedError{what: streamChunk, err: bad}
		}
		if err != nil {
			return err
		}
		r, err := decodeChunk(data)
		if err != nil {
			return err
		}
		if !onChunk(r) {
			return errStopped
		}
	}
}

// decodeChunk reads one event's data: a response chunk, or an error
// object (a *failure).
func decodeChunk(data []byte) (*generateResponse, error) {
	var r generateResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &malformedError{what: streamChunk, err: err, call: bytes.Contains(data, []byte(`"functionCall"`))}
	}
	if len(r.Error) > 0 && string(r.Error) != "null" {
		f, _ := eventFailure(data)
		return nil, f
	}
	return &r, nil
}

// streamState turns response chunks into goose chunks.
type streamState struct {
	p        *Provider
	id       string
	created  int64
	lastSig  string
	usage    *provider.ProviderUsage
	finished bool
}

// fail reports the error a reply ended with and whether the stream goes
// on. A function call whose arguments do not decode is told to the model
// on the call itself, so it can retry; goose drops such chunks silently,
// genai ended the reply there, and so does this: the call's chunk is the
// reply's last item.
func (s *streamState) fail(ctx context.Context, err error, yield func(provider.Chunk, error) bool) bool {
	var chunk *malformedError
	if ctx.Err() != nil || !errors.As(err, &chunk) || !chunk.call {
		yield(provider.Chunk{}, s.p.classify(ctx, err))
		return false
	}
	s.finished = true
	id := s.p.opts.NewID()
	m := conversation.NewMessage(conversation.RoleAssistant, s.created).
		With(conversation.ToolRequestError(id, malformedCallText(id, chunk.err))).WithID(s.id)
	return yield(provider.Chunk{Message: &m}, nil)
}

// response yields a chunk per non-empty part of the first candidate and
// records usage and the finish reason.
func (s *streamState) response(r *generateResponse) []provider.Chunk {
	if u := r.UsageMetadata; u != nil && (u.PromptTokenCount > 0 || u.CandidatesTokenCount > 0) {
		m := r.ModelVersion
		if m == "" {
			m = "unknown"
		}
		in, out, total := int(u.PromptTokenCount), int(u.CandidatesTokenCount), int(u.TotalTokenCount)
		s.usage = &provider.ProviderUsage{Model: m, Usage: provider.Usage{InputTokens: &in, OutputTokens: &out, TotalTokens: &total}}
	}
	if len(r.Candidates) == 0 || r.Candidates[0] == nil {
		return nil
	}
	cand := r.Candidates[0]
	if cand.FinishReason != "" {
		s.finished = true
	}
	if cand.Content == nil {
		return nil
	}
	var out []provider.Chunk
	for _, part := range cand.Content.Parts {
		if c, ok := s.part(part); ok {
			m := conversation.NewMessage(conversation.RoleAssistant, s.created).With(c).WithID(s.id)
			out = append(out, provider.Chunk{Message: &m})
		}
	}
	return out
}

// part converts one part: thoughts become thinking (with their signature),
// text stays text, function calls get generated ids and carry the thought
// signature Gemini needs echoed back.
func (s *streamState) part(p part) (conversation.Content, bool) {
	sig := ""
	if p.ThoughtSignature != "" {
		sig = string(p.ThoughtSignature)
		s.lastSig = sig
	}
	switch {
	case p.FunctionCall != nil:
		return s.functionCall(p.FunctionCall, sig), true
	case p.Text == "":
		return conversation.Content{}, false
	case p.Thought:
		return conversation.Thinking(p.Text, sig), true
	}
	return conversation.Text(p.Text), true
}

func (s *streamState) functionCall(fc *functionCall, sig string) conversation.Content {
	id := fc.ID
	if id == "" {
		id = s.p.opts.NewID()
	}
	if !validFunctionName().MatchString(fc.Name) {
		return conversation.ToolRequestError(id, fmt.Sprintf(
			"The provided function name '%s' had invalid characters, it must match this regex [a-zA-Z0-9_-]+", fc.Name))
	}
	args := fc.Args
	if args == nil {
		args = map[string]any{}
	}
	c := conversation.ToolRequestContent(id, fc.Name, args)
	if sig == "" {
		sig = s.lastSig
	}
	if sig != "" {
		c.ToolRequest.Metadata = map[string]any{thoughtSignatureKey: sig}
	}
	return c
}

// finish yields the last usage seen.
func (s *streamState) finish() []provider.Chunk {
	if s.usage == nil {
		return nil
	}
	return []provider.Chunk{{Usage: s.usage}}
}
