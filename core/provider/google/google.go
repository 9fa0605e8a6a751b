package google

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"maps"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// Options configure a Provider. Every zero value is usable except APIKey.
type Options struct {
	// BaseURL is GOOGLE_HOST; empty means DefaultHost.
	BaseURL string
	// APIKey is GOOGLE_API_KEY, sent as x-goog-api-key; never logged and
	// redacted from errors.
	APIKey string
	// Model is the model configuration; an empty ModelName means
	// DefaultModel.
	Model model.Config
	// HTTPClient sends the requests; nil means a plain client.
	HTTPClient *http.Client
	// Logger receives debug logs; nil discards them.
	Logger *slog.Logger
	// Now stamps created times; nil means time.Now.
	Now func() time.Time
	// NewID makes message and function-call ids (Gemini sends none);
	// nil means random UUIDs.
	NewID func() string
	// Name overrides the provider name; empty means "google".
	Name string
	// Headers are extra request headers.
	Headers map[string]string
}

// Provider talks to the Gemini API.
type Provider struct {
	opts Options
	log  *slog.Logger
}

var _ provider.Provider = (*Provider)(nil)

// ErrMissingAPIKey is returned by New when no API key is configured.
var ErrMissingAPIKey = errors.New("google: GOOGLE_API_KEY is not set")

// New returns a Provider for opts.
func New(opts Options) (*Provider, error) {
	if opts.APIKey == "" {
		return nil, ErrMissingAPIKey
	}
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultHost
	}
	if opts.Model.ModelName == "" {
		opts.Model.ModelName = DefaultModel
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{}
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.NewID == nil {
		opts.NewID = func() string { return uuid.NewString() }
	}
	if opts.Name == "" {
		opts.Name = Name
	}
	opts.Headers = maps.Clone(opts.Headers)
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Provider{opts: opts, log: log}, nil
}

// Metadata returns goose's google metadata.
func (p *Provider) Metadata() provider.Metadata {
	md := Metadata()
	md.Name = p.opts.Name
	return md
}

// ModelConfig returns the configured model.
func (p *Provider) ModelConfig() model.Config { return p.opts.Model }

// Stream sends req to streamGenerateContent and yields the reply as it
// arrives.
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		cfg := p.opts.Model
		if req.Model != nil {
			cfg = *req.Model
		}
		body, err := buildRequest(cfg, req)
		if err != nil {
			yield(provider.Chunk{}, fmt.Errorf("google: %w", err))
			return
		}
		p.log.Debug("gemini request", "model", cfg.ModelName, "messages", len(req.Messages), "tools", len(req.Tools))
		p.stream(ctx, cfg.ModelName, body, yield)
	}
}

// Complete streams req and returns the whole reply as one message.
func (p *Provider) Complete(ctx context.Context, req provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	return provider.Collect(ctx, p, req)
}
