package conversation

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the Go values")

func ptr[T any](v T) *T { return &v }

// goldenContents is one Go value per MessageContent variant (and the
// interesting sub-forms), with the OpenAPI component it must satisfy.
var goldenContents = []struct {
	file      string
	component string
	value     Content
}{
	{"text", "TextContent", Text("hi")},
	{"text_html", "TextContent", Text(`<tag> & "quotes"`)},
	{"text_meta", "TextContent", Content{Type: TypeText, Text: &TextContent{
		Text: "for the model", Annotations: json.RawMessage(`{"audience":["assistant"],"priority":0.5}`),
		Meta: map[string]any{"goose": map[string]any{"source": "moim"}},
	}}},
	{"image", "ImageContent", Image("iVBORw0KGgo=", "image/png")},
	{"tool_request", "ToolRequest", Content{Type: TypeToolRequest, ToolRequest: &ToolRequest{
		ID: "toolu_1", ToolCall: Ok(ToolCall{Name: "developer__shell", Arguments: map[string]any{"command": "ls"}}),
		Meta: map[string]any{"goose": map[string]any{"toolSummary": map[string]any{"title": "List files"}}},
	}}},
	{"tool_request_error", "ToolRequest", ToolRequestError("toolu_2", "Could not interpret tool use parameters for id toolu_2: EOF while parsing")},
	{"tool_response", "ToolResponse", ToolResponseContent("toolu_1", Ok(CallToolResult{
		Content: []ToolContent{
			{Type: "text", Text: "a.txt\n", Annotations: &Annotations{Audience: []Role{RoleAssistant}}},
			ImageBlock("iVBORw0KGgo=", "image/png"),
			{Type: "resource", Resource: &ResourceContents{URI: "file:///a.txt", MimeType: "text/plain", Text: ptr("alpha")}},
		},
		StructuredContent: map[string]any{"files": []any{"a.txt"}},
		IsError:           false,
	}))},
	{"tool_response_is_error", "ToolResponse", ToolResponseContent("toolu_3", ErrorResult("no such file"))},
	{"tool_response_error", "ToolResponse", ToolResponseContent("toolu_4", Err[CallToolResult]("Tool not found: nope__x"))},
	{"tool_confirmation_request", "ToolConfirmationRequest", Content{Type: TypeToolConfirmationRequest, ToolConfirmationRequest: &ToolConfirmationRequest{
		ID: "toolu_5", ToolName: "developer__shell", Arguments: map[string]any{"command": "rm -rf build"}, Prompt: ptr("Allow?"),
	}}},
	{"action_required_tool_confirmation", "ActionRequired", ToolConfirmation("toolu_6", "developer__text_editor",
		map[string]any{"command": "write", "path": "/tmp/a"}, nil)},
	{"action_required_elicitation", "ActionRequired", Elicitation("elic_1", "Which branch?",
		json.RawMessage(`{"type":"object","properties":{"branch":{"type":"string"}},"required":["branch"]}`))},
	{"action_required_elicitation_response", "ActionRequired", ElicitationResponse("elic_1", json.RawMessage(`{"branch":"main"}`))},
	{"frontend_tool_request", "FrontendToolRequest", Content{Type: TypeFrontendToolRequest, FrontendToolRequest: &FrontendToolRequest{
		ID: "toolu_7", ToolCall: Ok(ToolCall{Name: "browser__open", Arguments: map[string]any{"url": "https://example.com"}}),
	}}},
	{"thinking", "ThinkingContent", Thinking("Let me check the files first.", "EqQBCkYIARgCKkA")},
	{"redacted_thinking", "RedactedThinkingContent", RedactedThinking("EmwKAhgBEgy3va3pzix")},
	{"system_notification", "SystemNotificationContent", SystemNotification(NotificationInline, "Context compacted")},
	{"system_notification_data", "SystemNotificationContent", Content{Type: TypeSystemNotification, SystemNotification: &SystemNotificationContent{
		NotificationType: NotificationCreditsExhausted, Msg: "Out of credits", Data: json.RawMessage(`{"top_up_url":"https://example.com/billing"}`),
	}}},
}

func goldenMessage() Message {
	return Message{
		ID: ptr("msg_0d7c"), Role: RoleAssistant, Created: 1747040000,
		Content: []Content{
			Thinking("Need the listing.", "sig"),
			Text("Listing files."),
			ToolRequestContent("toolu_1", "developer__shell", map[string]any{"command": "ls"}),
		},
		Metadata: VisibleToAll(),
	}
}

// goldenHTMLMessage carries the characters encoding/json HTML-escapes and
// serde_json does not, in text, tool arguments and a tool result.
func goldenHTMLMessage() Message {
	return Message{
		ID: ptr("msg_html"), Role: RoleAssistant, Created: 1747040000,
		Content: []Content{
			Text(`<tag> & "quotes"`),
			ToolRequestContent("toolu_h", "developer__shell", map[string]any{"command": `grep '<a href=' index.html && echo "ok" > out`}),
			ToolResponseContent("toolu_h", TextResult("<a href=\"x\">&amp;</a>\n")),
		},
		Metadata: VisibleToAll(),
	}
}

func goldenPath(name string) string { return filepath.Join("testdata", "golden", name+".json") }

// checkGolden asserts that value marshals (with Marshal, goose's bytes) to
// the golden file's compact form (or rewrites the file with -update) and
// returns the compact bytes.
func checkGolden(t *testing.T, name string, value any) []byte {
	t.Helper()
	got, err := Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, got, "", "  "); err != nil {
			t.Fatal(err)
		}
		pretty.WriteByte('\n')
		if err := os.WriteFile(goldenPath(name), pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := readCompact(t, goldenPath(name))
	if !bytes.Equal(got, want) {
		t.Fatalf("marshal %s:\ngot  %s\nwant %s", name, got, want)
	}
	return want
}

func readCompact(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return buf.Bytes()
}

func TestGoldenContentVariants(t *testing.T) {
	for _, g := range goldenContents {
		t.Run(g.file, func(t *testing.T) {
			wire := checkGolden(t, g.file, g.value)

			// Round trip: decoding the golden and encoding it again gives
			// the same bytes.
			var back Content
			if err := json.Unmarshal(wire, &back); err != nil {
				t.Fatal(err)
			}
			again, err := Marshal(back)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, wire) {
				t.Fatalf("round trip:\ngot  %s\nwant %s", again, wire)
			}

			// The tagged union and the variant's own component both accept it.
			if err := validate(t, componentSchema(t, false, "MessageContent"), wire); err != nil {
				t.Fatalf("MessageContent schema: %v", err)
			}
			if err := validate(t, componentSchema(t, false, g.component), wire); err != nil {
				t.Fatalf("%s schema: %v", g.component, err)
			}
		})
	}
}

func TestGoldenMessage(t *testing.T) {
	wire := checkGolden(t, "message", goldenMessage())
	var back Message
	if err := json.Unmarshal(wire, &back); err != nil {
		t.Fatal(err)
	}
	again, err := Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, wire) {
		t.Fatalf("round trip:\ngot  %s\nwant %s", again, wire)
	}
	if err := validate(t, componentSchema(t, false, "Message"), wire); err != nil {
		t.Fatalf("Message schema: %v", err)
	}
}

func TestGoldenMessageWithoutID(t *testing.T) {
	m := UserText(1747040000, "hello")
	wire := checkGolden(t, "message_no_id", m)
	if !bytes.Contains(wire, []byte(`"id":null`)) {
		t.Fatalf("id not null: %s", wire)
	}
	if err := validate(t, componentSchema(t, false, "Message"), wire); err != nil {
		t.Fatalf("Message schema: %v", err)
	}
}

// The 1.24 "reasoning" item is read-only: it is valid in the 1.24 spec, no
// longer in 1.33, decodes to thinking with an empty signature, is written as
// thinking, and cannot be written as reasoning.
func TestGoldenReasoningBecomesThinking(t *testing.T) {
	legacy := readCompact(t, goldenPath("reasoning_1.24"))
	if err := validate(t, componentSchema(t, true, "MessageContent"), legacy); err != nil {
		t.Fatalf("1.24 MessageContent schema: %v", err)
	}
	if err := validate(t, componentSchema(t, true, "ReasoningContent"), legacy); err != nil {
		t.Fatalf("1.24 ReasoningContent schema: %v", err)
	}
	if err := validate(t, componentSchema(t, false, "MessageContent"), legacy); err == nil {
		t.Fatal("1.33 MessageContent accepts reasoning; the variant was expected to be gone")
	}

	var c Content
	if err := json.Unmarshal(legacy, &c); err != nil {
		t.Fatal(err)
	}
	if c.Type != TypeThinking || c.Thinking == nil || c.Thinking.Signature != "" {
		t.Fatalf("decoded %+v", c)
	}
	wire := checkGolden(t, "reasoning_as_thinking", c)
	if err := validate(t, componentSchema(t, false, "ThinkingContent"), wire); err != nil {
		t.Fatalf("ThinkingContent schema: %v", err)
	}
	if _, err := json.Marshal(Content{Type: TypeReasoning, Thinking: c.Thinking}); err == nil ||
		!strings.Contains(err.Error(), `unknown content type "reasoning"`) {
		t.Fatalf("writing reasoning: err = %v", err)
	}
}

func TestGoldenFilesAreAllChecked(t *testing.T) {
	checked := map[string]bool{"message": true, "message_no_id": true, "message_html": true, "reasoning_1.24": true, "reasoning_as_thinking": true}
	for _, g := range goldenContents {
		checked[g.file] = true
	}
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".json"); !checked[name] {
			t.Errorf("golden %s is not checked by any test", f)
		}
	}
}
