package plugins

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ClaudeHooksEnv turns on Claude Code's settings.json hooks.
const ClaudeHooksEnv = "GOOSE_CLAUDE_HOOKS"

// ClaudePlugin is the name Claude Code settings hooks run under (in
// denials, notices and goose-acp plugin enable).
const ClaudePlugin = "claude"

// claudeDefaultTimeout is Claude Code's command hook timeout.
const claudeDefaultTimeout = 60 * time.Second

// claudeHooksOn reports GOOSE_CLAUDE_HOOKS=true (or 1).
func (e Env) claudeHooksOn() bool {
	on, _ := strconv.ParseBool(strings.TrimSpace(e.getenv(ClaudeHooksEnv)))
	return on
}

// claudePlugins are the Claude Code settings files with hooks, as
// plugins: the user's (~/.claude/settings.json) and the project's
// (.claude/settings.json and settings.local.json), which like any project
// plugin wait for the user's consent.
func (e Env) claudePlugins(project string) []Plugin {
	if !e.claudeHooksOn() {
		return nil
	}
	var out []Plugin
	if project != "" {
		root := filepath.Join(project, ".claude")
		if files := withHooks(root, "settings.json", "settings.local.json"); len(files) > 0 {
			out = append(out, Plugin{Name: ClaudePlugin, Root: root, Scope: ScopeProject, claude: files})
		}
	}
	if e.Home != "" {
		root := filepath.Join(e.Home, ".claude")
		if files := withHooks(root, "settings.json"); len(files) > 0 {
			out = append(out, Plugin{Name: ClaudePlugin, Root: root, Scope: ScopeUser, claude: files})
		}
	}
	return out
}

// withHooks lists the named settings files under root that declare hooks.
func withHooks(root string, names ...string) []string {
	var out []string
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(root, n))
		if err != nil {
			continue
		}
		var f struct {
			Hooks map[string]json.RawMessage `json:"hooks"`
		}
		if json.Unmarshal(b, &f) == nil && len(f.Hooks) > 0 {
			out = append(out, filepath.Join(root, n))
		}
	}
	return out
}

// claudeRef finds $CLAUDE_PROJECT_DIR/… paths in a command.
var claudeRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$(?:\{CLAUDE_PROJECT_DIR\}|CLAUDE_PROJECT_DIR)/([^\s'"` + "`" + `;|&<>()$]+)`)
})

// claudeHash hashes a project's Claude settings files and the scripts
// their hooks name under $CLAUDE_PROJECT_DIR.
func claudeHash(root string) string {
	project := filepath.Dir(root)
	return hashFiles(project, []string{".claude/settings.json", ".claude/settings.local.json"}, claudeRef())
}

// loadClaudeHooks reads the hooks of a Claude settings plugin. Matchers
// are Claude's: "" or "*" match every tool, anything else is a regular
// expression matched against the whole Claude tool name.
func loadClaudeHooks(p Plugin, project string) (map[Event][]rule, error) {
	out := map[Event][]rule{}
	for _, path := range p.claude {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var file struct {
			Hooks map[string][]struct {
				Matcher string `json:"matcher"`
				Hooks   []struct {
					Type    string `json:"type"`
					Command string `json:"command"`
					Timeout *int64 `json:"timeout"`
				} `json:"hooks"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(b, &file); err != nil {
			return nil, fmt.Errorf("parsing %s: %w", path, err)
		}
		for name, rules := range file.Hooks {
			ev := Event(name)
			if !claudeEvents[ev] {
				continue
			}
			for _, r := range rules {
				var actions []action
				for _, h := range r.Hooks {
					if (h.Type != "" && h.Type != "command") || h.Command == "" {
						continue
					}
					a := action{command: h.Command, timeout: claudeDefaultTimeout}
					if h.Timeout != nil && *h.Timeout > 0 {
						a.timeout = time.Duration(*h.Timeout) * time.Second
					}
					actions = append(actions, a)
				}
				if len(actions) == 0 {
					continue
				}
				nr := rule{plugin: p.Name, root: p.Root, actions: actions, claude: true, project: project}
				if m := r.Matcher; m != "" && m != "*" {
					re, err := regexp.Compile("^(?:" + m + ")$")
					if err != nil {
						continue
					}
					nr.matcher = re
				}
				out[ev] = append(out[ev], nr)
			}
		}
	}
	return out, nil
}

// claudeEvents are the Claude Code events goose-acp has a point for.
var claudeEvents = map[Event]bool{
	PreToolUse: true, PostToolUse: true, PostToolUseFailure: true, UserPromptSubmit: true,
	Stop: true, SessionStart: true, SessionEnd: true,
}

// claudeToolName is our tool as Claude Code names it: the developer tools
// by their Claude equivalents (Bash, Read, Write, Edit, LS, WebFetch), an
// extension's tool ext__tool as mcp__ext__tool, anything else as is.
func claudeToolName(name string, input json.RawMessage) string {
	ext, bare, prefixed := strings.Cut(name, "__")
	if !prefixed {
		bare, ext = name, ""
	}
	if ext == "" || ext == "developer" {
		switch bare {
		case "shell", "bash":
			return "Bash"
		case "read", "view":
			return "Read"
		case "write":
			return "Write"
		case "edit":
			return "Edit"
		case "tree":
			return "LS"
		case "web_fetch":
			return "WebFetch"
		case "text_editor":
			var args struct {
				Command string `json:"command"`
			}
			_ = json.Unmarshal(input, &args)
			switch args.Command {
			case "view":
				return "Read"
			case "write", "create":
				return "Write"
			}
			return "Edit"
		}
	}
	if prefixed {
		return "mcp__" + ext + "__" + bare
	}
	return name
}

// claudeOutput is what a Claude Code hook may print.
type claudeOutput struct {
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	HookSpecificOutput struct {
		PermissionDecision       string          `json:"permissionDecision"`
		PermissionDecisionReason string          `json:"permissionDecisionReason"`
		AdditionalContext        string          `json:"additionalContext"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
	} `json:"hookSpecificOutput"`
}

// The reasons a PreToolUse call is refused when a Claude Code hook asks
// for what goose-acp cannot do from a hook: ask the user, or run the tool
// with other input. Letting the call run unchanged would drop the hook's
// policy without a word.
const (
	claudeAskRefused    = `the hook asks the user to confirm this call (permissionDecision "ask"), which goose-acp cannot ask from a hook, so the call is refused`
	claudeUpdateRefused = `the hook rewrites this call's input (updatedInput), which goose-acp does not apply, so the call is refused rather than run with the original input`
)

func parseClaude(stdout []byte) (claudeOutput, bool) {
	var o claudeOutput
	t := strings.TrimSpace(string(stdout))
	return o, strings.HasPrefix(t, "{") && json.Unmarshal([]byte(t), &o) == nil
}

// classifyClaude reads a Claude Code hook's answer: exit 2 blocks with
// stderr; hookSpecificOutput.permissionDecision "deny" or decision "block"
// blocks with its reason; on PreToolUse, permissionDecision "ask" or an
// updatedInput refuses the call (claudeAskRefused, claudeUpdateRefused);
// exit 0 allows; any other exit is a failure (it fails open).
func classifyClaude(ev Event, r run) (verdict, string) {
	if r.code != nil && *r.code == 2 {
		return vDeny, orDefault(strings.TrimSpace(strings.ToValidUTF8(string(r.stderr), "\uFFFD")))
	}
	if o, ok := parseClaude(r.stdout); ok {
		hs := o.HookSpecificOutput
		if hs.PermissionDecision == "deny" {
			return vDeny, orDefault(hs.PermissionDecisionReason)
		}
		if o.Decision == "block" {
			return vDeny, orDefault(o.Reason)
		}
		if ev == PreToolUse && r.code != nil && *r.code == 0 {
			why := ""
			if hs.PermissionDecisionReason != "" {
				why = ": " + hs.PermissionDecisionReason
			}
			if hs.PermissionDecision == "ask" {
				return vDeny, claudeAskRefused + why
			}
			if u := strings.TrimSpace(string(hs.UpdatedInput)); u != "" && u != "null" {
				return vDeny, claudeUpdateRefused + why
			}
		}
	}
	switch {
	case r.code == nil:
		return vFail, "the hook was terminated by a signal"
	case *r.code != 0:
		return vFail, fmt.Sprintf("the hook exited with status %d", *r.code)
	}
	return vAllow, ""
}

// claudeContext is the context a successful Claude Code hook adds for
// the model: hookSpecificOutput.additionalContext, or for UserPromptSubmit
// and SessionStart its plain stdout.
func claudeContext(ev Event, r run) []string {
	if r.code == nil || *r.code != 0 {
		return nil
	}
	if o, ok := parseClaude(r.stdout); ok {
		if c := strings.TrimSpace(o.HookSpecificOutput.AdditionalContext); c != "" {
			return []string{c}
		}
		return nil
	}
	if ev == UserPromptSubmit || ev == SessionStart {
		if c := strings.TrimSpace(strings.ToValidUTF8(string(r.stdout), "\uFFFD")); c != "" {
			return []string{c}
		}
	}
	return nil
}
