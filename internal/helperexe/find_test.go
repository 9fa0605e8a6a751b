package helperexe

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func exeIn(dir string) func() (string, error) {
	return func() (string, error) { return filepath.Join(dir, "goose-acp"), nil }
}

func program(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, Name("goose-acp-x"))
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNameFor(t *testing.T) {
	if NameFor("windows", "goose-acp-x") != "goose-acp-x.exe" || NameFor("linux", "goose-acp-x") != "goose-acp-x" {
		t.Error(NameFor("windows", "goose-acp-x"), NameFor("linux", "goose-acp-x"))
	}
}

// The variable first, then beside the executable (symlinks resolved),
// then PATH; none is a *NotFoundError naming the directory.
func TestFindOrder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("executable bits")
	}
	agentDir, pathDir, other, empty := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	beside, onPath, explicit := program(t, agentDir), program(t, pathDir), program(t, other)
	t.Setenv("PATH", pathDir)
	env := func(k string) string {
		if k == "X" {
			return explicit
		}
		return ""
	}
	none := func(string) string { return "" }
	for _, tc := range []struct {
		name, want string
		getenv     func(string) string
		exe        func() (string, error)
	}{
		{"explicit", explicit, env, exeIn(agentDir)},
		{"beside", beside, none, exeIn(agentDir)},
		{"path", onPath, none, exeIn(empty)},
	} {
		if got, err := Find("goose-acp-x", "X", tc.getenv, tc.exe); err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	link := filepath.Join(empty, "goose-acp")
	os.WriteFile(filepath.Join(agentDir, "goose-acp"), nil, 0o755)
	if err := os.Symlink(filepath.Join(agentDir, "goose-acp"), link); err != nil {
		t.Fatal(err)
	}
	if got, err := Find("goose-acp-x", "X", none, exeIn(empty)); err != nil || got != beside {
		t.Errorf("through a symlink: %q, %v; want %q", got, err, beside)
	}

	t.Setenv("PATH", empty)
	_, err := Find("goose-acp-x", "X", none, exeIn(other+"/sub"))
	var nf *NotFoundError
	if !errors.As(err, &nf) || err.Error() != "goose-acp-x was not found (X is not set, and it is neither in "+other+"/sub beside goose-acp nor on PATH)" ||
		nf.Target() != filepath.Join(other, "sub", "goose-acp-x") {
		t.Errorf("missing: %v", err)
	}
	_, err = Find("goose-acp-x", "X", none, func() (string, error) { return "", errors.New("no exe") })
	if !errors.As(err, &nf) || nf.Where() != "beside goose-acp" || nf.Target() != filepath.Join("<directory of goose-acp>", "goose-acp-x") {
		t.Errorf("no executable: %v", err)
	}
	bad := filepath.Join(empty, "nope")
	_, err = Find("goose-acp-x", "X", func(string) string { return bad }, exeIn(agentDir))
	var ee *EnvError
	if !errors.As(err, &ee) || err.Error() != "X is set to "+bad+", which is not an executable file (no such file or directory)" {
		t.Errorf("bad variable: %v", err)
	}
}
