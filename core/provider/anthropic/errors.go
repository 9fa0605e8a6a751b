package anthropic

import (
	"context"
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/provider"
)

// networkError reports a failed exchange (no answer, or a body that could
// not be read) as KindNetwork with the API key redacted. A cancelled ctx
// is returned as ctx.Err(), so callers (and provider.IdleTimeout) see the
// cancellation itself.
func (p *Provider) networkError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return p.errorf(provider.KindNetwork, err)
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
