package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/goose-acp/goose-acp/core/provider"
)

// classify turns a transport or API error into a *provider.Error with the
// API key redacted. A cancelled ctx is returned as ctx.Err(), so callers
// (and provider.IdleTimeout) see the cancellation itself.
func (p *Provider) classify(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) {
		return p.errorf(provider.KindNetwork, err)
	}
	raw := []byte(apiErr.RawJSON())
	var e *provider.Error
	if apiErr.StatusCode != http.StatusOK {
		var header http.Header
		if apiErr.Response != nil {
			header = apiErr.Response.Header
		}
		e = provider.ClassifyHTTP(p.opts.Name, apiErr.StatusCode, raw, header)
	} else {
		// An "error" event inside a 200 stream: classify by its type.
		e = &provider.Error{Kind: streamErrorKind(apiErr), Provider: p.opts.Name, Message: provider.ErrorMessage(raw)}
	}
	e.Err = apiErr
	return e.Redact(p.opts.APIKey)
}

func (p *Provider) errorf(kind provider.Kind, err error) error {
	e := &provider.Error{Kind: kind, Provider: p.opts.Name, Message: err.Error(), Err: err}
	return e.Redact(p.opts.APIKey)
}

// streamErrorKind maps Anthropic error types sent as stream events.
func streamErrorKind(e *sdk.Error) provider.Kind {
	typ := string(e.Type())
	if typ == "" {
		var body struct {
			Error struct {
				Type string `json:"type"`
			} `json:"error"`
		}
		_ = json.Unmarshal([]byte(e.RawJSON()), &body)
		typ = body.Error.Type
	}
	switch typ {
	case "rate_limit_error":
		return provider.KindRateLimit
	case "authentication_error", "permission_error":
		return provider.KindAuth
	case "billing_error":
		return provider.KindCreditsExhausted
	case "invalid_request_error", "request_too_large":
		if provider.LooksLikeContextLength(e.RawJSON()) || strings.Contains(typ, "too_large") {
			return provider.KindContextLength
		}
		return provider.KindRequest
	}
	return provider.KindServer
}
