package shellrun

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/internal/shellwords"
)

// Spec is the program that runs a command string and the flags that
// precede it.
type Spec struct {
	Path  string
	Flags []string
	// Flavor is "posix", "pwsh" or "cmd" and decides argument quoting.
	Flavor string
}

// Select picks the shell per OS as a pure function (goose's
// ShellConfig::default, plus GOOSE_SHELL as in newer goose):
//   - unix: $GOOSE_SHELL, else $SHELL, else bash if on PATH, else sh; "-c".
//   - windows: $GOOSE_SHELL, else pwsh, powershell, cmd; PowerShell gets
//     -NoProfile -NonInteractive -Command, cmd gets /C.
func Select(goos string, getenv func(string) string, lookPath func(string) (string, error)) Spec {
	if override := getenv("GOOSE_SHELL"); override != "" {
		return SpecFor(override, goos)
	}
	if goos == "windows" {
		for _, name := range []string{"pwsh", "powershell"} {
			if p, err := lookPath(name); err == nil {
				return SpecFor(p, goos)
			}
		}
		return SpecFor("cmd", goos)
	}
	if sh := getenv("SHELL"); sh != "" {
		return SpecFor(sh, goos)
	}
	if p, err := lookPath("bash"); err == nil {
		return SpecFor(p, goos)
	}
	return SpecFor("sh", goos)
}

// SpecFor chooses flags from the shell's file stem.
func SpecFor(shell, goos string) Spec {
	stem := strings.ToLower(Stem(shell))
	switch stem {
	case "pwsh", "powershell":
		return Spec{Path: shell, Flags: []string{"-NoProfile", "-NonInteractive", "-Command"}, Flavor: "pwsh"}
	case "cmd":
		if goos == "windows" {
			return Spec{Path: shell, Flags: []string{"/C"}, Flavor: "cmd"}
		}
	}
	return Spec{Path: shell, Flags: []string{"-c"}, Flavor: "posix"}
}

// Stem is the basename without extension, for "/bin/bash" or
// `C:\Program Files\PowerShell\7\pwsh.exe` alike.
func Stem(shell string) string {
	base := shell
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// commandArgs is the argv after the shell path for a command string.
func (sp Spec) CommandArgs(command string) []string {
	return append(append([]string{}, sp.Flags...), command)
}

// windowsCommandLine is the verbatim command line for Windows (goose uses
// raw_arg so cmd and PowerShell see the command unescaped).
func (sp Spec) windowsCommandLine(command string) string {
	return `"` + sp.Path + `" ` + strings.Join(sp.Flags, " ") + " " + command
}

// isBash reports whether BASH_ENV applies.
func (sp Spec) IsBash() bool { return strings.EqualFold(Stem(sp.Path), "bash") }

// SplitArgs is goose's quote-aware split_shell_args: whitespace
// separates tokens, single and double quotes group and are removed; an
// unclosed quote's text is the last token.
func SplitArgs(s string) []string {
	words, _ := shellwords.Split(s)
	return words
}

// errCmdNewline is goose's guard: cmd.exe runs only the first line of a
// multi-line command and still exits 0, silently dropping the rest.
const errCmdNewline = "cmd.exe silently truncates commands at newlines — only the first line executes, with exit code 0. Use `&` to chain commands on one line (e.g. `echo a & echo b`), or set GOOSE_SHELL=powershell."

// checkCommandForShell rejects commands the chosen shell would mangle.
func (sp Spec) CheckCommand(command string) error {
	if sp.Flavor == "cmd" && strings.ContainsAny(command, "\r\n") {
		return errors.New(errCmdNewline)
	}
	return nil
}
