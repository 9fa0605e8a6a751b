package google

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// summary renders chunks compactly: "text:…", "thinking:…|sig",
// "call:id:name:args|sig", "callerr:id:message", "usage:model:in/out/total".
func summary(t *testing.T, chunks []provider.Chunk) string {
	t.Helper()
	var out []string
	for _, ch := range chunks {
		if ch.Message != nil {
			for _, c := range ch.Message.Content {
				switch {
				case c.Text != nil:
					out = append(out, "text:"+c.Text.Text)
				case c.Thinking != nil:
					out = append(out, "thinking:"+c.Thinking.Thinking+"|"+c.Thinking.Signature)
				case c.ToolRequest != nil && c.ToolRequest.ToolCall.IsOK():
					args, _ := json.Marshal(c.ToolRequest.ToolCall.Value.Arguments)
					sig, _ := c.ToolRequest.Metadata[thoughtSignatureKey].(string)
					out = append(out, fmt.Sprintf("call:%s:%s:%s|%s", c.ToolRequest.ID, c.ToolRequest.ToolCall.Value.Name, args, sig))
				case c.ToolRequest != nil:
					out = append(out, fmt.Sprintf("callerr:%s:%s", c.ToolRequest.ID, c.ToolRequest.ToolCall.Error))
				default:
					out = append(out, "other:"+providertest.MustJSON(t, c))
				}
			}
		}
		if u := ch.Usage; u != nil {
			out = append(out, fmt.Sprintf("usage:%s:%d/%d/%d", u.Model, *u.Usage.InputTokens, *u.Usage.OutputTokens, *u.Usage.TotalTokens))
		}
	}
	return strings.Join(out, " ; ")
}

const finalChunk = `{"candidates":[{"content":{"parts":[{"text":"ok"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":1,"totalTokenCount":6},"modelVersion":"gemini-x"}`

// matches reports whether got is pattern, where "…" matches any text.
func matches(got, pattern string) bool {
	parts := strings.Split(pattern, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(got)
}

type streamCase struct {
	name    string
	body    string
	want    string // summary of the chunks; "…" stands for any text
	wantErr *providertest.WantError
	retry   time.Duration
}

func runStreamCases(t *testing.T, tests []streamCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := rawServer(t, reply{body: tt.body})
			chunks, err := providertest.Drain(rawProvider(t, srv, "gemini-2.5-flash"), providertest.UserRequest("x"))
			got := summary(t, chunks)
			if !matches(got, tt.want) {
				t.Errorf("chunks = %s\n    want %s", got, tt.want)
			}
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			w := *tt.wantErr
			w.Provider, w.Secret = "google", testKey
			providertest.CheckError(t, err, w)
			if pe, _ := err.(*provider.Error); pe != nil && pe.RetryAfter != tt.retry {
				t.Errorf("RetryAfter = %v, want %v", pe.RetryAfter, tt.retry)
			}
		})
	}
}

// These streams behave exactly as they did through genai.
func TestStreamEdges(t *testing.T) {
	runStreamCases(t, []streamCase{
		{name: "LF separators", body: "data: " + finalChunk + "\n\n", want: "text:ok ; usage:gemini-x:5/1/6"},
		{name: "last event without a blank line", body: "data: " + finalChunk, want: "text:ok ; usage:gemini-x:5/1/6"},
		{name: "non-object args end the reply with an error on the call",
			body: events(`{"candidates":[{"content":{"parts":[{"text":"a"}],"role":"model"},"index":0}],"usageMetadata":{"promptTokenCount":3,"totalTokenCount":3}}`,
				`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":"str"}}],"role":"model"},"index":0}]}`, finalChunk),
			want: "text:a ; callerr:id-2:Could not interpret tool use parameters for id id-2: … ; usage:unknown:3/0/3"},
		{name: "the whole chunk of a malformed call is lost",
			body: events(`{"candidates":[{"content":{"parts":[{"text":"a"},{"functionCall":{"name":"f","args":[1]}}],"role":"model"},"index":0}]}`, finalChunk),
			want: "callerr:id-2:Could not interpret tool use parameters for id id-2: …"},
		{name: "undecodable call JSON", body: events(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a": "b}}]}}]}`, finalChunk),
			want: "callerr:id-2:Could not interpret tool use parameters for id id-2: …"},
		{name: "null args are empty", body: events(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":null}}],"role":"model"},"index":0}]}`, finalChunk),
			want: "call:id-2:f:{}| ; text:ok ; usage:gemini-x:5/1/6"},
		{name: "undecodable text chunk", body: events(`{"candidates":[{"content":{"parts":[{"text":"a}]}}]}`, finalChunk),
			wantErr: &providertest.WantError{Kind: provider.KindServer, Text: "invalid stream chunk"}},
		{name: "mistyped text", body: events(`{"candidates":[{"content":{"parts":[{"text":5}]}}]}`, finalChunk),
			wantErr: &providertest.WantError{Kind: provider.KindServer, Text: "invalid stream chunk"}},
		{name: "error event without a code", body: events(`{"error":{"message":"boom","status":"INTERNAL"}}`),
			wantErr: &providertest.WantError{Kind: provider.KindServer, Text: "google: server error: boom"}},
		{name: "error event with a code and a RetryInfo",
			body:    events(`{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"3s"}]}}`),
			wantErr: &providertest.WantError{Kind: provider.KindRateLimit, Status: 429, Text: "slow down"}, retry: 3 * time.Second},
		{name: "no finish reason", body: events(`{"candidates":[{"content":{"parts":[{"text":"a"}]}}]}`), want: "text:a",
			wantErr: &providertest.WantError{Kind: provider.KindNetwork, Text: "stream ended before a finish reason"}},
		{name: "empty body", body: "", wantErr: &providertest.WantError{Kind: provider.KindNetwork, Text: "stream ended before a finish reason"}},
		{name: "a JSON error instead of events", body: `{"error":{"code":429,"message":"quota"}}`,
			wantErr: &providertest.WantError{Kind: provider.KindRateLimit, Status: 429, Text: "quota"}},
		{name: "blocked prompt", body: events(`{"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":4,"totalTokenCount":4}}`),
			want: "usage:unknown:4/0/4", wantErr: &providertest.WantError{Kind: provider.KindNetwork, Text: "stream ended before a finish reason"}},
		{name: "MAX_TOKENS finishes", body: events(`{"candidates":[{"content":{"parts":[{"text":"a"}]},"finishReason":"MAX_TOKENS"}]}`), want: "text:a"},
		{name: "FINISH_REASON_UNSPECIFIED finishes", body: events(`{"candidates":[{"content":{"parts":[{"text":"a"}]},"finishReason":"FINISH_REASON_UNSPECIFIED"}]}`), want: "text:a"},
		{name: "server call ids, signatures and bad names",
			body: events(`{"candidates":[{"content":{"parts":[{"text":"","thought":true,"thoughtSignature":"c2ln"},{"functionCall":{"id":"srv-1","name":"f","args":{"k":1.5e300,"n":12345678901234567890}}},{"functionCall":{"name":"bad.name","args":{}}}]},"finishReason":"STOP"}],"usageMetadata":{"candidatesTokenCount":2}}`),
			want: `call:srv-1:f:{"k":1.5e+300,"n":12345678901234567000}|c2ln ; callerr:id-2:The provided function name 'bad.name' had invalid characters, it must match this regex [a-zA-Z0-9_-]+ ; usage:unknown:0/2/0`},
		{name: "thoughts without a signature, signed text",
			body: events(`{"candidates":[{"content":{"parts":[{"text":"think","thought":true},{"text":"sig text","thoughtSignature":"c2ln"}]},"finishReason":"STOP"}]}`),
			want: "thinking:think| ; text:sig text"},
		{name: "unknown fields are ignored",
			body: events(`{"candidates":[{"content":{"parts":[{"text":"a","extra":{"x":1}}]},"finishReason":"STOP","safetyRatings":[{"category":"X","probability":"LOW"}],"citationMetadata":{}}],"responseId":"r","createTime":"2024-01-01T00:00:00Z"}`),
			want: "text:a"},
		{name: "later empty usage keeps the earlier one",
			body: events(`{"candidates":[{"content":{"parts":[{"text":"a"}]}}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":1,"totalTokenCount":4},"modelVersion":"m1"}`,
				`{"candidates":[{"content":{"parts":[{"text":"b"}]},"finishReason":"STOP"}],"usageMetadata":{}}`),
			want: "text:a ; text:b ; usage:m1:3/1/4"},
	})
}

// Streams genai rejected or misread, which the SSE decoder now reads as
// the event-stream format says.
func TestStreamEdgesBeyondGenai(t *testing.T) {
	runStreamCases(t, []streamCase{
		{name: "comments and event fields are skipped", body: ": keep-alive\r\n\r\nevent: message\r\nid: 1\r\n" + events(finalChunk),
			want: "text:ok ; usage:gemini-x:5/1/6"},
		{name: "multi-line data", body: "data: {\"candidates\":\r\ndata: [{\"content\":{\"parts\":[{\"text\":\"ml\"}]},\"finishReason\":\"STOP\"}]}\r\n\r\n",
			want: "text:ml"},
		{name: "a null candidate is skipped", body: events(`{"candidates":[null]}`, finalChunk), want: "text:ok ; usage:gemini-x:5/1/6"},
		{name: "an error page instead of events", body: "<html>bad gateway</html>",
			wantErr: &providertest.WantError{Kind: provider.KindServer, Text: `invalid stream chunk: unexpected line "<html>bad gateway</html>"`}},
		{name: "a string error code", body: events(`{"error":{"code":"context_length_exceeded","message":"too big"}}`),
			wantErr: &providertest.WantError{Kind: provider.KindContextLength, Text: "too big"}},
		// goose keeps signatures as opaque text; one that is not base64 is
		// dropped (Gemini would refuse it echoed back), the part is kept.
		{name: "an undecodable thought signature is dropped", body: events(`{"candidates":[{"content":{"parts":[{"text":"t","thought":true,"thoughtSignature":"!!"}]},"finishReason":"STOP"}]}`),
			want: "thinking:t|"},
	})
}
