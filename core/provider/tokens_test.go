package provider

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
)

func TestCountTokens(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"Hello, how are you?", 6},
		{"<|endoftext|>", 1}, // special tokens count as one, as goose encodes with specials
	} {
		if got := CountTokens(tc.text); got != tc.want {
			t.Errorf("CountTokens(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

var weatherTool = Tool{
	Name:        "get_current_weather",
	Description: "Get the current weather in a given location.",
	InputSchema: json.RawMessage(`{"properties":{"location":{"type":"string","description":"The city and state, e.g. San Francisco, CA"},` +
		`"unit":{"type":"string","description":"The unit of temperature to return","enum":["celsius","fahrenheit"]}},"required":["location"]}`),
}

func TestCountToolTokensFormula(t *testing.T) {
	want := funcInit + CountTokens("get_current_weather:Get the current weather in a given location") +
		propInit +
		propKey + CountTokens("location:string:The city and state, e.g. San Francisco, CA") +
		propKey + CountTokens("unit:string:The unit of temperature to return") +
		enumInit + enumItem + CountTokens("celsius") + enumItem + CountTokens("fahrenheit") +
		funcEnd
	if got := CountToolTokens([]Tool{weatherTool}); got != want {
		t.Fatalf("got %d want %d", got, want)
	}
	if CountToolTokens(nil) != 0 {
		t.Fatal("no tools must cost 0")
	}
}

func TestCountChatTokensFormula(t *testing.T) {
	sys := "You are a helpful assistant."
	msgs := []conversation.Message{
		conversation.UserText(0, "What's the weather like in San Francisco?"),
		conversation.NewMessage(conversation.RoleAssistant, 1).With(
			conversation.ToolRequestContent("call_1", "get_current_weather", map[string]any{"location": "SF"})),
		conversation.NewMessage(conversation.RoleUser, 2).With(
			conversation.ToolResponseContent("call_1", conversation.TextResult("60F"))),
	}
	want := CountTokens(sys) + 4 +
		4 + CountTokens("What's the weather like in San Francisco?") +
		4 + CountTokens(`call_1:get_current_weather:{"location":"SF"}`) +
		4 + CountTokens("60F") +
		CountToolTokens([]Tool{weatherTool}) + 3
	if got := CountChatTokens(sys, msgs, []Tool{weatherTool}); got != want {
		t.Fatalf("got %d want %d", got, want)
	}
	if got := CountChatTokens("", nil, nil); got != 3 {
		t.Fatalf("empty request = %d, want the 3-token primer", got)
	}
}

func TestEnsureTokensFillsOnlyMissing(t *testing.T) {
	req := Request{System: "sys", Messages: []conversation.Message{conversation.UserText(0, "hi")}}
	reply := conversation.AssistantText(0, "hello there")
	pu := ProviderUsage{Model: "m", Usage: Usage{InputTokens: Int(100)}}
	pu.EnsureTokens(req, reply)
	out := CountChatTokens("", []conversation.Message{reply}, nil)
	if *pu.Usage.InputTokens != 100 || *pu.Usage.OutputTokens != out || *pu.Usage.TotalTokens != 100+out {
		t.Fatalf("%+v", pu.Usage)
	}
}

func TestUsageAddAndMerge(t *testing.T) {
	a := Usage{InputTokens: Int(1)}
	b := Usage{InputTokens: Int(2), OutputTokens: Int(3)}
	s := a.Add(b)
	if *s.InputTokens != 3 || *s.OutputTokens != 3 || s.TotalTokens != nil {
		t.Fatalf("%+v", s)
	}
	m := NewUsage(5, 6).Merge(Usage{OutputTokens: Int(7)})
	if *m.InputTokens != 5 || *m.OutputTokens != 7 || *m.TotalTokens != 11 {
		t.Fatalf("%+v", m)
	}
}

func TestToolRequestParsing(t *testing.T) {
	ok := ToolRequest("c1", "shell", `{"command":"ls"}`)
	if ok.ToolRequest.ToolCall.Value.Arguments["command"] != "ls" {
		t.Fatalf("%+v", ok)
	}
	empty := ToolRequest("c2", "x", "")
	if len(empty.ToolRequest.ToolCall.Value.Arguments) != 0 || empty.ToolRequest.ToolCall.Value.Arguments == nil {
		t.Fatal("empty args must be {}")
	}
	raw := ToolRequest("c3", "x", "{\"text\":\"a\nb\"}") // literal newline inside a string
	if raw.ToolRequest.ToolCall.Value.Arguments["text"] != "a\nb" {
		t.Fatalf("control chars must be repaired: %+v", raw.ToolRequest.ToolCall)
	}
	bad := ToolRequest("c4", "x", `{"a":`)
	b, _ := json.Marshal(bad)
	want := `{"type":"toolRequest","id":"c4","toolCall":{"status":"error","error":"Could not interpret tool use parameters for id c4: unexpected end of JSON input"}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	arr := ToolRequest("c5", "x", `[1]`)
	if _, ok := arr.ToolRequest.ToolCall.Value.Arguments["value"]; !ok {
		t.Fatal("non-object args wrap as value")
	}
}

func TestCountTokensLongRunsStayFast(t *testing.T) {
	long := strings.Repeat("x", 200_000) // one unbroken BPE piece without the cut
	done := make(chan int, 1)
	go func() { done <- CountTokens(long) }()
	select {
	case n := <-done:
		if n < 200_000/128 || n > 200_000 {
			t.Fatalf("implausible count %d", n)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("counting a long run took over 20s")
	}
	if got := encodingSegments("short words only"); len(got) != 1 {
		t.Fatalf("ordinary text must stay whole: %q", got)
	}
	segs := encodingSegments(strings.Repeat("é", 100) + " " + strings.Repeat("ab", 100))
	if strings.Join(segs, "") != strings.Repeat("é", 100)+" "+strings.Repeat("ab", 100) || len(segs) != 3 {
		t.Fatalf("segments %d", len(segs))
	}
}
