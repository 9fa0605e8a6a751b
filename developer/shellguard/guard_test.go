package shellguard

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

func guardIn(t *testing.T) (Guard, string) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{".gooseignore": "secret.txt\n", "secret.txt": "s\n", "notes.md": "n\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string { return map[string]string{"HOME": dir}[k] }
	return Guard{Rules: pathpolicy.RulesFor(dir, t.TempDir()), Policy: pathpolicy.New(pathpolicy.Options{WorkingDir: dir}),
		Dir: dir, Getenv: getenv}, dir
}

// What the shell would touch once it expanded the command is checked:
// a glob, a variable the script sets, a nested sh -c, a redirect.
func TestGuardRefusesIgnoredPaths(t *testing.T) {
	g, _ := guardIn(t)
	for _, script := range []string{"cat secr*.txt", "f=secret.txt; cat $f", `sh -c "cat secret.txt"`, "echo x > secret.txt", "grep -r s ."} {
		err := g.Check(script)
		var ie IgnoredError
		if !errors.As(err, &ie) || !errors.Is(err, pathpolicy.ErrIgnored) {
			t.Errorf("%q: %v, want an IgnoredError", script, err)
			continue
		}
		if err.Error() != "The command attempts to access '"+ie.Arg+"' which is restricted by .gooseignore" {
			t.Errorf("%q: text %q", script, err.Error())
		}
	}
	for _, script := range []string{"cat notes.md", "ls -la", "go test ./... | grep -v ok"} {
		if err := g.Check(script); err != nil {
			t.Errorf("%q refused: %v", script, err)
		}
	}
}
