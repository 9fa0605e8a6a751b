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
		if strings.Contains(err.Error(), "iterateResponseStream") {
			return p.errorf(provider.KindServer, fmt.Errorf("malformed stream chunk: %w", err))
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
