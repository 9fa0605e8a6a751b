package openai

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
)

// transport sends the provider's HTTP requests: base URL resolution,
// credentials, the configured headers and query, and a timeout that
// bounds the whole exchange (reading a stream included). It is plain
// net/http: an SDK here only cost start-up time and binary size.
type transport struct {
	base    *url.URL
	opts    *Options
	client  *http.Client
	timeout time.Duration
}

func newTransport(o *Options) (*transport, error) {
	base, err := url.Parse(strings.TrimRight(o.Host, "/") + "/")
	if err != nil {
		return nil, fmt.Errorf("%s: host %q: %w", o.Metadata.Name, o.Host, err)
	}
	return &transport{base: base, opts: o, client: o.HTTPClient, timeout: o.Timeout}, nil
}

// url resolves path under the host, keeping any prefix the host has
// ("/custom/x" under "https://h/proxy" is "https://h/proxy/custom/x"),
// and adds the configured query.
func (t *transport) url(path string) (string, error) {
	ref, err := url.Parse(strings.TrimLeft(path, "/"))
	if err != nil {
		return "", fmt.Errorf("base path %q: %w", path, err)
	}
	u := t.base.ResolveReference(ref)
	if len(t.opts.Query) > 0 {
		q := u.Query()
		for _, k := range sortedKeys(t.opts.Query) {
			q.Set(k, t.opts.Query[k])
		}
		u.RawQuery = q.Encode()
	}
	return u.String(), nil
}

// do sends one request. On success the response body, when closed, also
// releases the request's timeout.
func (t *transport) do(ctx context.Context, method, path string, b *jsonbody.Body, accept string) (*http.Response, error) {
	target, err := t.url(path)
	if err != nil {
		return nil, err
	}
	var cancel context.CancelFunc
	if t.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, t.timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, nil)
	if err != nil {
		cancel()
		return nil, err
	}
	if b != nil {
		req.Body, req.ContentLength = io.NopCloser(b.Reader()), b.Len()
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(b.Reader()), nil }
	}
	t.setHeaders(req.Header, accept, b != nil)
	resp, err := t.client.Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

func (t *transport) setHeaders(h http.Header, accept string, hasBody bool) {
	o := t.opts
	h.Set("Accept", accept)
	if hasBody {
		h.Set("Content-Type", "application/json")
	}
	switch {
	case o.APIKey != "" && o.APIKeyHeader != "":
		h.Set(o.APIKeyHeader, o.APIKey)
	case o.APIKey != "":
		h.Set("Authorization", "Bearer "+o.APIKey)
	}
	if o.Organization != "" {
		h.Set("OpenAI-Organization", o.Organization)
	}
	if o.Project != "" {
		h.Set("OpenAI-Project", o.Project)
	}
	for _, k := range sortedKeys(o.Headers) {
		h.Set(k, o.Headers[k])
	}
}

// cancelOnClose ends the request's context once the caller is done with
// the body.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}
