package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// Name is the provider name goose uses.
const Name = "anthropic"

// DefaultHost is ANTHROPIC_HOST's default.
const DefaultHost = "https://api.anthropic.com"

// Options configure a Provider. The zero value of each field is usable
// except APIKey, which is required.
type Options struct {
	// BaseURL is ANTHROPIC_HOST; empty means DefaultHost.
	BaseURL string
	// APIKey is ANTHROPIC_API_KEY. It is sent only as x-api-key and never
	// appears in logs or errors.
	APIKey string
	// Model is the model configuration; an empty ModelName means
	// DefaultModel.
	Model model.Config
	// HTTPClient sends the requests; nil means a client without a timeout
	// (streams are bounded by ctx; wrap the provider in
	// provider.IdleTimeout to fail silent streams).
	HTTPClient *http.Client
	// Logger receives debug logs; nil discards them.
	Logger *slog.Logger
	// Param looks up a goose setting (env first, then config.yaml) such as
	// CLAUDE_THINKING_BUDGET; nil means os.LookupEnv.
	Param func(key string) (string, bool)
	// Now stamps created times; nil means time.Now.
	Now func() time.Time
	// Name overrides the provider name reported in errors and metadata
	// (declarative providers built on this engine); empty means "anthropic".
	Name string
	// Headers are extra request headers (declarative providers).
	Headers map[string]string
}

// Provider talks to the Anthropic Messages API.
type Provider struct {
	opts        Options
	messagesURL string
	modelsURL   string
	log         *slog.Logger
}

var _ provider.Provider = (*Provider)(nil)

// ErrMissingAPIKey is returned by New when no API key is configured.
var ErrMissingAPIKey = errors.New("anthropic: ANTHROPIC_API_KEY is not set")

// New returns a Provider for opts.
func New(opts Options) (*Provider, error) {
	if opts.APIKey == "" {
		return nil, ErrMissingAPIKey
	}
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultHost
	}
	base, err := apiBase(opts.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("anthropic: invalid ANTHROPIC_HOST %q: %w", opts.BaseURL, err)
	}
	if opts.Model.ModelName == "" {
		opts.Model.ModelName = DefaultModel
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{}
	}
	if opts.Param == nil {
		opts.Param = os.LookupEnv
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Name == "" {
		opts.Name = Name
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Provider{
		opts:        opts,
		messagesURL: endpoint(base, "v1/messages", ""),
		modelsURL:   endpoint(base, "v1/models", "limit=1000"),
		log:         log,
	}, nil
}

// Metadata returns goose's anthropic metadata.
func (p *Provider) Metadata() provider.Metadata {
	md := Metadata()
	md.Name = p.opts.Name
	return md
}

// ModelConfig returns the configured model.
func (p *Provider) ModelConfig() model.Config { return p.opts.Model }

// Stream sends req and yields the reply as it arrives.
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		cfg := p.opts.Model
		if req.Model != nil {
			cfg = *req.Model
		}
		body := p.requestBody(cfg, req)
		p.log.Debug("anthropic request", "model", cfg.ModelName, "messages", len(req.Messages), "tools", len(req.Tools))
		p.stream(ctx, cfg, body, yield)
	}
}

// Complete streams req and returns the whole reply as one message.
func (p *Provider) Complete(ctx context.Context, req provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	return provider.Collect(ctx, p, req)
}

// FetchModels lists the model ids the account can use, sorted.
func (p *Provider) FetchModels(ctx context.Context) ([]string, error) {
	resp, err := p.send(ctx, http.MethodGet, p.modelsURL, nil, "application/json", nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var page struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
		return nil, p.networkError(ctx, fmt.Errorf("decoding the model list: %w", err))
	}
	out := make([]string, 0, len(page.Data))
	for _, m := range page.Data {
		out = append(out, m.ID)
	}
	slices.Sort(out)
	return out, nil
}

// betaHeaders are the anthropic-beta headers goose adds for
// claude-3-7-sonnet models.
func betaHeaders(cfg model.Config, thinkingEnabled bool) []string {
	if !strings.HasPrefix(cfg.ModelName, "claude-3-7-sonnet-") {
		return nil
	}
	var out []string
	if thinkingEnabled {
		out = append(out, "output-128k-2025-02-19")
	}
	return append(out, "token-efficient-tools-2025-02-19")
}
