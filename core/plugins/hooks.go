package plugins

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// Event is a lifecycle event name as hooks.json spells it.
type Event string

// goose's twelve lifecycle events.
const (
	PreToolUse           Event = "PreToolUse"
	PreToolUseResult     Event = "PreToolUseResult"
	PostToolUse          Event = "PostToolUse"
	PostToolUseFailure   Event = "PostToolUseFailure"
	SessionStart         Event = "SessionStart"
	SessionEnd           Event = "SessionEnd"
	UserPromptSubmit     Event = "UserPromptSubmit"
	BeforeReadFile       Event = "BeforeReadFile"
	AfterFileEdit        Event = "AfterFileEdit"
	BeforeShellExecution Event = "BeforeShellExecution"
	AfterShellExecution  Event = "AfterShellExecution"
	Stop                 Event = "Stop"
)

var knownEvents = map[Event]bool{
	PreToolUse: true, PreToolUseResult: true, PostToolUse: true, PostToolUseFailure: true,
	SessionStart: true, SessionEnd: true, UserPromptSubmit: true, BeforeReadFile: true,
	AfterFileEdit: true, BeforeShellExecution: true, AfterShellExecution: true, Stop: true,
}

// DefaultTimeout is goose's per-hook timeout (DEFAULT_HOOK_TIMEOUT_SECS).
const DefaultTimeout = 30 * time.Second

// action is one command a rule runs.
type action struct {
	command string
	timeout time.Duration
	// block: PreToolUse on_failure "block" (a failing hook denies).
	block bool
}

// rule is one hooks.json rule of one plugin.
type rule struct {
	plugin, root string
	matcher      *regexp.Regexp
	actions      []action
	// claude marks a Claude Code settings hook (claude.go).
	claude bool
	// project is the session's working dir (CLAUDE_PROJECT_DIR).
	project string
}

// Hooks are the loaded hook rules of a session's active plugins, by
// event, in plugin order. A nil *Hooks has none.
type Hooks struct {
	rules map[Event][]rule
	dir   string
	log   *slog.Logger
}

// Has reports whether any rule is registered for ev.
func (h *Hooks) Has(ev Event) bool { return h != nil && len(h.rules[ev]) > 0 }

// Empty reports that no rule is registered at all.
func (h *Hooks) Empty() bool { return h == nil || len(h.rules) == 0 }

// LoadHooks reads hooks/hooks.json of every Active plugin (and, for
// Claude plugins, their settings files). workingDir is where hooks run. A
// malformed file skips that plugin's hooks with a warning, as goose does.
func LoadHooks(plugins []Plugin, workingDir string, log *slog.Logger) *Hooks {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Hooks{rules: map[Event][]rule{}, dir: workingDir, log: log}
	for _, p := range plugins {
		if p.State != Active {
			continue
		}
		var rules map[Event][]rule
		var err error
		if p.claude != nil {
			rules, err = loadClaudeHooks(p, workingDir)
		} else {
			path := filepath.Join(p.Root, "hooks", "hooks.json")
			if fi, serr := os.Stat(path); serr != nil || !fi.Mode().IsRegular() {
				continue
			}
			rules, err = loadHooksFile(path, p.Name, p.Root, log)
		}
		if err != nil {
			log.Warn("Failed to load plugin hooks; skipping", "plugin", p.Name, "error", err)
			continue
		}
		for ev, rs := range rules {
			h.rules[ev] = append(h.rules[ev], rs...)
		}
	}
	if len(h.rules) == 0 {
		return nil
	}
	return h
}

type rawRule struct {
	Matcher *string           `json:"matcher"`
	Hooks   []json.RawMessage `json:"hooks"`
}

// loadHooksFile parses one hooks.json with goose's rules: unknown events
// and action types are ignored, an action without a command is ignored,
// an invalid matcher skips its rule, and anything malformed rejects the
// whole file.
func loadHooksFile(path, plugin, root string, log *slog.Logger) (map[Event][]rule, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var file struct {
		Hooks map[string]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		return nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	out := map[Event][]rule{}
	for name, raw := range file.Hooks {
		ev := Event(name)
		if !knownEvents[ev] {
			log.Debug("Ignoring unknown hook event", "plugin", plugin, "event", name)
			continue
		}
		rules, err := parseRules(ev, raw, path, plugin, root, log)
		if err != nil {
			return nil, err
		}
		out[ev] = rules
	}
	return out, nil
}

func parseRules(ev Event, raw json.RawMessage, path, plugin, root string, log *slog.Logger) ([]rule, error) {
	var raws []rawRule
	if err := json.Unmarshal(raw, &raws); err != nil {
		return nil, fmt.Errorf("reading `%s` rules in %s: %w", ev, path, err)
	}
	var out []rule
	for _, r := range raws {
		var actions []action
		for _, a := range r.Hooks {
			act, ok, err := parseAction(ev, a, path)
			if err != nil {
				return nil, err
			}
			if ok {
				actions = append(actions, act)
			}
		}
		var re *regexp.Regexp
		if r.Matcher != nil && *r.Matcher != "" {
			var err error
			re, err = regexp.Compile(*r.Matcher)
			if err != nil {
				log.Warn("Invalid hook matcher regex; skipping rule", "plugin", plugin, "pattern", *r.Matcher, "error", err)
				continue
			}
		}
		if len(actions) == 0 {
			continue
		}
		out = append(out, rule{plugin: plugin, root: root, matcher: re, actions: actions})
	}
	return out, nil
}

// parseAction selects a command action: an object whose type is absent,
// null or "command" and whose command is a string.
func parseAction(ev Event, raw json.RawMessage, path string) (action, bool, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return action{}, false, fmt.Errorf("hook action in %s must be an object", path)
	}
	if t, ok := obj["type"]; ok && string(t) != "null" {
		var s string
		if json.Unmarshal(t, &s) != nil {
			return action{}, false, fmt.Errorf("hook action `type` in %s must be a string", path)
		}
		if s != "command" {
			return action{}, false, nil
		}
	}
	c, ok := obj["command"]
	if !ok || string(c) == "null" {
		return action{}, false, nil
	}
	var a action
	if json.Unmarshal(c, &a.command) != nil {
		return action{}, false, fmt.Errorf("hook action `command` in %s must be a string", path)
	}
	a.timeout = DefaultTimeout
	if t, ok := obj["timeout"]; ok && string(t) != "null" {
		var secs uint64
		if err := json.Unmarshal(t, &secs); err != nil {
			return action{}, false, fmt.Errorf("reading hook action in %s: timeout: %w", path, err)
		}
		a.timeout = time.Duration(secs) * time.Second
	}
	if f, ok := obj["on_failure"]; ok && ev == PreToolUse {
		var s string
		if json.Unmarshal(f, &s) != nil || (s != "allow" && s != "block") {
			return action{}, false, fmt.Errorf("reading on_failure in %s: unknown variant %s, expected `allow` or `block`", path, f)
		}
		a.block = s == "block"
	}
	return a, true, nil
}
