package provider

import (
	"errors"
	"fmt"
	"time"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// Kind classifies a provider failure so the agent loop can act on it.
type Kind int

const (
	KindUnknown Kind = iota
	// KindAuth: bad or missing credentials (401/403).
	KindAuth
	// KindContextLength: the request exceeds the model's context window;
	// the agent compacts and retries.
	KindContextLength
	// KindRateLimit: 429 after retries ran out.
	KindRateLimit
	// KindServer: 5xx or a malformed response from the service.
	KindServer
	// KindNetwork: connection failures, resets, a stream cut mid-way or idle.
	KindNetwork
	// KindRequest: a 4xx the service rejected for another reason.
	KindRequest
	// KindCreditsExhausted: the account has no credits (402).
	KindCreditsExhausted
	// KindRefusal: the model refused to answer (Anthropic's
	// stop_reason "refusal"); the turn ends with a refusal, not an error.
	KindRefusal
)

func (k Kind) String() string {
	switch k {
	case KindAuth:
		return "authentication error"
	case KindContextLength:
		return "context length exceeded"
	case KindRateLimit:
		return "rate limit exceeded"
	case KindServer:
		return "server error"
	case KindNetwork:
		return "network error"
	case KindRequest:
		return "request failed"
	case KindCreditsExhausted:
		return "credits exhausted"
	case KindRefusal:
		return "refusal"
	}
	return "provider error"
}

// Error is a classified provider failure. Message never contains secrets.
type Error struct {
	Kind       Kind
	Provider   string
	StatusCode int
	Message    string
	// RetryAfter is the server's Retry-After hint, if any.
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if e.StatusCode != 0 {
		return fmt.Sprintf("%s: %s (status %d): %s", e.Provider, e.Kind, e.StatusCode, msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.Provider, e.Kind, msg)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrorKind is AuthRequired for a rejected key, else the kind of the
// error it wraps: faces answer other provider failures as internal.
func (e *Error) ErrorKind() errkind.Kind {
	if e.Kind == KindAuth {
		return errkind.AuthRequired
	}
	return errkind.Of(e.Err)
}

// KindOf returns the classification of err, or KindUnknown.
func KindOf(err error) Kind {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return KindUnknown
}

// IsContextLength reports whether err means the context window overflowed.
func IsContextLength(err error) bool { return KindOf(err) == KindContextLength }

func asError(err error) (*Error, bool) {
	var pe *Error
	ok := errors.As(err, &pe)
	return pe, ok
}
