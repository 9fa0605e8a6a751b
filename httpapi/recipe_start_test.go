package httpapi

import (
	"context"
	"runtime"
	"testing"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/recipe"
)

// startRecipe starts a Desktop session running rec (JSON) and returns its id.
func (e *testEnv) startRecipe(rec string) string {
	e.t.Helper()
	var sess struct {
		ID string `json:"id"`
	}
	e.callJSON("POST", "/agent/start", map[string]any{"working_dir": e.root, "recipe": rawJSON(rec)}, 200, &sess)
	return sess.ID
}

type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

// Regression: recipes started from Desktop never ran their
// retry checks, because httpapi's converter dropped Retry.
func TestDesktopRecipeRunsRetryChecks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the checks run through sh")
	}
	e := newTestEnv(t, "auto", say("one"), say("two"))
	id := e.startRecipe(`{"version":"1.0.0","title":"T","description":"D","prompt":"P","instructions":"I",` +
		`"retry":{"max_retries":1,"checks":[{"type":"shell","command":"false"}]}}`)
	out, err := e.agent.Reply(context.Background(), id, userMessage("go"), nil)
	if err != nil {
		t.Fatal(err)
	}
	e.prov.mu.Lock()
	calls := e.prov.n
	e.prov.mu.Unlock()
	if !out.RetriesExhausted || calls != 2 {
		t.Fatalf("retries exhausted %v after %d provider calls; want the failing check to retry once", out.RetriesExhausted, calls)
	}
	sess, err := e.store.Get(context.Background(), id, true)
	if err != nil {
		t.Fatal(err)
	}
	last := sess.Conversation[len(sess.Conversation)-1].AsText()
	if last != recipe.MaxRetriesMessage(1) {
		t.Fatalf("last message %q", last)
	}
}

// Regression: httpapi passed a "null" response schema through,
// which made a final_output tool out of nothing and kept the turn asking
// for it.
func TestDesktopRecipeNullResponseSchema(t *testing.T) {
	e := newTestEnv(t, "auto", say("answer"))
	id := e.startRecipe(`{"version":"1.0.0","title":"T","description":"D","prompt":"P","instructions":"I","response":{"json_schema":null}}`)
	out, err := e.agent.Reply(context.Background(), id, userMessage("go"), nil)
	if err != nil {
		t.Fatal(err)
	}
	e.prov.mu.Lock()
	calls := e.prov.n
	e.prov.mu.Unlock()
	if out.StopReason != agent.EndTurn || calls != 1 {
		t.Fatalf("stop %s after %d provider calls; want one plain turn", out.StopReason, calls)
	}
	tools, err := e.agent.Extensions().Tools(context.Background(), id, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		if tl.Name == agent.FinalOutputToolName {
			t.Fatal("a null schema added final_output")
		}
	}
	// The recipe is kept on the session for a later resume.
	sess, _ := e.store.Get(context.Background(), id, false)
	if len(sess.Recipe) == 0 || string(sess.Recipe) == "null" {
		t.Fatalf("recipe not stored: %s", sess.Recipe)
	}
}
