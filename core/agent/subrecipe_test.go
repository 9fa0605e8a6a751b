package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/openai"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

const summariseRecipe = `version: 1.0.0
title: Summarise
description: Summarise a topic
instructions: You summarise things.
prompt: "Summarise {{ topic }} in a {{ style }} line."
parameters:
  - key: topic
    input_type: string
    requirement: required
    description: What to summarise
  - key: style
    input_type: string
    requirement: required
    description: How
`

// mockServerHarness runs the agent against the OpenAI-format mock server
// replaying turns.
func mockServerHarness(t *testing.T, turns ...providertest.Turn) (*harness, *providertest.Server) {
	t.Helper()
	srv := providertest.Start(providertest.OpenAI, providertest.NewScript(turns...))
	t.Cleanup(srv.Close)
	p, err := openai.New(openai.Options{Metadata: provider.Metadata{Name: "openai"}, Host: srv.URL, APIKey: "k",
		Model: model.Config{ModelName: "gpt-4o"}, HTTPClient: srv.Client(), Now: func() time.Time { return time.Unix(1, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, mapConfig{"GOOSE_MODE": "auto"}, func(o *Options) {
		o.Providers = func(context.Context, string, model.Config) (provider.Provider, error) { return p, nil }
	})
	return h, srv
}

func TestSubRecipeToolRunsEachTaskInASubAgentSession(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "summarise.yaml"), []byte(summariseRecipe), 0o600); err != nil {
		t.Fatal(err)
	}
	args := `{"task_parameters":[{"topic":"Go"},{"topic":"Rust"}]}`
	h, srv := mockServerHarness(t,
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_1", Name: SubRecipeToolPrefix + "summarise", Arguments: args}}},
		providertest.Turn{Text: []string{"Go is ", "fast."}},
		providertest.Turn{Text: []string{"Rust is safe."}},
		providertest.Turn{Text: []string{"Both done."}},
	)
	h.start(StartOptions{WorkingDir: dir, Recipe: &Recipe{Instructions: "Use sub-recipes.",
		SubRecipes: []recipe.SubRecipe{{Name: "summarise", Path: "summarise.yaml", Values: map[string]string{"style": "terse"}, SequentialWhenRepeated: true}}}})
	out, _ := h.reply(context.Background(), "summarise two languages", nil)
	if out.StopReason != EndTurn {
		t.Fatalf("stop = %v (%v)", out.StopReason, out.Err)
	}

	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d provider requests", len(reqs))
	}
	// The tool offers only the parameter values does not fix.
	var first struct {
		Tools []struct {
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[0].Body, &first); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, tool := range first.Tools {
		if tool.Function.Name != SubRecipeToolPrefix+"summarise" {
			continue
		}
		found = true
		p := string(tool.Function.Parameters)
		if !strings.Contains(p, `"topic":{"description":"What to summarise","type":"string"}`) || strings.Contains(p, "style") ||
			!strings.Contains(p, `"required":["topic"]`) || !strings.HasSuffix(tool.Function.Description, "[run sequentially, not in parallel]") {
			t.Fatalf("tool = %s %s", tool.Function.Description, p)
		}
	}
	if !found {
		t.Fatal("sub-recipe tool not offered")
	}
	// Each task ran in order with its rendered prompt and the recipe's
	// instructions in the system prompt.
	for i, want := range []string{"Summarise Go in a terse line.", "Summarise Rust in a terse line."} {
		body := string(reqs[1+i].Body)
		if !strings.Contains(body, want) || !strings.Contains(body, "You summarise things.") || strings.Contains(body, "summarise two languages") {
			t.Fatalf("task %d request: %.400s", i, body)
		}
	}
	// The tool result carries each task's final text.
	var result *conversation.ToolResponse
	for _, m := range h.store.conversationOf(h.id) {
		for _, r := range m.ToolResponses() {
			result = r
		}
	}
	if result == nil || !result.ToolResult.IsOK() {
		t.Fatalf("tool result %+v", result)
	}
	var texts []string
	for _, c := range result.ToolResult.Value.Content {
		texts = append(texts, c.Text)
	}
	if strings.Join(texts, "|") != "Go is fast.|Rust is safe." {
		t.Fatalf("tool result texts %q", texts)
	}
	// Two sub_agent sessions named after the parent, both closed.
	h.store.mu.Lock()
	var subs []session.Session
	for _, s := range h.store.sessions {
		if s.SessionType == session.TypeSubAgent {
			subs = append(subs, *s)
		}
	}
	h.store.mu.Unlock()
	if len(subs) != 2 || subs[0].Name != SubagentSessionPrefix+h.id {
		t.Fatalf("sub sessions %+v", subs)
	}
	for _, s := range subs {
		if _, err := h.a.session(s.ID); err == nil {
			t.Fatalf("sub session %s still loaded", s.ID)
		}
	}
}

func TestSubRecipeMissingParameterIsToolError(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "summarise.yaml"), []byte(summariseRecipe), 0o600); err != nil {
		t.Fatal(err)
	}
	h, srv := mockServerHarness(t,
		providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_1", Name: SubRecipeToolPrefix + "summarise", Arguments: `{"task_parameters":[{"topic":"Go"}]}`}}},
		providertest.Turn{Text: []string{"Could not."}},
	)
	h.start(StartOptions{WorkingDir: dir, Recipe: &Recipe{SubRecipes: []recipe.SubRecipe{{Name: "summarise", Path: "summarise.yaml"}}}})
	h.reply(context.Background(), "go", nil)
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests: a task with a missing parameter must not reach the model", n)
	}
	var result *conversation.ToolResponse
	for _, m := range h.store.conversationOf(h.id) {
		for _, r := range m.ToolResponses() {
			result = r
		}
	}
	if result == nil || result.ToolResult.IsOK() || !strings.Contains(result.ToolResult.Error, "style") {
		t.Fatalf("tool result %+v", result)
	}
}

func TestSubRecipeWithUnreadableFileIsNotOffered(t *testing.T) {
	h := newHarness(t, nil, say("ok"))
	h.start(StartOptions{Recipe: &Recipe{SubRecipes: []recipe.SubRecipe{{Name: "gone", Path: "/no/such/recipe.yaml"}}}})
	h.reply(context.Background(), "hi", nil)
	for _, tool := range h.prov.request(0).Tools {
		if strings.HasPrefix(tool.Name, SubRecipeToolPrefix) {
			t.Fatalf("offered %s", tool.Name)
		}
	}
}

// TestSubRecipeConfirmationReachesParentClient: in approve mode the
// sub-agent's tool confirmation is sent to the parent's client and is
// answered with the parent's session id.
func TestSubRecipeConfirmationReachesParentClient(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "echo.yaml"), []byte("version: 1.0.0\ntitle: E\ndescription: d\nprompt: echo something\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, mapConfig{"GOOSE_MODE": "approve"},
		calls(call("c1", SubRecipeToolPrefix+"echo", nil)),    // parent
		calls(call("c2", "tt__echo", map[string]any{"x": 1})), // sub-agent
		say("sub done"), // sub-agent
		say("all done"), // parent
	)
	h.start(StartOptions{WorkingDir: dir, Recipe: &Recipe{SubRecipes: []recipe.SubRecipe{{Name: "echo", Path: "echo.yaml"}}}})
	var asked []string
	out, _ := h.reply(context.Background(), "go", func(e Event) {
		if me, ok := e.(MessageEvent); ok {
			if d := confirmation(me.Message); d != nil {
				asked = append(asked, d.ToolName)
				if err := h.a.Confirm(h.id, d.ID, permission.AllowOnce); err != nil {
					t.Errorf("confirm %s: %v", d.ToolName, err)
				}
			}
		}
	})
	if out.StopReason != EndTurn || strings.Join(asked, ",") != SubRecipeToolPrefix+"echo,tt__echo" {
		t.Fatalf("stop %v, asked %v", out.StopReason, asked)
	}
	h.ts.mu.Lock()
	got := append([]string(nil), h.ts.calls...)
	h.ts.mu.Unlock()
	if len(got) != 1 || got[0] != "echo" {
		t.Fatalf("tool calls %v", got)
	}
}
