package shellrun

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestSelectShell(t *testing.T) {
	found := func(names ...string) func(string) (string, error) {
		return func(n string) (string, error) {
			for _, x := range names {
				if x == n {
					return `C:\bin\` + n + ".exe", nil
				}
			}
			return "", errors.New("not found")
		}
	}
	cases := []struct {
		name string
		goos string
		env  map[string]string
		look func(string) (string, error)
		cmd  string
		want []string // path then args
	}{
		{"unix SHELL", "linux", map[string]string{"SHELL": "/bin/zsh"}, found(), "ls", []string{"/bin/zsh", "-c", "ls"}},
		{"unix bash fallback", "darwin", nil, func(string) (string, error) { return "/usr/bin/bash", nil }, "ls", []string{"/usr/bin/bash", "-c", "ls"}},
		{"unix sh fallback", "linux", nil, found(), "ls", []string{"sh", "-c", "ls"}},
		{"GOOSE_SHELL wins", "linux", map[string]string{"SHELL": "/bin/zsh", "GOOSE_SHELL": "/bin/dash"}, found(), "ls", []string{"/bin/dash", "-c", "ls"}},
		{"windows pwsh", "windows", nil, found("pwsh", "powershell"), "dir", []string{`C:\bin\pwsh.exe`, "-NoProfile", "-NonInteractive", "-Command", "dir"}},
		{"windows powershell", "windows", nil, found("powershell"), "dir", []string{`C:\bin\powershell.exe`, "-NoProfile", "-NonInteractive", "-Command", "dir"}},
		{"windows cmd", "windows", nil, found(), "dir", []string{"cmd", "/C", "dir"}},
		{"windows GOOSE_SHELL cmd.exe", "windows", map[string]string{"GOOSE_SHELL": `C:\Windows\System32\cmd.exe`}, found("pwsh"), "dir", []string{`C:\Windows\System32\cmd.exe`, "/C", "dir"}},
		{"windows ignores SHELL", "windows", map[string]string{"SHELL": "/usr/bin/bash"}, found(), "dir", []string{"cmd", "/C", "dir"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sp := Select(tc.goos, func(k string) string { return tc.env[k] }, tc.look)
			got := append([]string{sp.Path}, sp.CommandArgs(tc.cmd)...)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
	if got := SpecFor(`C:\bin\pwsh.exe`, "windows").windowsCommandLine(`echo "a b"`); got != `"C:\bin\pwsh.exe" -NoProfile -NonInteractive -Command echo "a b"` {
		t.Fatalf("windows command line: %s", got)
	}
}

func TestSplitShellArgs(t *testing.T) {
	cases := map[string][]string{
		"cat a.txt b.txt":                  {"cat", "a.txt", "b.txt"},
		`findstr /n "class MainForm" *.cs`: {"findstr", "/n", "class MainForm", "*.cs"},
		`cat 'my file.txt'`:                {"cat", "my file.txt"},
		`echo "a 'b'" 'c "d"'`:             {"echo", "a 'b'", `c "d"`},
		"":                                 nil,
		"  ls   -la  ":                     {"ls", "-la"},
	}
	for in, want := range cases {
		if got := SplitArgs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("SplitArgs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShellEnv(t *testing.T) {
	bash := SpecFor("/bin/bash", "linux")
	over := EnvOverrides("linux", "s-1", "/cfg/.bash_env", bash)
	env := MergeEnv([]string{"PATH=/bin", "AGENT_SESSION_ID=stale", "EDITOR=vim"}, over, "linux")
	joined := strings.Join(env, "\n")
	for _, want := range []string{"PATH=/bin", "AGENT_SESSION_ID=s-1", "BASH_ENV=/cfg/.bash_env", "GOOSE_TERMINAL=1", "AGENT=goose",
		"GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "EDITOR=" + editorStub, "GIT_EDITOR=" + gitEditorStub, "GIT_SEQUENCE_EDITOR=" + gitEditorStub, "VISUAL=" + editorStub} {
		if !strings.Contains("\n"+joined+"\n", "\n"+want+"\n") {
			t.Errorf("env lacks %q:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "EDITOR=vim") || strings.Contains(joined, "stale") {
		t.Errorf("inherited values not replaced:\n%s", joined)
	}
	noSession := MergeEnv([]string{"AGENT_SESSION_ID=stale"}, EnvOverrides("linux", "", "/x", SpecFor("/bin/zsh", "linux")), "linux")
	if j := strings.Join(noSession, "\n"); strings.Contains(j, "AGENT_SESSION_ID") || strings.Contains(j, "BASH_ENV") {
		t.Errorf("AGENT_SESSION_ID must be removed and BASH_ENV is bash-only:\n%s", j)
	}
	win := MergeEnv([]string{"Path=C:\\bin"}, map[string]string{"PATH": "D:\\x"}, "windows")
	if strings.Join(win, ",") != `PATH=D:\x` {
		t.Errorf("windows keys are case-insensitive: %q", win)
	}
}

func TestCmdRejectsNewlines(t *testing.T) {
	if err := SpecFor("cmd", "windows").CheckCommand("echo a\necho b"); err == nil || err.Error() != errCmdNewline {
		t.Fatalf("cmd: %v", err)
	}
	for _, sp := range []Spec{SpecFor("pwsh", "windows"), SpecFor("/bin/bash", "linux")} {
		if err := sp.CheckCommand("echo a\necho b"); err != nil {
			t.Fatalf("%s: %v", sp.Path, err)
		}
	}
}
