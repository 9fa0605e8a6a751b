package google

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"google.golang.org/genai"

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
	opts   Options
	client *genai.Client
	log    *slog.Logger
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
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	headers := http.Header{}
	for k, v := range opts.Headers {
		headers.Set(k, v)
	}
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:     opts.APIKey,
		Backend:    genai.BackendGeminiAPI,
		HTTPClient: withRetryAfterCapture(opts.HTTPClient),
		HTTPOptions: genai.HTTPOptions{
			BaseURL:    strings.TrimSuffix(opts.BaseURL, "/") + "/",
			APIVersion: "v1beta",
			Headers:    headers,
		},
	})
	if err != nil {
		return nil, fmt.Errorf("google: %w", redactErr(err, opts.APIKey))
	}
	return &Provider{opts: opts, client: client, log: log}, nil
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
		contents, err := formatMessages(req.Messages)
		if err != nil {
			yield(provider.Chunk{}, fmt.Errorf("google: %w", err))
			return
		}
		p.log.Debug("gemini request", "model", cfg.ModelName, "messages", len(req.Messages), "tools", len(req.Tools))
		g := &guardedYield{yield: yield}
		defer g.recoverSDKPanic(p)
		p.stream(ctx, cfg.ModelName, contents, generateConfig(cfg, req), g.call)
	}
}

// Complete streams req and returns the whole reply as one message.
func (p *Provider) Complete(ctx context.Context, req provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	return provider.Collect(ctx, p, req)
}

// FetchModels lists the model names (without the "models/" prefix),
// sorted.
func (p *Provider) FetchModels(ctx context.Context) ([]string, error) {
	ctx, hint := withRetryAfterHint(ctx)
	var out []string
	page, err := p.client.Models.List(ctx, &genai.ListModelsConfig{PageSize: 1000})
	for {
		if err != nil {
			if errors.Is(err, genai.ErrPageDone) {
				break
			}
			return nil, p.classify(ctx, err, hint)
		}
		for _, m := range page.Items {
			out = append(out, strings.TrimPrefix(m.Name, "models/"))
		}
		if page.NextPageToken == "" {
			break
		}
		page, err = page.Next(ctx)
	}
	slices.Sort(out)
	return out, nil
}
