package agent

import (
	"context"
	"runtime"
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
	if _, err := h.a.Recipes().SetValues(ctx, h.id, map[string]string{"who": "ann"}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.a.Sessions().Reload(ctx, h.id); err != nil {
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

// A recipe's retry checks also judge a turn that ended in final_output
// (the headless run relied on that): failing checks start it over, and
// the run ends exhausted after max_retries.
func TestRetryChecksJudgeFinalOutput(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("checks run through sh")
	}
	final := calls(call("f", FinalOutputToolName, map[string]any{"final_output": `{"message":"hi"}`}))
	h := newOpsHarness(t, final, final)
	retry := recipe.RetryConfig{MaxRetries: 1, Checks: []recipe.SuccessCheck{{Type: "shell", Command: "false"}}}
	h.start(StartOptions{Recipe: &Recipe{ResponseSchema: messageSchema, Retry: &retry}})
	var retries []RetryEvent
	out, evs := h.reply(context.Background(), "go", func(e Event) {
		if r, ok := e.(RetryEvent); ok {
			retries = append(retries, r)
		}
	})
	msgs := messages(evs)
	if !out.RetriesExhausted || h.prov.numRequests() != 2 || msgs[len(msgs)-1].AsText() != recipe.MaxRetriesMessage(1) {
		t.Fatalf("exhausted=%v requests=%d last=%q", out.RetriesExhausted, h.prov.numRequests(), msgs[len(msgs)-1].AsText())
	}
	if len(retries) != 1 || retries[0] != (RetryEvent{Attempt: 1, MaxRetries: 1}) {
		t.Fatalf("retry events %+v", retries)
	}
	// The stored conversation restarted from the prompt: one attempt's
	// messages and the give-up text remain.
	sess, _ := h.a.Sessions().Get(context.Background(), h.id, true)
	// (The fake provider stamps its replies 0, so they sort first.)
	if c := withoutTurnContext(sess.Conversation); len(c) != 5 || c[1].AsText() != "go" {
		t.Fatalf("stored %d messages: %s", len(c), toJSON(t, sess.Conversation))
	}
}
