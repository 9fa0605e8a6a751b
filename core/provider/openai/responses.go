package openai

import (
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// DefaultResponsesPath is where Responses requests go when the base path
// names neither endpoint.
const DefaultResponsesPath = "v1/responses"

// UsesResponses reports whether goose's openai provider sends a request
// for modelName to the Responses API rather than Chat Completions
// (providers/openai.rs should_use_responses_api): a custom base path
// decides when it names an endpoint ("…/responses" or
// "…chat/completions"); otherwise the model does (gpt-5 codex models,
// gpt-5.2-pro and gpt-5.4).
func UsesResponses(modelName, basePath string) bool {
	bp := normalizeBasePath(basePath)
	if bp != DefaultBasePath {
		if isResponsesPath(bp) {
			return true
		}
		if isChatPath(bp) {
			return false
		}
	}
	m := strings.ToLower(modelName)
	return strings.HasPrefix(m, "gpt-5") && strings.Contains(m, "codex") ||
		strings.HasPrefix(m, "gpt-5.2-pro") || strings.HasPrefix(m, "gpt-5.4")
}

// normalizeBasePath drops trailing slashes, keeping a leading one.
func normalizeBasePath(bp string) string {
	if rest, ok := strings.CutPrefix(bp, "/"); ok {
		return "/" + strings.TrimRight(rest, "/")
	}
	return strings.TrimRight(bp, "/")
}

func isChatPath(bp string) bool {
	return strings.Contains(strings.ToLower(normalizeBasePath(bp)), "chat/completions")
}

func isResponsesPath(bp string) bool {
	n := strings.ToLower(normalizeBasePath(bp))
	return strings.HasSuffix(n, "responses") || strings.Contains(n, "/responses")
}

// mapBasePath is goose's map_base_path: the sibling endpoint target of a
// chat or responses base path ("openai/v1/chat/completions" →
// "openai/v1/responses"), or fallback (absolute if the base path is).
func mapBasePath(basePath, target, fallback string) string {
	n := normalizeBasePath(basePath)
	switch {
	case strings.HasSuffix(n, target) || strings.Contains(n, "/"+target):
		return n
	case isChatPath(n):
		return strings.Replace(n, "chat/completions", target, 1)
	case isResponsesPath(n):
		return strings.Replace(n, "responses", target, 1)
	case strings.HasPrefix(n, "/"):
		return "/" + strings.TrimLeft(fallback, "/")
	}
	return fallback
}

// streamResponses serves one request through the Responses API.
func (p *Provider) streamResponses(ctx context.Context, cfg model.Config, req provider.Request,
	yield func(provider.Chunk, error) bool) {
	streaming := !p.opts.NoStreaming
	body, err := marshalResponsesRequest(*buildResponsesRequest(cfg, req, streaming))
	if err != nil {
		yield(provider.Chunk{}, &provider.Error{Kind: provider.KindRequest, Provider: p.opts.Metadata.Name, Message: err.Error(), Err: err})
		return
	}
	accept := "text/event-stream"
	if !streaming {
		accept = "application/json"
	}
	resp, err := p.postTo(ctx, mapBasePath(p.opts.BasePath, "responses", DefaultResponsesPath), body, accept)
	if err != nil {
		yield(provider.Chunk{}, err)
		return
	}
	defer resp.Body.Close()
	if !streaming {
		p.responsesOnce(resp.Body, cfg, req, yield)
		return
	}
	parser := newResponsesParser(resp.Body, p.opts.Metadata.Name, cfg.ModelName, req, p.opts.Now)
	for c, err := range parser.chunks(ctx) {
		if err != nil {
			yield(provider.Chunk{}, p.redact(err))
			return
		}
		if !yield(c, nil) {
			return
		}
	}
}

// responsesOnce reads a non-streaming response object (a custom
// provider's supports_streaming: false): one message, then usage.
func (p *Provider) responsesOnce(body io.Reader, cfg model.Config, req provider.Request, yield func(provider.Chunk, error) bool) {
	name := p.opts.Metadata.Name
	raw, err := io.ReadAll(io.LimitReader(body, 64<<20))
	if err != nil {
		yield(provider.Chunk{}, p.redact(&provider.Error{Kind: provider.KindNetwork, Provider: name, Err: err}))
		return
	}
	var r responsesObject
	if err := json.Unmarshal(raw, &r); err != nil {
		yield(provider.Chunk{}, &provider.Error{Kind: provider.KindServer, Provider: name,
			Message: "Failed to parse responses API response: " + err.Error(), Err: err})
		return
	}
	msg := newReplyMessage(p.opts.Now, r.ID)
	msg.Content = outputContent(r.Output, false)
	usage := provider.ProviderUsage{Model: cfg.ModelName}
	if r.Usage != nil {
		usage.Usage = r.Usage.usage()
	}
	usage.EnsureTokens(req, msg)
	if yield(provider.Chunk{Message: &msg}, nil) {
		yield(provider.Chunk{Usage: &usage}, nil)
	}
}
