package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// contextLengthPhrases are goose's markers of a context-window overflow in
// a 400 error message (providers/utils.rs check_context_length_exceeded).
var contextLengthPhrases = []string{
	"too long",
	"context length",
	"context_length_exceeded",
	"reduce the length",
	"token count",
	"exceeds",
	"exceed context limit",
	"input length",
	"max_tokens",
	"decrease input length",
	"context limit",
	"maximum prompt length",
}

// LooksLikeContextLength reports whether an error message says the
// request overflowed the context window, by goose's phrase list.
func LooksLikeContextLength(msg string) bool {
	lower := strings.ToLower(msg)
	for _, p := range contextLengthPhrases {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

// ClassifyHTTP turns a failed HTTP answer into a typed Error with goose's
// messages (map_http_error_to_provider_error): 401/403 auth, 402 credits,
// 404 and other 4xx request, 413 and context-worded 400 context length,
// 429 rate limit (with Retry-After), 5xx server.
func ClassifyHTTP(provider string, status int, body []byte, header http.Header) *Error {
	msg := ErrorMessage(body)
	e := &Error{Provider: provider, StatusCode: status}
	st := statusText(status)
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		e.Kind = KindAuth
		e.Message = fmt.Sprintf("Authentication failed. Status: %s. Response: %s", st, msg)
	case status == http.StatusNotFound:
		e.Kind = KindRequest
		e.Message = "Resource not found (404): " + msg
	case status == http.StatusPaymentRequired:
		e.Kind, e.Message = KindCreditsExhausted, msg
	case status == http.StatusRequestEntityTooLarge:
		e.Kind, e.Message = KindContextLength, msg
	case status == http.StatusBadRequest && LooksLikeContextLength(msg):
		e.Kind, e.Message = KindContextLength, msg
	case status == http.StatusBadRequest:
		e.Kind = KindRequest
		e.Message = "Bad request (400): " + msg
	case status == http.StatusTooManyRequests:
		e.Kind, e.Message = KindRateLimit, msg
		e.RetryAfter = RetryAfter(header, time.Now())
	case status >= 500:
		e.Kind = KindServer
		e.Message = fmt.Sprintf("Server error (%s): %s", st, msg)
	default:
		e.Kind = KindRequest
		e.Message = fmt.Sprintf("Request failed with status %s: %s", st, msg)
	}
	return e
}

func statusText(status int) string {
	return strings.TrimSpace(strconv.Itoa(status) + " " + http.StatusText(status))
}

// ErrorMessage extracts error.message or message from a JSON error body;
// anything else is returned as trimmed text (cut to 1000 bytes).
func ErrorMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message *string         `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var inner struct {
			Message *string `json:"message"`
		}
		if len(v.Error) > 0 && json.Unmarshal(v.Error, &inner) == nil && inner.Message != nil {
			return *inner.Message
		}
		if v.Message != nil {
			return *v.Message
		}
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 1000 {
		s = s[:1000] + "…"
	}
	return s
}

// RetryAfter reads the server's wait hint: retry-after-ms, then
// Retry-After as seconds or an HTTP date. Zero means none.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// ClassifyStreamError classifies an error object sent inside a stream
// ({"error":{…}} or {"object":"error",…}); goose reports these as server
// errors, except an explicit context_length_exceeded code.
func ClassifyStreamError(provider string, data []byte) *Error {
	var v struct {
		Error struct {
			Code any `json:"code"`
		} `json:"error"`
		Code any `json:"code"`
	}
	_ = json.Unmarshal(data, &v)
	msg := ErrorMessage(data)
	if v.Error.Code == "context_length_exceeded" || v.Code == "context_length_exceeded" {
		return &Error{Kind: KindContextLength, Provider: provider, Message: msg}
	}
	return &Error{Kind: KindServer, Provider: provider, Message: msg}
}

// Redact replaces every non-empty secret in the error's text with
// "[REDACTED]", so keys echoed by a server never reach logs or the user.
func (e *Error) Redact(secrets ...string) *Error {
	for _, s := range secrets {
		if len(s) >= 4 {
			e.Message = strings.ReplaceAll(e.Message, s, "[REDACTED]")
		}
	}
	if e.Err != nil {
		msg := e.Err.Error()
		red := msg
		for _, s := range secrets {
			if len(s) >= 4 {
				red = strings.ReplaceAll(red, s, "[REDACTED]")
			}
		}
		if red != msg {
			if e.Message == "" {
				e.Message = red
			}
			e.Err = redactedErr{red, e.Err}
		}
	}
	return e
}

// redactedErr keeps the error chain for errors.Is while hiding the text.
type redactedErr struct {
	msg string
	err error
}

func (r redactedErr) Error() string { return r.msg }
func (r redactedErr) Unwrap() error { return r.err }
