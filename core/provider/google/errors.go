package google

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/provider"
)

// malformedError is an answer that does not decode: a stream event that
// is no response chunk ("stream chunk") or a bad model list. call is set
// when the chunk holds a function call, whose arguments are then what did
// not decode.
type malformedError struct {
	what string
	err  error
	call bool
}

func (e *malformedError) Error() string { return "invalid " + e.what + ": " + e.err.Error() }
func (e *malformedError) Unwrap() error { return e.err }

const streamChunk = "stream chunk"

// classify turns a failed call into a *provider.Error with the key
// redacted; the caller's cancellation is returned as is. Failed answers
// are classified by their HTTP status (by the error's code for an error
// inside the stream, and without one as goose classifies stream errors);
// undecodable answers are server errors, everything else is the network.
func (p *Provider) classify(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var f *failure
	if errors.As(err, &f) {
		return p.classifyFailure(f)
	}
	var bad *malformedError
	if errors.As(err, &bad) {
		return p.errorf(provider.KindServer, err)
	}
	return p.errorf(provider.KindNetwork, err)
}

func (p *Provider) classifyFailure(f *failure) error {
	var e *provider.Error
	switch {
	case f.status != 0:
		e = provider.ClassifyHTTP(p.opts.Name, f.status, f.body, f.header)
	case f.api.Code != 0:
		e = provider.ClassifyHTTP(p.opts.Name, f.api.Code, f.body, nil)
	default:
		e = provider.ClassifyStreamError(p.opts.Name, f.body)
	}
	if e.RetryAfter == 0 {
		e.RetryAfter = retryDelay(f.api.Details)
	}
	e.Err = f
	return e.Redact(p.opts.APIKey)
}

func (p *Provider) errorf(kind provider.Kind, err error) error {
	e := &provider.Error{Kind: kind, Provider: p.opts.Name, Message: err.Error(), Err: err}
	return e.Redact(p.opts.APIKey)
}

// retryDelay reads google.rpc.RetryInfo's retryDelay ("37s") from error
// details, which is how Gemini says when to retry a 429.
func retryDelay(details []map[string]any) time.Duration {
	for _, d := range details {
		if t, _ := d["@type"].(string); !strings.HasSuffix(t, "google.rpc.RetryInfo") {
			continue
		}
		if s, ok := d["retryDelay"].(string); ok {
			if dur, err := time.ParseDuration(s); err == nil {
				return dur
			}
		}
	}
	return 0
}

// errStopped ends a hop whose consumer stopped reading.
var errStopped = errors.New("google: stream consumer stopped")

// malformedCallText is the tool request error for a call whose
// arguments did not decode.
func malformedCallText(id string, err error) string {
	return fmt.Sprintf("Could not interpret tool use parameters for id %s: %v", id, err)
}
