package openai

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/jsonbody"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// TestHugeTextRequestBodyIsJSONMarshal: a request with texts above the
// splice size (user and tool results, with escapes, HTML characters and
// separators, with and without request_params) has exactly the body
// json.Marshal writes for it.
func TestHugeTextRequestBodyIsJSONMarshal(t *testing.T) {
	big := strings.Repeat("log line <ok> & \"quoted\" \u2028 é \xff\n", minSplicedText/20)
	tool := conversation.ToolResponseContent("call_1", conversation.Ok(conversation.CallToolResult{
		Content: []conversation.ToolContent{conversation.TextBlock(big + "tail")}}))
	req := provider.Request{System: "sys", Messages: []conversation.Message{
		user().WithText(big),
		asst().With(conversation.ToolRequestContent("call_1", "developer__shell", map[string]any{"command": "cat x"})),
		user().With(tool),
		user().WithText("small"),
		user().WithText(big).WithText("<turn-context>\nsmall & late\n</turn-context>"),
	}}
	for _, params := range []map[string]any{nil, {"top_p": 0.5, "messages_note": "<x>"}} {
		cfg := model.Config{ModelName: "gpt-4o", RequestParams: params}
		w, err := buildRequest(cfg, req, requestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		joined := *w // the body as goose writes it: a message's texts joined
		joined.Messages = slices.Clone(w.Messages)
		for i, m := range joined.Messages {
			if j, ok := m.Content.(joinedText); ok {
				joined.Messages[i].Content = strings.Join(j, "\n")
			}
		}
		want, err := marshalWithParams(&joined, params)
		if err != nil {
			t.Fatal(err)
		}
		b, err := marshalRequest(w, params)
		if err != nil {
			t.Fatal(err)
		}
		if b.Len() != int64(len(want)) {
			t.Errorf("params %v: body length %d, json.Marshal wrote %d", params, b.Len(), len(want))
		}
		// Read whole, a byte at a time and in halves (a piece's quoting
		// cut at every boundary).
		for i, r := range []io.Reader{b.Reader(), iotest.OneByteReader(b.Reader()), iotest.HalfReader(b.Reader())} {
			got, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("params %v, reader %d: spliced body differs from json.Marshal's (len %d vs %d)", params, i, len(got), len(want))
			}
		}
		wire := *w
		wire.Messages = append([]wireMessage(nil), w.Messages...)
		texts := takeBigTexts(&wire)
		plain, _ := marshalWithParams(&wire, params)
		if _, ok := jsonbody.Splice(plain, texts); texts.Len() != 3 || !ok {
			t.Errorf("%d texts taken out, splice ok %v: the splice path was not taken", texts.Len(), ok)
		}
		if w.Messages[1].Content != big { // the request's messages are left as they were
			t.Errorf("marshalRequest changed the request's messages")
		}
	}
}

// TestHugePromptWithTurnContextCopiedOnce: a huge prompt merged with the
// turn context stored after it (one user message, two texts) is not
// copied into the request: neither joined into a string nor built into a
// body, its texts are quoted as the body is read.
func TestHugePromptWithTurnContextCopiedOnce(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", (8<<20)/16)
	req := provider.Request{System: "sys", Messages: []conversation.Message{
		user().WithText(big).WithText("<turn-context>\nnow\n</turn-context>")}}
	cfg := model.Config{ModelName: "gpt-4o"}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w, err := buildRequest(cfg, req, requestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := marshalRequest(w, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, b.Reader())
	runtime.ReadMemStats(&after)
	if err != nil || n != b.Len() {
		t.Fatalf("read %d of %d bytes: %v", n, b.Len(), err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(n)/8 {
		t.Errorf("building and reading a %d-byte body allocated %d bytes", n, alloc)
	}
	body := b.Bytes()
	if !bytes.Contains(body, []byte(`"content":"`+big[:64])) || !bytes.Contains(body, []byte(`\n\u003cturn-context\u003e\nnow`)) {
		t.Errorf("body lacks the joined texts: %.200s", body)
	}
}

// TestHugeResponsesBodyIsJSONMarshal: a Responses API request with a huge
// input text and a huge tool output is sent as json.Marshal's bytes, its
// texts not copied into the body while it is built and read.
func TestHugeResponsesBodyIsJSONMarshal(t *testing.T) {
	big := providertest.HugeText()
	tool := conversation.ToolResponseContent("call_1", conversation.Ok(conversation.CallToolResult{
		Content: []conversation.ToolContent{conversation.TextBlock(big + "tail")}}))
	req := provider.Request{System: "sys", Messages: []conversation.Message{
		user().WithText(big).WithText("<turn-context>now</turn-context>"),
		asst().With(conversation.ToolRequestContent("call_1", "shell", map[string]any{"command": "cat x"})),
		user().With(tool), user().WithText("small")}}
	r := buildResponsesRequest(model.Config{ModelName: "gpt-5-codex"}, req, true)
	want, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	providertest.AssertStreamedBody(t, want, func() (*jsonbody.Body, error) { return marshalResponsesRequest(*r) })
	if again, _ := json.Marshal(r); !bytes.Equal(again, want) {
		t.Error("marshalResponsesRequest changed the request")
	}
}
