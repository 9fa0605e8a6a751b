package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

var messageSchema = json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)

func TestFinalOutputTool(t *testing.T) {
	f, err := newFinalOutputTool(messageSchema)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args map[string]any
		ok   string
		err  string
	}{
		{map[string]any{"final_output": `{"message": "Hello, world!"}`}, FinalOutputCollected, ""},
		{map[string]any{"final_output": `{"message": "Hello"`}, "", "Invalid JSON format: "},
		{map[string]any{"final_output": `{"other": 1}`}, "", "Validation failed:\n- "},
		{map[string]any{"final_output": `{"message": 3}`}, "", "Validation failed:\n- /message: "},
		{map[string]any{}, "", FinalOutputMissingParam},
	}
	for _, tc := range tests {
		r := f.call(tc.args)
		if tc.ok != "" {
			if !r.IsOK() || r.Value.Content[0].Text != tc.ok {
				t.Errorf("%v: %+v", tc.args, r)
			}
			continue
		}
		if r.IsOK() || !strings.HasPrefix(r.Error, tc.err) {
			t.Errorf("%v: error %q, want prefix %q", tc.args, r.Error, tc.err)
		}
		if strings.HasPrefix(tc.err, "Validation") && !strings.Contains(r.Error, "Please correct your output to match the expected JSON schema and try again.") {
			t.Errorf("validation text = %q", r.Error)
		}
	}
	out, ok := f.take()
	if !ok || out != `{"message":"Hello, world!"}` {
		t.Fatalf("collected %q", out)
	}
	for _, bad := range []string{`{}`, `{"type":"invalid_type"}`, `[1`} {
		if _, err := newFinalOutputTool(json.RawMessage(bad)); !errors.Is(err, ErrInvalidResponseSchema) {
			t.Errorf("schema %s: %v", bad, err)
		}
	}
}

func TestFinalOutputLoop(t *testing.T) {
	h := newHarness(t, nil,
		say("I think I'm done"),
		calls(call("f", FinalOutputToolName, map[string]any{"final_output": `{"message":"hi"}`})),
	)
	h.start(StartOptions{Recipe: &Recipe{Instructions: "Be brief.", ResponseSchema: messageSchema}})
	out, evs := h.reply(context.Background(), "go", nil)
	msgs := messages(evs)
	if out.StopReason != EndTurn || msgs[len(msgs)-1].AsText() != `{"message":"hi"}` {
		t.Fatalf("stop=%v last=%s", out.StopReason, toJSON(t, msgs[len(msgs)-1]))
	}
	conv := h.store.conversationOf(h.id)
	if conv[2].AsText() != FinalOutputContinuation {
		t.Fatalf("continuation = %s", toJSON(t, conv))
	}
	sys := h.prov.request(0).System
	if !strings.Contains(sys, "# Final Ouptut Instructions") || !strings.Contains(sys, "Be brief.") || !strings.Contains(sys, "# Additional Instructions:") {
		t.Fatalf("system prompt:\n%s", sys)
	}
	found := false
	for _, tool := range h.prov.request(0).Tools {
		found = found || tool.Name == FinalOutputToolName
	}
	if !found {
		t.Fatal("final_output tool not offered")
	}
}
