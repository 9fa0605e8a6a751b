package openai

import (
	"context"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// parse runs the Responses parser over an SSE body of data lines.
func parse(t *testing.T, lines ...string) ([]provider.Chunk, error) {
	t.Helper()
	body := "data: " + strings.Join(lines, "\n\ndata: ") + "\n\n"
	p := newResponsesParser(strings.NewReader(body), "openai", "gpt-5-codex", userHi, fixedNow)
	var out []provider.Chunk
	for c, err := range p.chunks(context.Background()) {
		if err != nil {
			return out, err
		}
		out = append(out, c)
	}
	return out, nil
}

const (
	evCreated   = `{"type":"response.created","sequence_number":1,"response":{"id":"resp_1","object":"response","created_at":1737368310,"status":"in_progress","model":"gpt-5.2-pro","output":[]}}`
	evCompleted = `{"type":"response.completed","sequence_number":9,"response":{"id":"resp_1","object":"response","created_at":1737368310,"status":"completed","model":"gpt-5.2-pro","output":[],"usage":{"input_tokens":10,"output_tokens":4,"total_tokens":14}}}`
)

func delta(s string) string {
	return `{"type":"response.output_text.delta","sequence_number":2,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"` + s + `"}`
}

func TestResponsesParserSkipsKeepaliveAndUnknownEvents(t *testing.T) {
	chunks, err := parse(t, evCreated, `{"type":"keepalive"}`, `{"no":"type"}`,
		`{"type":"response.reasoning_summary_text.delta","delta":{"odd":"shape"}}`, delta("Hello"), delta(""), delta(" world"), evCompleted)
	if err != nil {
		t.Fatal(err)
	}
	conv := providertest.Merge(chunks)
	u := chunks[len(chunks)-1].Usage
	if len(chunks) != 3 || conv[0].AsText() != "Hello world" || *conv[0].ID != "resp_1" ||
		u.Model != "gpt-5.2-pro" || *u.Usage.InputTokens != 10 || *u.Usage.OutputTokens != 4 || *u.Usage.TotalTokens != 14 {
		t.Fatalf("chunks %d conv %v usage %+v", len(chunks), conv, u)
	}
}

func TestResponsesParserOutputFromCompletedResponse(t *testing.T) {
	// Nothing streamed: the text, summary and call come from response.output;
	// a call without call_id is named by its item id.
	completed := `{"type":"response.completed","sequence_number":3,"response":{"id":"resp_1","model":"gpt-5","output":[` +
		`{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"One."},{"type":"summary_text","text":"Two."}]},` +
		`{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Paris."}]},` +
		`{"type":"function_call","id":"fc_9","status":"completed","name":"shell","arguments":""}]}}`
	chunks, err := parse(t, evCreated, completed)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"thinking","thinking":"One.\nTwo.","signature":""},{"type":"text","text":"Paris."},` +
		`{"type":"toolRequest","id":"fc_9","toolCall":{"status":"success","value":{"name":"shell","arguments":{}}}}]`
	if got := providertest.MustJSON(t, providertest.Contents(chunks)); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestResponsesParserDoneWithoutCompleted(t *testing.T) {
	chunks, err := parse(t, evCreated, delta("hi"), "[DONE]")
	if err != nil || providertest.Merge(chunks)[0].AsText() != "hi" || chunks[len(chunks)-1].Usage == nil {
		t.Fatalf("chunks %+v err %v", chunks, err)
	}
}

func TestResponsesParserErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
		kind provider.Kind
		msg  string
	}{
		{"error event as goose reads it", `{"type":"error","error":{"message":"boom"}}`,
			provider.KindServer, `openai: server error: Stream decode error: Responses API error: {"message":"boom"}`},
		{"error event as OpenAI sends it", `{"type":"error","sequence_number":3,"code":"server_error","message":"The server had an error","param":null}`,
			provider.KindServer, `openai: server error: Stream decode error: Responses API error: {"code":"server_error","message":"The server had an error"}`},
		{"failed with a top-level error", `{"type":"response.failed","sequence_number":4,"error":{"message":"quota"}}`,
			provider.KindServer, `openai: server error: Stream decode error: Responses API failed: {"message":"quota"}`},
		{"failed inside the response", `{"type":"response.failed","sequence_number":4,"response":{"id":"resp_1","status":"failed","error":{"code":"context_length_exceeded","message":"Your input exceeds the context window of this model."}}}`,
			provider.KindContextLength, `openai: context length exceeded: Stream decode error: Responses API failed: {"code":"context_length_exceeded","message":"Your input exceeds the context window of this model."}`},
		{"malformed event", `{"type":"response.output_text.delta","delta":`,
			provider.KindNetwork, "openai: network error: stream ended before the response was complete"},
		{"invalid JSON", `{"type":}`,
			provider.KindServer, "openai: server error: Stream decode error: Failed to parse Responses stream event: invalid character '}' looking for beginning of value"},
		{"known event missing its field", `{"type":"response.output_item.done","sequence_number":4}`,
			provider.KindServer, "openai: server error: Stream decode error: Failed to parse Responses stream event response.output_item.done: missing field"},
		{"known event with a wrong field", `{"type":"response.output_text.delta","delta":7}`,
			provider.KindServer, "openai: server error: Stream decode error: Failed to parse Responses stream event response.output_text.delta: json: cannot unmarshal number into Go value of type string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			chunks, err := parse(t, evCreated, delta("partial"), tc.line)
			if provider.KindOf(err) != tc.kind || err.Error() != tc.msg {
				t.Fatalf("got  %v (%v)\nwant %s", err, provider.KindOf(err), tc.msg)
			}
			if len(chunks) != 1 || chunks[0].Message.AsText() != "partial" {
				t.Fatalf("chunks before the error: %+v", chunks)
			}
		})
	}
}

func TestResponsesParserCleanEOFIsCut(t *testing.T) {
	_, err := parse(t, evCreated, delta("a"))
	if provider.KindOf(err) != provider.KindNetwork || !strings.Contains(err.Error(), "stream ended before the response was complete") {
		t.Fatalf("got %v", err)
	}
}
