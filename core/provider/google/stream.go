package google

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"google.golang.org/genai"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// stream runs one streamGenerateContent call.
func (p *Provider) stream(ctx context.Context, modelName string, contents []*genai.Content, gc *genai.GenerateContentConfig, yield func(provider.Chunk, error) bool) {
	ctx, hint := withRetryAfterHint(ctx)
	s := &streamState{p: p, id: p.opts.NewID(), created: p.opts.Now().Unix()}
	for resp, err := range p.client.Models.GenerateContentStream(ctx, modelName, contents, gc) {
		if err != nil && ctx.Err() == nil && isChunkDecodeError(err) && strings.Contains(err.Error(), "functionCall") {
			// A function call whose arguments do not decode: the model is
			// told on the call itself. genai ends the stream after an
			// undecodable chunk, so this is the reply's last item.
			s.finished = true
			if !yield(s.malformedCall(err), nil) {
				return
			}
			continue
		}
		if err != nil {
			yield(provider.Chunk{}, p.classify(ctx, err, hint))
			return
		}
		for _, c := range s.response(resp) {
			if !yield(c, nil) {
				return
			}
		}
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

// guardedYield remembers whether the consumer is running, so a panic
// inside genai (it type-asserts server JSON, e.g. a non-array
// "candidates") becomes an error while the consumer's own panics pass.
type guardedYield struct {
	yield   func(provider.Chunk, error) bool
	inYield bool
	done    bool
}

func (g *guardedYield) call(c provider.Chunk, err error) bool {
	g.inYield = true
	ok := g.yield(c, err)
	g.inYield = false
	g.done = !ok || err != nil
	return ok
}

func (g *guardedYield) recoverSDKPanic(p *Provider) {
	r := recover()
	if r == nil {
		return
	}
	if g.inYield || g.done {
		panic(r)
	}
	g.yield(provider.Chunk{}, p.errorf(provider.KindServer, fmt.Errorf("invalid stream chunk: genai failed on the response: %v", r)))
}

// streamState turns streamed GenerateContentResponses into goose chunks.
type streamState struct {
	p        *Provider
	id       string
	created  int64
	lastSig  string
	usage    *provider.ProviderUsage
	finished bool
}

// response yields a chunk per non-empty part of the first candidate and
// records usage and the finish reason.
func (s *streamState) response(r *genai.GenerateContentResponse) []provider.Chunk {
	if r == nil {
		return nil
	}
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
func (s *streamState) part(p *genai.Part) (conversation.Content, bool) {
	if p == nil {
		return conversation.Content{}, false
	}
	sig := ""
	if len(p.ThoughtSignature) > 0 {
		sig = base64.StdEncoding.EncodeToString(p.ThoughtSignature)
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

func (s *streamState) functionCall(fc *genai.FunctionCall, sig string) conversation.Content {
	id := fc.ID
	if id == "" {
		id = s.p.opts.NewID()
	}
	if !validFunctionName.MatchString(fc.Name) {
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

// malformedCall reports a streamed function call genai could not decode
// (arguments that are not a JSON object) as a tool request error the
// model sees, so it can retry the call. goose drops such chunks silently.
func (s *streamState) malformedCall(err error) provider.Chunk {
	id := s.p.opts.NewID()
	c := conversation.ToolRequestError(id, fmt.Sprintf("Could not interpret tool use parameters for id %s: %v", id, err))
	m := conversation.NewMessage(conversation.RoleAssistant, s.created).With(c).WithID(s.id)
	return provider.Chunk{Message: &m}
}

// isChunkDecodeError tells a chunk genai could not decode (it reads on)
// from a failed transport (the stream is over).
func isChunkDecodeError(err error) bool {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return errors.As(err, &syntax) || errors.As(err, &typ) || strings.HasPrefix(err.Error(), "iterateResponseStream: error unmarshalling")
}

// finish yields the last usage seen.
func (s *streamState) finish() []provider.Chunk {
	if s.usage == nil {
		return nil
	}
	return []provider.Chunk{{Usage: s.usage}}
}

// classify turns a genai or transport error into a *provider.Error with
// the key redacted; the caller's cancellation is returned as is.
func (p *Provider) classify(ctx context.Context, err error, hint *retryAfterHint) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr genai.APIError
	if !errors.As(err, &apiErr) {
		if isChunkDecodeError(err) {
			return p.errorf(provider.KindServer, fmt.Errorf("invalid stream chunk: %w", err))
		}
		return p.errorf(provider.KindNetwork, err)
	}
	body, _ := json.Marshal(map[string]any{"error": map[string]any{"message": apiErr.Message}})
	var e *provider.Error
	if apiErr.Code == 0 {
		e = provider.ClassifyStreamError(p.opts.Name, body)
	} else {
		e = provider.ClassifyHTTP(p.opts.Name, apiErr.Code, body, hint.header())
		if e.RetryAfter == 0 {
			e.RetryAfter = retryDelay(apiErr.Details)
		}
	}
	e.Err = apiErr
	return e.Redact(p.opts.APIKey)
}

func (p *Provider) errorf(kind provider.Kind, err error) error {
	e := &provider.Error{Kind: kind, Provider: p.opts.Name, Message: err.Error(), Err: err}
	return e.Redact(p.opts.APIKey)
}

// retryDelay reads google.rpc.RetryInfo's retryDelay ("37s") from error
// details, which is how Gemini says when to retry a 429.
func retryDelay(details []map[string]any) time.Duration {
	for _, d := range details {
		if t, _ := d["@type"].(string); !strings.HasSuffix(t, "google.rpc.RetryInfo") {
			continue
		}
		if s, ok := d["retryDelay"].(string); ok {
			if dur, err := time.ParseDuration(s); err == nil {
				return dur
			}
		}
	}
	return 0
}

func redactErr(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), key, "[REDACTED]"))
}

// retryAfterHint records the headers of the last error response of one
// call, which genai's APIError does not keep (Retry-After).
type retryAfterHint struct {
	mu sync.Mutex
	h  http.Header
}

func (h *retryAfterHint) header() http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.h
}

type hintKey struct{}

func withRetryAfterHint(ctx context.Context) (context.Context, *retryAfterHint) {
	h := &retryAfterHint{}
	return context.WithValue(ctx, hintKey{}, h), h
}

// withRetryAfterCapture returns a copy of c whose transport stores error
// responses' headers in the request's retryAfterHint.
func withRetryAfterCapture(c *http.Client) *http.Client {
	cp := *c
	base := cp.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp.Transport = captureTransport{base}
	return &cp
}

type captureTransport struct{ base http.RoundTripper }

func (t captureTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.StatusCode >= 400 {
		if h, ok := req.Context().Value(hintKey{}).(*retryAfterHint); ok {
			h.mu.Lock()
			h.h = resp.Header.Clone()
			h.mu.Unlock()
		}
	}
	return resp, err
}
