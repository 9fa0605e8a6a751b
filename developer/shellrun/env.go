package shellrun

import (
	"slices"
	"strings"
)

// Messages of the editor stubs: interactive git and editors fail loudly
// instead of hanging a non-interactive command.
const (
	gitEditorStub = `sh -c 'echo "Interactive Git commands are not supported in this environment." >&2; exit 1'`
	editorStub    = `sh -c 'echo "Interactive editor not available in this environment." >&2; exit 1'`
	gitEditorWin  = `cmd /c "echo Interactive Git commands are not supported in this environment. 1>&2 & exit /b 1"`
	editorWin     = `cmd /c "echo Interactive editor not available in this environment. 1>&2 & exit /b 1"`
)

// EnvOverrides is what every shell run sets on top of the inherited
// environment (goose's configure_shell_command). A "" value means unset.
func EnvOverrides(goos, sessionID, bashEnv string, sp Spec) map[string]string {
	gitEd, ed := gitEditorStub, editorStub
	if goos == "windows" {
		gitEd, ed = gitEditorWin, editorWin
	}
	env := map[string]string{
		"GOOSE_TERMINAL":      "1",
		"AGENT":               "goose",
		"GIT_TERMINAL_PROMPT": "0",
		"GIT_PAGER":           "cat",
		"GIT_EDITOR":          gitEd,
		"GIT_SEQUENCE_EDITOR": gitEd,
		"VISUAL":              ed,
		"EDITOR":              ed,
		"AGENT_SESSION_ID":    sessionID, // removed when the call has none
	}
	if bashEnv != "" && sp.IsBash() {
		env["BASH_ENV"] = bashEnv
	}
	return env
}

// MergeEnv applies overrides to a KEY=VALUE environment; "" values remove
// the key. Keys compare case-insensitively on Windows.
func MergeEnv(base []string, overrides map[string]string, goos string) []string {
	norm := func(k string) string {
		if goos == "windows" {
			return strings.ToUpper(k)
		}
		return k
	}
	over := make(map[string]string, len(overrides))
	for k, v := range overrides {
		over[norm(k)] = v
	}
	out := make([]string, 0, len(base)+len(overrides))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := over[norm(k)]; ok {
			continue
		}
		out = append(out, kv)
	}
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if v := overrides[k]; v != "" {
			out = append(out, k+"="+v)
		}
	}
	return out
}
