package anthropic

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// apiVersion is the anthropic-version header every request carries (the
// value anthropic-sdk-go sent).
const apiVersion = "2023-06-01"

// maxErrorBody bounds how much of a failed answer is read for its message.
const maxErrorBody = 1 << 20

// apiBase parses ANTHROPIC_HOST as anthropic-sdk-go did: a base path gets
// a trailing slash, so that the relative endpoint paths resolve under it
// ("https://host/prefix" and "https://host/prefix/" both lead to
// "https://host/prefix/v1/…", a bare host to "https://host/v1/…").
func apiBase(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if u.Path != "" && !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u, nil
}

// endpoint is the URL of the relative path under base, with query.
func endpoint(base *url.URL, path, query string) string {
	return base.ResolveReference(&url.URL{Path: path, RawQuery: query}).String()
}

// send makes one request (no retries: provider.WithRetry owns them) and
// returns the response of a 2xx answer, whose body the caller closes.
// Transport failures and other statuses come back as classified errors
// with the API key redacted.
func (p *Provider) send(ctx context.Context, method, target string, body *jsonbody.Body, accept string, betas []string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, target, nil)
	if err != nil {
		return nil, p.networkError(ctx, err)
	}
	if body != nil {
		req.Body, req.ContentLength = io.NopCloser(body.Reader()), body.Len()
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(body.Reader()), nil }
	}
	h := req.Header
	h.Set("Accept", accept)
	h.Set("Anthropic-Version", apiVersion)
	h.Set("X-Api-Key", p.opts.APIKey)
	for k, v := range p.opts.Headers {
		h.Set(k, v)
	}
	if body != nil {
		h.Set("Content-Type", "application/json")
	}
	for _, b := range betas {
		h.Add("Anthropic-Beta", b)
	}
	resp, err := p.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, p.networkError(ctx, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, p.statusError(ctx, resp)
	}
	return resp, nil
}

// statusError classifies a non-2xx answer by its status, body and
// Retry-After headers, as goose does.
func (p *Provider) statusError(ctx context.Context, resp *http.Response) error {
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if err != nil {
		return p.networkError(ctx, fmt.Errorf("reading the %s answer: %w", resp.Status, err))
	}
	return provider.ClassifyHTTP(p.opts.Name, resp.StatusCode, raw, resp.Header).Redact(p.opts.APIKey)
}
