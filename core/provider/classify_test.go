package provider

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestClassifyHTTP(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		kind   Kind
		msg    string
	}{
		{401, `{"error":{"message":"Incorrect API key provided"}}`, KindAuth, "Authentication failed. Status: 401 Unauthorized. Response: Incorrect API key provided"},
		{403, `{"message":"forbidden"}`, KindAuth, "Authentication failed. Status: 403 Forbidden. Response: forbidden"},
		{402, `{"error":{"message":"no credits"}}`, KindCreditsExhausted, "no credits"},
		{404, `{"error":{"message":"model not found"}}`, KindRequest, "Resource not found (404): model not found"},
		{413, `request too big`, KindContextLength, "request too big"},
		{400, `{"error":{"message":"This model's maximum context length is 128000 tokens. Please reduce the length of the messages.","code":"context_length_exceeded"}}`,
			KindContextLength, "This model's maximum context length is 128000 tokens. Please reduce the length of the messages."},
		{400, `{"error":{"message":"prompt is too long: 214850 tokens > 200000 maximum"}}`, KindContextLength, "prompt is too long: 214850 tokens > 200000 maximum"},
		{400, `{"error":{"message":"bad tool schema"}}`, KindRequest, "Bad request (400): bad tool schema"},
		{429, `{"error":{"message":"Rate limit reached"}}`, KindRateLimit, "Rate limit reached"},
		{500, `{"error":{"message":"boom"}}`, KindServer, "Server error (500 Internal Server Error): boom"},
		{503, ``, KindServer, "Server error (503 Service Unavailable): "},
		{418, `teapot`, KindRequest, "Request failed with status 418 I'm a teapot: teapot"},
	} {
		e := ClassifyHTTP("openai", tc.status, []byte(tc.body), nil)
		if e.Kind != tc.kind || e.Message != tc.msg || e.StatusCode != tc.status {
			t.Errorf("%d %s: got kind %v msg %q", tc.status, tc.body, e.Kind, e.Message)
		}
	}
}

func TestErrorString(t *testing.T) {
	e := ClassifyHTTP("openai", 400, []byte(`{"error":{"message":"context length exceeded"}}`), nil)
	if got := e.Error(); got != "openai: context length exceeded (status 400): context length exceeded" {
		t.Fatal(got)
	}
	if !IsContextLength(e) {
		t.Fatal("IsContextLength")
	}
}

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond},
		{http.Header{"Retry-After": {now.Add(5 * time.Second).Format(http.TimeFormat)}}, 5 * time.Second},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{nil, 0},
	} {
		if got := RetryAfter(tc.h, now); got != tc.want {
			t.Errorf("%v: got %v want %v", tc.h, got, tc.want)
		}
	}
	e := ClassifyHTTP("x", 429, nil, http.Header{"Retry-After": {"3"}})
	if e.RetryAfter != 3*time.Second {
		t.Fatalf("429 Retry-After not kept: %v", e.RetryAfter)
	}
}

func TestClassifyStreamError(t *testing.T) {
	e := ClassifyStreamError("p", []byte(`{"error":{"message":"overloaded","code":"server_error"}}`))
	if e.Kind != KindServer || e.Message != "overloaded" {
		t.Fatalf("%+v", e)
	}
	e = ClassifyStreamError("p", []byte(`{"error":{"message":"too many tokens","code":"context_length_exceeded"}}`))
	if e.Kind != KindContextLength {
		t.Fatalf("%+v", e)
	}
}

func TestRedactHidesSecrets(t *testing.T) {
	secret := "sk-verysecretkey123"
	inner := errors.New("dial https://x?key=" + secret)
	e := (&Error{Kind: KindAuth, Provider: "p", Message: "Incorrect API key provided: " + secret, Err: inner}).Redact(secret)
	if strings.Contains(e.Error(), secret) || strings.Contains(e.Err.Error(), secret) || !errors.Is(e, inner) {
		t.Fatalf("secret leaked or chain broken: %v / %v", e, e.Err)
	}
	if !strings.Contains(e.Error(), "[REDACTED]") {
		t.Fatal(e.Error())
	}
}
