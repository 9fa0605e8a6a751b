package acp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

func TestMemberValue(t *testing.T) {
	line := []byte(` { "jsonrpc" : "2.0", "x":{"params":[1,"}"]}, "s":"a\"params\\", "params" : {"a":[{"b":"]"}]} , "id":7}`)
	s, e, ok := memberValue(line, "params")
	if !ok || string(line[s:e]) != `{"a":[{"b":"]"}]}` {
		t.Fatalf("params = %q %v", line[s:e], ok)
	}
	if s, e, ok := memberValue(line, "id"); !ok || string(line[s:e]) != "7" {
		t.Fatalf("id = %q %v", line[s:e], ok)
	}
	if _, _, ok := memberValue(line, "absent"); ok {
		t.Fatal("absent member found")
	}
}

// A large prompt decoded through the stash is the prompt decoded directly,
// escapes and all, and jsonrpc2 still sees the id and method.
func TestLargePromptDecodesThroughTheStash(t *testing.T) {
	text := strings.Repeat("héllo \"quoted\" \\ \u2028 line\n", 10_000)
	params, _ := json.Marshal(map[string]any{"sessionId": "s1", "prompt": []any{
		map[string]any{"type": "text", "text": text},
		map[string]any{"type": "resource_link", "name": "a", "uri": "file:///a"},
	}})
	line := []byte(`{"jsonrpc":"2.0","id":"req-1","method":"session/prompt","params":` + string(params) + `}`)
	small := stashPromptParams(line)
	if len(small) > 200 {
		t.Fatalf("params not stashed: %d bytes", len(small))
	}
	var req jsonrpc2.Request
	if err := json.Unmarshal(small, &req); err != nil || req.Method != "session/prompt" || req.ID.Str != "req-1" {
		t.Fatalf("jsonrpc2 sees %+v %v", req, err)
	}
	var got, want PromptRequest
	if err := json.Unmarshal(*req.Params, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(params, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || got.Prompt[0].Text != text {
		t.Fatal("stashed prompt decodes differently")
	}
	// The stash entry is gone once decoded: a replayed token decodes as
	// an ordinary (wrong) value, never as someone's prompt.
	var again PromptRequest
	if err := json.Unmarshal(*req.Params, &again); err == nil {
		t.Fatalf("a used token decoded to %+v", again)
	}
}

func TestSmallAndNotificationPromptsAreNotStashed(t *testing.T) {
	small := []byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`)
	if got := stashPromptParams(small); string(got) != string(small) {
		t.Fatalf("small prompt rewritten: %s", got)
	}
	big := []byte(`{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"` + strings.Repeat("x", bigParamsMin) + `"}]}}`)
	if got := stashPromptParams(big); len(got) != len(big) {
		t.Fatal("a notification's params were stashed (nobody would take them)")
	}
	other := []byte(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"` + strings.Repeat("x", bigParamsMin) + `"}}`)
	if got := stashPromptParams(other); len(got) != len(other) {
		t.Fatal("a non-prompt request was rewritten")
	}
}

func TestStashIsBounded(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"` + strings.Repeat("x", bigParamsMin) + `"}]}}`)
	for range maxStashed * 3 {
		stashPromptParams(line)
	}
	stash.Lock()
	n := len(stash.m)
	stash.Unlock()
	if n > maxStashed {
		t.Fatalf("%d stashed params kept", n)
	}
}
