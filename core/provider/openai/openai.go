package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// Defaults of the openai provider (goose's providers/openai.rs).
const (
	DefaultHost     = "https://api.openai.com"
	DefaultBasePath = "v1/chat/completions"
	DefaultModel    = "gpt-4o"
	DefaultTimeout  = 600 * time.Second
)

// Options configures one OpenAI-style endpoint (Chat Completions, and the
// Responses API for the requests goose sends there).
type Options struct {
	// Metadata is what the provider reports; Name also tags errors.
	Metadata provider.Metadata
	// Host is the scheme://host[:port][/prefix] the path is resolved under.
	Host string
	// BasePath is the chat-completions path under Host (goose's
	// OPENAI_BASE_PATH); the model listing and the Responses path are
	// derived from it. A "…/responses" path sends every request to the
	// Responses API.
	BasePath string
	// APIKey is sent as "Authorization: Bearer …", or in APIKeyHeader when
	// set (azure's "api-key"). Empty sends no credentials.
	APIKey       string
	APIKeyHeader string
	Organization string
	Project      string
	// Headers are extra request headers (custom headers, attribution).
	Headers map[string]string
	// Query is added to every request URL (azure's api-version).
	Query map[string]string
	Model model.Config
	// MaxTokensOnly sends max_tokens instead of max_completion_tokens for
	// reasoning models; NoStreamOptions omits stream_options.
	MaxTokensOnly   bool
	NoStreamOptions bool
	// NoStreaming sends non-streaming requests (services that cannot
	// stream); the reply still arrives through Stream, as one message.
	NoStreaming bool
	// NoResponses keeps every request on Chat Completions. goose routes
	// some models (and a responses base path) to the Responses API only
	// in its openai provider and providers built on it (custom ones);
	// services with a provider of their own (azure, openrouter, xai,
	// litellm) set this.
	NoResponses bool
	// Timeout bounds a whole request (goose's OPENAI_TIMEOUT, default 600 s).
	Timeout    time.Duration
	HTTPClient *http.Client
	Logger     *slog.Logger
	// Now stamps message creation times; tests inject a fixed clock.
	Now func() time.Time
}

// Provider is a Chat Completions backend that sends the requests goose
// sends to the Responses API there (see UsesResponses).
type Provider struct {
	opts      Options
	transport *transport
}

var _ provider.Provider = (*Provider)(nil)

// New returns a provider for o. It fails on a host that is not an
// absolute http(s) URL; it never reads the environment.
func New(o Options) (*Provider, error) {
	if o.Metadata.Name == "" {
		o.Metadata = Metadata()
	}
	if o.Host == "" {
		o.Host = DefaultHost
	}
	if o.BasePath == "" {
		o.BasePath = DefaultBasePath
	}
	if o.Model.ModelName == "" {
		o.Model.ModelName = o.Metadata.DefaultModel
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if !strings.HasPrefix(o.Host, "http://") && !strings.HasPrefix(o.Host, "https://") {
		return nil, fmt.Errorf("%s: host %q must start with http:// or https://", o.Metadata.Name, o.Host)
	}
	p := &Provider{opts: o}
	t, err := newTransport(&p.opts)
	if err != nil {
		return nil, err
	}
	p.transport = t
	return p, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Metadata implements provider.Provider.
func (p *Provider) Metadata() provider.Metadata { return p.opts.Metadata }

// ModelConfig implements provider.Provider.
func (p *Provider) ModelConfig() model.Config { return p.opts.Model }

func (p *Provider) modelFor(req provider.Request) model.Config {
	if req.Model != nil && req.Model.ModelName != "" {
		return *req.Model
	}
	return p.opts.Model
}

// Stream implements provider.Provider.
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		cfg := p.modelFor(req)
		if !p.opts.NoResponses && UsesResponses(cfg.ModelName, p.opts.BasePath) {
			p.streamResponses(ctx, cfg, req, yield)
			return
		}
		if p.opts.NoStreaming {
			p.streamOnce(ctx, cfg, req, yield)
			return
		}
		body, err := p.requestBody(cfg, req, true)
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		resp, err := p.post(ctx, body, "text/event-stream")
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		defer resp.Body.Close()
		parser := newStreamParser(resp.Body, p.opts.Metadata.Name, cfg.ModelName, req, p.opts.Now)
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
}

// Complete implements provider.Provider by collecting a stream into one
// message (goose streams these calls too).
func (p *Provider) Complete(ctx context.Context, req provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	return provider.Collect(ctx, p, req)
}

func (p *Provider) requestBody(cfg model.Config, req provider.Request, streaming bool) (*jsonbody.Body, error) {
	w, err := buildRequest(cfg, req, requestOptions{
		maxTokensOnly: p.opts.MaxTokensOnly, noStreamOptions: p.opts.NoStreamOptions, streaming: streaming})
	if err != nil {
		return nil, &provider.Error{Kind: provider.KindRequest, Provider: p.opts.Metadata.Name, Message: err.Error(), Err: err}
	}
	body, err := marshalRequest(w, cfg.RequestParams)
	if err != nil {
		return nil, &provider.Error{Kind: provider.KindRequest, Provider: p.opts.Metadata.Name, Message: err.Error(), Err: err}
	}
	return body, nil
}

// marshalRequest encodes w, merging the model's request_params (goose
// lets them add or override top-level fields).
func marshalRequest(w *wireRequest, params map[string]any) (*jsonbody.Body, error) {
	wire := *w
	wire.Messages = slices.Clone(w.Messages)
	big := takeBigTexts(&wire)
	return jsonbody.Encode(big, func() ([]byte, error) { return marshalWithParams(&wire, params) },
		func() ([]byte, error) { return marshalWithParams(w, params) })
}

// marshalWithParams encodes w and merges params.
func marshalWithParams(w *wireRequest, params map[string]any) ([]byte, error) {
	body, err := json.Marshal(w)
	if err != nil || len(params) == 0 {
		return body, err
	}
	var merged map[string]json.RawMessage
	if err := json.Unmarshal(body, &merged); err != nil {
		return nil, err
	}
	for k, v := range params {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("request_params.%s: %w", k, err)
		}
		merged[k] = b
	}
	return json.Marshal(merged)
}

// post sends a chat request and returns the open response, or a
// classified error for transport failures and non-2xx answers.
func (p *Provider) post(ctx context.Context, b *jsonbody.Body, accept string) (*http.Response, error) {
	return p.postTo(ctx, p.opts.BasePath, b, accept)
}

func (p *Provider) postTo(ctx context.Context, path string, b *jsonbody.Body, accept string) (*http.Response, error) {
	resp, err := p.transport.do(ctx, http.MethodPost, path, b, accept)
	return p.checkResponse(ctx, resp, err)
}

func (p *Provider) checkResponse(ctx context.Context, resp *http.Response, err error) (*http.Response, error) {
	if resp != nil && resp.StatusCode >= 400 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		e := provider.ClassifyHTTP(p.opts.Metadata.Name, resp.StatusCode, b, resp.Header)
		p.opts.Logger.Warn("provider request failed", "provider", e.Provider, "status", e.StatusCode, "kind", e.Kind.String())
		return nil, e.Redact(p.opts.APIKey)
	}
	if err != nil {
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, p.redact(&provider.Error{Kind: provider.KindNetwork, Provider: p.opts.Metadata.Name, Err: err})
	}
	if resp == nil {
		return nil, &provider.Error{Kind: provider.KindServer, Provider: p.opts.Metadata.Name, Message: "no response"}
	}
	return resp, nil
}

// redact removes the API key from any error text.
func (p *Provider) redact(err error) error {
	var pe *provider.Error
	if errors.As(err, &pe) {
		pe.Redact(p.opts.APIKey)
	}
	return err
}

// FetchModels lists the service's models (GET …/models), sorted.
func (p *Provider) FetchModels(ctx context.Context) ([]string, error) {
	resp, err := p.transport.do(ctx, http.MethodGet, ModelsPath(p.opts.BasePath), nil, "application/json")
	resp, err = p.checkResponse(ctx, resp, err)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err == nil {
		err = json.NewDecoder(bytes.NewReader(b)).Decode(&list)
	}
	if err != nil || list.Data == nil {
		return nil, &provider.Error{Kind: provider.KindServer, Provider: p.opts.Metadata.Name,
			Message: "Missing data field in JSON response"}
	}
	out := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		out = append(out, m.ID)
	}
	slices.Sort(out)
	return out, nil
}

// ModelsPath derives the model-listing path from a base path, as goose's
// map_base_path does: "…/chat/completions" or "…/responses" → "…/models",
// anything else "v1/models".
func ModelsPath(basePath string) string {
	return mapBasePath(basePath, "models", "v1/models")
}
