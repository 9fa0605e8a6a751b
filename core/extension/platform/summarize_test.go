package platform

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/recipe"
)

// fakeAgent answers Complete and records what it was asked.
type fakeAgent struct {
	system, user string
	err          error
}

func (f *fakeAgent) SubRecipes(string) []recipe.SubRecipe { return nil }
func (f *fakeAgent) Delegate(context.Context, string, string, DelegateParams) (string, error) {
	return "", errors.New("unused")
}
func (f *fakeAgent) Complete(_ context.Context, _, system, user string) (string, error) {
	f.system, f.user = system, user
	return "It prints hello.", f.err
}

func summaryTree(t *testing.T) string {
	wd := t.TempDir()
	writeFile(t, filepath.Join(wd, "src/main.rs"), "fn main() {\n    println!(\"Hello\");\n}\n")
	writeFile(t, filepath.Join(wd, "src/lib.py"), "print('hi')")
	writeFile(t, filepath.Join(wd, ".gitignore"), "node_modules/\n*.log\n")
	writeFile(t, filepath.Join(wd, "node_modules/pkg.js"), "module.exports = {}")
	writeFile(t, filepath.Join(wd, "debug.log"), "logs")
	writeFile(t, filepath.Join(wd, ".git/HEAD"), "ref")
	writeFile(t, filepath.Join(wd, "src/.env"), "API_KEY=secret")
	writeFile(t, filepath.Join(wd, "big.txt"), strings.Repeat("x", SummarizeMaxFile+1))
	return wd
}

func TestSummarizeTool(t *testing.T) {
	wd := summaryTree(t)
	fa := &fakeAgent{}
	ctx := context.Background()
	m := extension.New(extension.Options{SessionID: "s", WorkingDir: wd, Platforms: Defaults(Deps{Agent: fa})})
	t.Cleanup(func() { _ = m.Close() })
	if err := m.Add(ctx, config.ExtensionConfig{Type: config.ExtensionPlatform, Name: Summarize}); err != nil {
		t.Fatal(err)
	}
	res, err := m.Call(ctx, "c", "summarize__summarize", map[string]any{"paths": []string{"."}, "question": "What does it print?"})
	if err != nil || res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	if got := res.Content[0].Text; got != "It prints hello.\n\n---\n*Analyzed 3 files (6 lines)*" {
		t.Fatalf("result = %q", got)
	}
	if fa.system != SummarizeSystemPrompt {
		t.Fatalf("system = %q", fa.system)
	}
	wantUser := "Answer this question: What does it print?\n\n**Files** (3 files, 6 total lines):\n\n" +
		"### .gitignore (2 lines)\n~~~\nnode_modules/\n*.log\n\n~~~\n\n" +
		"### src/lib.py (1 lines)\n~~~py\nprint('hi')\n~~~\n\n" +
		"### src/main.rs (3 lines)\n~~~rs\nfn main() {\n    println!(\"Hello\");\n}\n\n~~~\n\n"
	if fa.user != wantUser {
		t.Fatalf("user =\n%q\nwant\n%q", fa.user, wantUser)
	}
	for args, want := range map[string]string{
		`{"paths":["/etc/passwd"],"question":"q"}`:             "Error: Absolute paths are not allowed: /etc/passwd",
		`{"paths":["../.."],"question":"q"}`:                   "Error: Path escapes working directory: ",
		`{"paths":[],"question":"q"}`:                          "Error: Must provide at least one path",
		`{"paths":["src"],"question":"q","extensions":["go"]}`: "Error: No files found matching the specified paths and extensions.",
		`{"paths":["nope"],"question":"q"}`:                    "Error: Path does not exist: ",
	} {
		var a map[string]any
		_ = jsonUnmarshal(args, &a)
		res, _ := m.Call(ctx, "c", "summarize__summarize", a)
		if !res.IsError || !strings.HasPrefix(res.Content[0].Text, want) {
			t.Errorf("%s = %+v", args, res)
		}
	}
	fa.err = errors.New("boom")
	res, _ = m.Call(ctx, "c", "summarize__summarize", map[string]any{"paths": []string{"src"}, "question": "q"})
	if !res.IsError || res.Content[0].Text != "Error: LLM call failed: boom" {
		t.Fatalf("llm failure = %+v", res)
	}
}

func TestSummarizeRefusesTooMuchContent(t *testing.T) {
	wd := t.TempDir()
	for i := 0; i < 11; i++ {
		writeFile(t, filepath.Join(wd, "d", string(rune('a'+i))+".txt"), strings.Repeat("y", 100*1024))
	}
	_, err := CollectSummaryFiles(context.Background(), wd, "", []string{"d"}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "Total content size limit exceeded: ") || !strings.HasSuffix(err.Error(), "over the 1048576 byte limit") {
		t.Fatalf("err = %v", err)
	}
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
