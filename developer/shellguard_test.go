//go:build !windows

package developer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// guardDir is a working dir with ignored .env and secrets/, .env reachable
// through a symlink and a hard link, and ordinary files.
func guardDir(t *testing.T, h *harness) string {
	t.Helper()
	d := h.dir
	files := map[string]string{
		".gooseignore":    ".env\nsecrets/\n",
		".env":            "SECRET_KEY=1\n",
		"secrets/key.txt": "SECRET_TOKEN=2\n",
		"main.go":         "package main // TODO\n",
		"src/a.go":        "package a // TODO\n",
		"src/.hidden":     "x\n",
	}
	for name, body := range files {
		p := filepath.Join(d, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(d, ".env"), filepath.Join(d, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(d, ".env"), filepath.Join(d, "hard")); err != nil {
		t.Fatal(err)
	}
	return d
}

// Every command here reaches an ignored path once the shell has expanded
// it; each got past goose's literal-word check.
func TestShellGuardRefusesWhatTheShellWouldTouch(t *testing.T) {
	h := newHarness(t, Options{})
	d := guardDir(t, h)
	cases := []struct{ command, arg string }{
		// the bypasses
		{"cat $PWD/.env", d + "/.env"},
		{"cat .e*", ".env"},
		{"cat <.env", ".env"},
		{"cat secrets/*", "secrets/key.txt"},
		{"sh -c 'cat .env'", ".env"},
		{"grep -r SECRET_ .", ".env"},
		{"echo x > .env", ".env"},
		// more of the same family
		{"cat ${PWD}/secrets/key.txt", d + "/secrets/key.txt"},
		{"cat \"$PWD\"/.env", d + "/.env"},
		{"cat {main.go,.env}", ".env"},
		{"F=.env; cat $F", ".env"},
		{"export F=.env; cat \"$F\"", ".env"},
		{"cd secrets && cat *", "secrets"},
		{"cd src && cat ../.e*", "../.env"},
		{"bash -lc \"cat .e*\"", ".env"},
		{"nohup sh -c 'sh -c \"cat <.env\"' &", ".env"},
		{"eval 'cat .env'", ".env"},
		{"env A=1 timeout 5 bash -c 'cat .env'", ".env"},
		{"cat main.go | sh -c 'cat $(echo x) .env'", ".env"},
		{"echo x >> secrets/new.txt", "secrets/new.txt"},
		{"cat main.go 2>.env", ".env"},
		{"cat link", "link"},
		{"cat hard", "hard"},
		{"grep -rn SECRET_", ".env"},
		{"grep -R -e SECRET_ src .", ".env"},
		{"rg --hidden SECRET_", ".env"},
		{"rg SECRET_", "secrets"},
		{"find . -type f -exec cat {} +", ".env"},
		{"find . -name '*.txt' -exec cat {} \\;", "secrets/key.txt"},
		{"find . -name '*.go' -o -name x -delete", ".env"},
		{"tar czf /tmp/out.tgz .", ".env"},
		{"cp -r . /tmp/copy", ".env"},
		{"dd if=.env of=/dev/null", ".env"},
		{"cat --file=.env", ".env"},
		{"cat ./src/../.env", "./src/../.env"},
		{`cat "$(pwd)/.env"`, d + "/.env"},
		{"cat `pwd`/secrets/key.txt", d + "/secrets/key.txt"},
		{"cat $(echo .e)nv", ".env"},
		{"cat $(printf %s .en v)", ".env"},
	}
	for _, tc := range cases {
		t.Run(tc.command, func(t *testing.T) {
			err := h.svc.checkShellPaths(tc.command, callContext{workingDir: d})
			want := "The command attempts to access '" + tc.arg + "' which is restricted by .gooseignore"
			if err == nil || err.Error() != want {
				t.Fatalf("got %v, want %q", err, want)
			}
		})
	}
}

// Ordinary commands are not refused, even in a dir holding ignored files.
func TestShellGuardLetsOrdinaryCommandsThrough(t *testing.T) {
	h := newHarness(t, Options{})
	d := guardDir(t, h)
	for _, command := range []string{
		"ls", "ls -la", "ls -R", "go test ./...", "git status", "git log --oneline -5",
		"cat main.go", "cat *.go src/*", "grep -r TODO src", "grep TODO main.go", "rg TODO src",
		"find . -name '*.go'", "find . -name '*.go' -exec grep -l TODO {} +", "echo hello > out.txt", "echo $HOME; echo $PWD", "sh -c 'echo ok'",
		"cat <<EOF\nhello\nEOF", "cat <<<hello", "make 2>&1 | tail -n 5", "ls >/dev/null 2>&1", "cat main.go | grep x",
		"for f in src/*.go; do wc -l \"$f\"; done", "x=$(date); echo \"$x\"", "cp -r src /tmp/src-copy",
		"tar xzf archive.tgz", "diff <(ls) <(ls src)", "if [ -f go.mod ]; then echo y; fi",
		"echo 'unterminated", "cat ${", "npm run build && npm test",
	} {
		if err := h.svc.checkShellPaths(command, callContext{workingDir: d}); err != nil {
			t.Errorf("%q refused: %v", command, err)
		}
	}
}

// The refusal reaches the model as goose's error on both surfaces, and
// nothing runs: the redirect target is not created.
func TestShellGuardRefusalOnBothSurfaces(t *testing.T) {
	h := newHarness(t, Options{})
	d := guardDir(t, h)
	os.Remove(filepath.Join(d, ".env"))
	_, err := h.call(t, "shell", map[string]any{"command": "echo x > .env"})
	rpcError(t, err, jsonrpc.CodeInternalError, "The command attempts to access '.env' which is restricted by .gooseignore")
	if _, err := os.Stat(filepath.Join(d, ".env")); !os.IsNotExist(err) {
		t.Fatalf(".env was written: %v", err)
	}

	e := newHarness(t, Options{Surface: Editor, WorkingDir: d})
	res := e.mustCall(t, "shell", map[string]any{"command": "sh -c 'cat secrets/*'"})
	want := "The command attempts to access 'secrets/key.txt' which is restricted by .gooseignore"
	if got := texts(res); !res.IsError || len(got) != 1 || got[0] != want {
		t.Fatalf("editor result %q isError=%v, want %q", got, res.IsError, want)
	}
}

// A script the parser rejects still has its tokens checked, globs
// expanded.
func TestShellGuardUnparsableScriptFallsBackToTokens(t *testing.T) {
	h := newHarness(t, Options{})
	d := guardDir(t, h)
	err := h.svc.checkShellPaths("cat .e* ${", callContext{workingDir: d})
	if err == nil || !strings.Contains(err.Error(), "/.env' which is restricted by .gooseignore") {
		t.Fatalf("got %v", err)
	}
}
