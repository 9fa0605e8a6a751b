package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

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
	var header http.Header
	if apiErr.Response != nil {
		header = apiErr.Response.Header
	}
	e := provider.ClassifyHTTP(p.opts.Name, apiErr.StatusCode, []byte(apiErr.RawJSON()), header)
	e.Err = apiErr
	return e.Redact(p.opts.APIKey)
}

func (p *Provider) errorf(kind provider.Kind, err error) error {
	e := &provider.Error{Kind: kind, Provider: p.opts.Name, Message: err.Error(), Err: err}
	return e.Redact(p.opts.APIKey)
}

// streamError classifies an "error" event sent inside a 200 stream
// ({"type":"error","error":{"type":…,"message":…}}) by its error type.
func (p *Provider) streamError(data []byte) error {
	var body struct {
		Error struct {
			Type string `json:"type"`
		} `json:"error"`
	}
	_ = json.Unmarshal(data, &body)
	msg := provider.ErrorMessage(data)
	e := &provider.Error{Kind: streamErrorKind(body.Error.Type, msg), Provider: p.opts.Name, Message: msg}
	return e.Redact(p.opts.APIKey)
}

func streamErrorKind(typ, msg string) provider.Kind {
	switch typ {
	case "rate_limit_error":
		return provider.KindRateLimit
	case "authentication_error", "permission_error":
		return provider.KindAuth
	case "billing_error":
		return provider.KindCreditsExhausted
	case "request_too_large":
		return provider.KindContextLength
	case "invalid_request_error":
		if provider.LooksLikeContextLength(msg) {
			return provider.KindContextLength
		}
		return provider.KindRequest
	}
	return provider.KindServer
}
