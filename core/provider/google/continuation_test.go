package google

import (
	"context"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// hop is one streamed chunk with a text part and, optionally, a finish
// reason, a continuation token and usage.
func hop(text, finish, token, usage string) string {
	c := `{"candidates":[{"content":{"parts":[{"text":"` + text + `"}],"role":"model"}`
	if finish != "" {
		c += `,"finishReason":"` + finish + `"`
	}
	if token != "" {
		c += `,"continuationToken":"` + token + `"`
	}
	c += `}]`
	if usage != "" {
		c += `,"usageMetadata":` + usage
	}
	return c + `,"modelVersion":"gemini-x"}`
}

const (
	usage1 = `{"promptTokenCount":10,"candidatesTokenCount":4,"totalTokenCount":14}`
	usage2 = `{"promptTokenCount":12,"candidatesTokenCount":3,"totalTokenCount":15}`
	token1 = "dG9rMQ=="
	token2 = "dG9rMg=="
)

// Long decode: a reply that stops with a continuation token is resumed by
// resending the same request with the token, as genai did; the parts of
// every hop form one message and usage is summed over hops.
func TestContinuation(t *testing.T) {
	tests := []struct {
		name    string
		replies []reply
		tokens  []string // continuationToken of each request sent
		texts   string
		usage   string
		err     string
	}{
		{"CONTINUATION finish reason", []reply{
			{body: events(hop("a", "", "", usage1), hop("b", "CONTINUATION", token1, usage1))},
			{body: events(hop("c", "", "", usage2), hop("d", "STOP", "", usage2))}},
			[]string{"", token1}, "abcd", `{"input_tokens":22,"output_tokens":7,"total_tokens":29}`, ""},
		{"a new token on every hop", []reply{
			{body: events(hop("a", "CONTINUATION", token1, usage1))},
			{body: events(hop("b", "CONTINUATION", token2, usage2))},
			{body: events(hop("c", "STOP", "", usage2))}},
			[]string{"", token1, token2}, "abc", `{"input_tokens":34,"output_tokens":10,"total_tokens":44}`, ""},
		{"clean close after a checkpoint", []reply{
			{body: events(hop("a", "", token1, usage1))},
			{body: events(hop("b", "STOP", "", usage2))}},
			[]string{"", token1}, "ab", `{"input_tokens":22,"output_tokens":7,"total_tokens":29}`, ""},
		{"dropped connection after a checkpoint", []reply{
			{body: events(hop("a", "", token1, usage1)), cut: true},
			{body: events(hop("b", "STOP", "", usage2))}},
			[]string{"", token1}, "ab", `{"input_tokens":22,"output_tokens":7,"total_tokens":29}`, ""},
		{"an empty hop is retried from the same token", []reply{
			{body: events(hop("a", "", token1, usage1))},
			{},
			{body: events(hop("b", "STOP", "", usage2))}},
			[]string{"", token1, token1}, "ab", `{"input_tokens":22,"output_tokens":7,"total_tokens":29}`, ""},
		{"three reconnects without progress, then the last error", []reply{
			{body: events(hop("a", "", token1, usage1))}, {}, {cut: true}, {}, {}},
			[]string{"", token1, token1, token1, token1}, "a", "", "unexpected EOF"},
		{"MAX_TOKENS is final even with a token", []reply{
			{body: events(hop("a", "MAX_TOKENS", token1, usage1))}},
			[]string{""}, "a", `{"input_tokens":10,"output_tokens":4,"total_tokens":14}`, ""},
		{"prompt feedback is final", []reply{
			{body: events(`{"promptFeedback":{"blockReason":"OTHER"},"candidates":[{"content":{"parts":[{"text":"a"}]},"finishReason":"CONTINUATION","continuationToken":"` + token1 + `"}]}`)}},
			[]string{""}, "a", "", ""},
		{"a rejected resume is reported", []reply{
			{body: events(hop("a", "CONTINUATION", token1, usage1))},
			{status: 500, body: `{"error":{"code":500,"message":"down"}}`}},
			[]string{"", token1}, "a", "", "Server error (500 Internal Server Error): down"},
		{"a drop without a checkpoint is an error", []reply{
			{body: events(hop("a", "", "", usage1)), cut: true}},
			[]string{""}, "a", "", "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, requests := rawServer(t, tt.replies...)
			chunks, err := providertest.Drain(rawProvider(t, srv, "gemini-2.5-flash"), providertest.UserRequest("x"))
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("err = %v, want %q", err, tt.err)
			}
			var texts strings.Builder
			var usage *provider.ProviderUsage
			for _, c := range chunks {
				if c.Message != nil {
					texts.WriteString(c.Message.AsText())
				}
				if c.Usage != nil {
					usage = c.Usage
				}
			}
			if texts.String() != tt.texts {
				t.Errorf("texts = %q, want %q", texts.String(), tt.texts)
			}
			if got := usageJSON(t, usage); got != tt.usage {
				t.Errorf("usage = %s, want %s", got, tt.usage)
			}
			reqs := requests()
			if len(reqs) != len(tt.tokens) {
				t.Fatalf("%d requests, want %d", len(reqs), len(tt.tokens))
			}
			for i, r := range reqs {
				want := `{"contents":[{"parts":[{"text":"x"}],"role":"user"}],"generationConfig":{},"systemInstruction":{"parts":[{"text":"You are goose."}],"role":"user"}}` + "\n"
				if tt.tokens[i] != "" {
					want = strings.Replace(want, `,"generationConfig"`, `,"continuationToken":"`+tt.tokens[i]+`","generationConfig"`, 1)
				}
				if r.Body != want {
					t.Errorf("request %d body = %s, want %s", i, r.Body, want)
				}
			}
		})
	}
}

func usageJSON(t *testing.T, u *provider.ProviderUsage) string {
	if u == nil {
		return ""
	}
	return providertest.MustJSON(t, u.Usage)
}

// A caller that stops reading ends the run: no further hop is requested.
func TestContinuationStopsWithTheConsumer(t *testing.T) {
	srv, requests := rawServer(t,
		reply{body: events(hop("a", "CONTINUATION", token1, usage1))},
		reply{body: events(hop("b", "STOP", "", usage2))})
	for range rawProvider(t, srv, "gemini-2.5-flash").Stream(context.Background(), providertest.UserRequest("x")) {
		break
	}
	if n := len(requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
