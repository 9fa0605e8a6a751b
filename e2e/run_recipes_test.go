package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// exampleRecipes is core/recipe's set of realistic goose recipes.
const exampleRecipes = "../core/recipe/testdata/recipes"

// TestRunExampleRecipes runs every example recipe headlessly against the
// mock LLM and checks the rendered prompt and instructions the model saw
// and what reached stdout.
func TestRunExampleRecipes(t *testing.T) {
	abs, err := filepath.Abs(exampleRecipes)
	if err != nil {
		t.Fatal(err)
	}
	reviewJSON := `{"verdict":"approve","findings":["none"]}`
	compactReview := `{"findings":["none"],"verdict":"approve"}` // the agent re-marshals it
	tests := []struct {
		file   string
		params []string
		turns  []providertest.Turn
		// prompt and instructions must appear in the first request.
		prompt, instructions string
		stdout               string
	}{
		{file: "spell-check.yaml", turns: []providertest.Turn{{Text: []string{"No spelling issues."}}},
			prompt: "Check the spelling of the text in en and list at most 20 issues.", stdout: "No spelling issues.\n"},
		{file: "daily-standup.yaml", params: []string{"team=core"}, turns: []providertest.Turn{{Text: []string{"Yesterday: 3 commits."}}},
			prompt: "Summarise yesterday's commits for core and list today's open issues.", stdout: "Yesterday: 3 commits.\n"},
		{file: "health-report.yaml", params: []string{"service=billing", "include_runbook=true"}, turns: []providertest.Turn{{Text: []string{"- billing: healthy"}}},
			prompt: "Report the health of billing in production as three bullet points.", instructions: "Link the runbook for every failing check.",
			stdout: "- billing: healthy\n"},
		{file: "release-notes.json", params: []string{"project=goose", "version=1.2.3"}, turns: []providertest.Turn{{Text: []string{"## 1.2.3"}}},
			prompt: "Draft the notes for 1.2.3.", instructions: "Write release notes for goose version 1.2.3. Use a neutral tone.", stdout: "## 1.2.3\n"},
		{file: "code-review.yaml", params: []string{"language=go"},
			turns: []providertest.Turn{
				{ToolCalls: []providertest.ToolCall{{ID: "call_1", Name: "shell", Arguments: `{"command":"echo '{}' > review.json"}`}}},
				{ToolCalls: []providertest.ToolCall{{ID: "call_2", Name: "final_output", Arguments: `{"final_output":` + quoteJSON(reviewJSON) + `}`}}},
			},
			prompt: "Review the diff between main and HEAD in " + abs + ".", instructions: "Only flag issues that would break production.",
			stdout: compactReview + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			env := newAgentEnv(t, tt.turns...)
			work := t.TempDir()
			args := []string{"--recipe", filepath.Join(abs, tt.file), "-q"}
			for _, p := range tt.params {
				args = append(args, "--params", p)
			}
			r := runGoose(t, env, work, "", args...)
			if r.code != 0 || r.stdout != tt.stdout {
				t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
			}
			reqs := env.LLM.Requests()
			if len(reqs) != len(tt.turns) {
				t.Fatalf("LLM saw %d requests, want %d", len(reqs), len(tt.turns))
			}
			first := string(reqs[0].Body)
			for _, want := range []string{tt.prompt, tt.instructions} {
				if want != "" && !strings.Contains(first, jsonEscaped(want)) {
					t.Errorf("first request lacks %q", want)
				}
			}
		})
	}
}

// TestRunRecipeRetryGivesUp: code-review's success check looks for
// review.json in the working directory; without it the run starts over
// after on_failure and gives up after max_retries with goose's message.
func TestRunRecipeRetryGivesUp(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join(exampleRecipes, "code-review.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	final := providertest.Turn{ToolCalls: []providertest.ToolCall{{ID: "call_f", Name: "final_output", Arguments: `{"final_output":"{\"verdict\":\"approve\",\"findings\":[]}"}`}}}
	env := newAgentEnv(t, final, final, final)
	work := t.TempDir()
	r := runGoose(t, env, work, "", "--recipe", abs, "--params", "language=go", "-q")
	want := strings.Repeat(`{"findings":[],"verdict":"approve"}`+"\n", 3) + "Maximum retry attempts (2) exceeded. Unable to complete the task successfully.\n"
	if r.code != 1 || r.stdout != want {
		t.Fatalf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(work, "review.json")); !os.IsNotExist(err) {
		t.Fatalf("review.json: %v", err)
	}
}

func quoteJSON(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// jsonEscaped is s as it appears inside a JSON string.
func jsonEscaped(s string) string {
	q := quoteJSON(strings.ReplaceAll(s, `\`, `\\`))
	return strings.ReplaceAll(q[1:len(q)-1], "\n", `\n`)
}
