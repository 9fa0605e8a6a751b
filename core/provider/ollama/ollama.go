package ollama

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// Options configure a Provider; every zero value is usable.
type Options struct {
	// BaseURL is the server, e.g. from HostURL(OLLAMA_HOST); empty means
	// http://localhost:11434.
	BaseURL string
	// Model is the model configuration; an empty ModelName means
	// DefaultModel.
	Model model.Config
	// HTTPClient sends the requests; nil means a plain client.
	HTTPClient *http.Client
	// Timeout bounds a whole request, stream included (OLLAMA_TIMEOUT);
	// 0 means DefaultTimeout seconds.
	Timeout time.Duration
	// Logger receives debug logs; nil discards them.
	Logger *slog.Logger
	// Param looks up a goose setting (env first, then config.yaml), here
	// GOOSE_INPUT_LIMIT; nil means os.LookupEnv.
	Param func(key string) (string, bool)
	// Now stamps created times; nil means time.Now.
	Now func() time.Time
	// NewID makes message and tool-call ids; nil means random UUIDs.
	NewID func() string
	// Name overrides the provider name (declarative providers); empty
	// means "ollama".
	Name string
	// Headers are extra request headers (declarative providers).
	Headers map[string]string
}

// Provider talks to an Ollama server's native API.
type Provider struct {
	opts Options
	log  *slog.Logger
}

var _ provider.Provider = (*Provider)(nil)

// New returns a Provider for opts.
func New(opts Options) (*Provider, error) {
	if opts.BaseURL == "" {
		opts.BaseURL, _ = HostURL(DefaultHost)
	}
	opts.BaseURL = strings.TrimSuffix(opts.BaseURL, "/")
	if !strings.HasPrefix(opts.BaseURL, "http://") && !strings.HasPrefix(opts.BaseURL, "https://") {
		return nil, fmt.Errorf("ollama: base URL %q must start with http:// or https://", opts.BaseURL)
	}
	if opts.Model.ModelName == "" {
		opts.Model.ModelName = DefaultModel
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout * time.Second
	}
	if opts.Param == nil {
		opts.Param = os.LookupEnv
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
	return &Provider{opts: opts, log: log}, nil
}

// Metadata returns goose's ollama metadata.
func (p *Provider) Metadata() provider.Metadata {
	md := Metadata()
	md.Name = p.opts.Name
	return md
}

// ModelConfig returns the configured model.
func (p *Provider) ModelConfig() model.Config { return p.opts.Model }

// Stream posts to /api/chat and yields the reply as NDJSON lines arrive.
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		cfg := p.opts.Model
		if req.Model != nil {
			cfg = *req.Model
		}
		body, err := marshalRequest(p.chatRequest(cfg, req))
		if err != nil {
			yield(provider.Chunk{}, fmt.Errorf("ollama: encoding request: %w", err))
			return
		}
		ctx, cancel := context.WithTimeoutCause(ctx, p.opts.Timeout, errTimeout)
		defer cancel()
		resp, err := p.do(ctx, http.MethodPost, "/api/chat", body)
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		defer resp.Body.Close()
		p.log.Debug("ollama chat", "model", cfg.ModelName, "messages", len(req.Messages), "tools", len(req.Tools))
		p.readStream(ctx, resp.Body, yield)
	}
}

// Complete streams req and returns the whole reply as one message.
func (p *Provider) Complete(ctx context.Context, req provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	return provider.Collect(ctx, p, req)
}

// FetchModels lists the models pulled on the server (/api/tags), sorted.
func (p *Provider) FetchModels(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, p.opts.Timeout, errTimeout)
	defer cancel()
	resp, err := p.do(ctx, http.MethodGet, "/api/tags", nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var tags struct {
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tags); err != nil {
		return nil, p.errorf(provider.KindServer, fmt.Errorf("decoding /api/tags: %w", err))
	}
	out := make([]string, 0, len(tags.Models))
	for _, m := range tags.Models {
		out = append(out, m.Name)
	}
	slices.Sort(out)
	return out, nil
}

// do sends one request and classifies transport failures and error
// statuses.
func (p *Provider) do(ctx context.Context, method, path string, body *jsonbody.Body) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, p.opts.BaseURL+path, nil)
	if err != nil {
		return nil, fmt.Errorf("ollama: %w", err)
	}
	if body != nil {
		req.Body, req.ContentLength = io.NopCloser(body.Reader()), body.Len()
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(body.Reader()), nil }
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/x-ndjson")
	for k, v := range p.opts.Headers {
		req.Header.Set(k, v)
	}
	resp, err := p.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, p.transportError(ctx, err)
	}
	if resp.StatusCode >= 300 {
		defer resp.Body.Close()
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return nil, provider.ClassifyHTTP(p.opts.Name, resp.StatusCode, normalizeErrorBody(raw), resp.Header)
	}
	return resp, nil
}

// normalizeErrorBody turns Ollama's {"error":"text"} into the
// {"error":{"message":…}} shape provider.ErrorMessage reads.
func normalizeErrorBody(raw []byte) []byte {
	var v struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(raw, &v) != nil || v.Error == "" {
		return raw
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"message": v.Error}})
	return b
}

// errTimeout is the cancel cause of a request that outlived Timeout.
var errTimeout = errors.New("OLLAMA_TIMEOUT reached")

// transportError returns the caller's cancellation as is and anything
// else (our own timeout included) as a network error.
func (p *Provider) transportError(ctx context.Context, err error) error {
	switch cause := context.Cause(ctx); {
	case cause == nil:
		return p.errorf(provider.KindNetwork, err)
	case errors.Is(cause, errTimeout):
		return p.errorf(provider.KindNetwork, fmt.Errorf("request timed out after %s (OLLAMA_TIMEOUT)", p.opts.Timeout))
	}
	return ctx.Err()
}

func (p *Provider) errorf(kind provider.Kind, err error) error {
	return &provider.Error{Kind: kind, Provider: p.opts.Name, Message: err.Error(), Err: err}
}
