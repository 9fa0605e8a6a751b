package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/recipe"
)

func TestRecipeFrom(t *testing.T) {
	rec, err := recipe.FromContent("title: T\ndescription: D\nprompt: P\ninstructions: I\n" +
		"settings: {max_turns: 7}\nresponse: {json_schema: null}\n" +
		"retry:\n  max_retries: 2\n  checks:\n    - type: shell\n      command: \"true\"\n")
	if err != nil {
		t.Fatal(err)
	}
	got := RecipeFrom(rec)
	if got.Title != "T" || got.Instructions != "I" || got.MaxTurns != 7 {
		t.Fatalf("%+v", got)
	}
	// A null response schema adds no final_output tool.
	if got.ResponseSchema != nil {
		t.Fatalf("schema %s", got.ResponseSchema)
	}
	// Every face gets the retry checks.
	if got.Retry == nil || got.Retry.MaxRetries != 2 {
		t.Fatalf("retry %+v", got.Retry)
	}
}

// A resumed or reloaded session runs its stored recipe again, rendered
// with the stored values.
func TestResumeRendersStoredRecipe(t *testing.T) {
	ctx := context.Background()
	h := newOpsHarness(t, say("a"), say("b"))
	rec, err := recipe.FromContent("title: T\ndescription: D\nprompt: P\nparameters:\n  - key: who\n    input_type: string\n    requirement: required\n    description: w\ninstructions: Greet {{ who }}.\n")
	if err != nil {
		t.Fatal(err)
	}
	opts := StartOptions{}
	opts.UseRecipe(rec, []recipe.Param{{Key: "who", Value: "bob"}})
	h.start(opts)
	if _, err := h.a.SetRecipeValues(ctx, h.id, map[string]string{"who": "ann"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.a.ReloadSession(ctx, h.id); err != nil {
		t.Fatal(err)
	}
	h.reply(ctx, "hi", nil)
	if sys := h.prov.request(0).System; !strings.Contains(sys, "Greet ann.") {
		t.Fatalf("reloaded system prompt lacks the re-rendered recipe:\n%s", sys)
	}
	if err := h.a.CloseSession(h.id); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.a.ResumeSession(ctx, h.id, StartOptions{}); err != nil {
		t.Fatal(err)
	}
	h.reply(ctx, "again", nil)
	if sys := h.prov.request(1).System; !strings.Contains(sys, "Greet ann.") {
		t.Fatalf("resumed system prompt lacks the recipe:\n%s", sys)
	}
}
