package plugins

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Reasons goose gives for a hook that produced no decision.
const (
	DefaultDenyReason   = "denied by plugin hook"
	CommandFailedReason = "the hook command failed to run"
	StdinFailedReason   = "the hook did not receive the request payload"
)

// Causes of a PreToolUse outcome (PreToolUseResult's cause).
const (
	CausePolicyDenial = "policy_denial"
	CauseHookFailure  = "hook_failure"
)

// Failure is a hook that failed to run or to decide; it failed open
// unless it denied (on_failure: block).
type Failure struct {
	Plugin string
	Event  Event
	Reason string
}

// Outcome is what a blocking chain (PreToolUse, Stop) decided.
type Outcome struct {
	// Denied, with the plugin that denied and its reason.
	Denied         bool
	Plugin, Reason string
	// Cause is CausePolicyDenial or CauseHookFailure (a failure that
	// denied, or one that failed open); "" when every hook allowed.
	Cause string
	// Evaluated: a matching hook ran to an exit 0 or a decision.
	Evaluated bool
	Failures  []Failure
	// Context is additionalContext a Claude Code hook returned.
	Context []string
}

// DenialText is what the model reads for a denied tool call (goose's
// hook_denied and hook_failed texts).
func (o Outcome) DenialText() string {
	if o.Cause == CauseHookFailure {
		return fmt.Sprintf("Tool call blocked because policy hook `%s` could not complete: %s. That hook is configured to block on failure.", o.Plugin, o.Reason)
	}
	return fmt.Sprintf("Tool call denied by policy hook `%s`: %s. Do not retry; this is a policy denial, not a transient failure.", o.Plugin, o.Reason)
}

type verdict int

const (
	vAllow verdict = iota
	vDeny
	vFail
)

// classify is goose's classify_output (plus the stdin check): exit 2
// denies with stderr; a {"decision":"block"} object on stdout denies at any
// exit; exit 0 with empty stdout or {"decision":"allow"} allows; anything
// else is a failure.
func classify(r run) (verdict, string) {
	if r.code != nil && *r.code == 2 {
		return vDeny, orDefault(strings.TrimSpace(strings.ToValidUTF8(string(r.stderr), "\uFFFD")))
	}
	v, reason := classifyStdout(r)
	if !r.stdinDelivered && v != vDeny {
		return vFail, StdinFailedReason
	}
	return v, reason
}

func classifyStdout(r run) (verdict, string) {
	if !utf8.Valid(r.stdout) {
		return vFail, "the hook wrote invalid UTF-8 to stdout"
	}
	trimmed := strings.TrimSpace(string(r.stdout))
	var resp struct {
		Decision *string `json:"decision"`
		Reason   *string `json:"reason"`
	}
	parsed := strings.HasPrefix(trimmed, "{") && json.Unmarshal([]byte(trimmed), &resp) == nil
	decision := ""
	if parsed && resp.Decision != nil {
		decision = *resp.Decision
	}
	if decision == "block" {
		reason := ""
		if resp.Reason != nil {
			reason = *resp.Reason
		}
		return vDeny, orDefault(reason)
	}
	if r.code != nil && *r.code == 0 && (trimmed == "" || decision == "allow") {
		return vAllow, ""
	}
	switch {
	case r.code == nil:
		return vFail, "the hook was terminated by a signal"
	case *r.code == 0:
		return vFail, "the hook exited 0 without an allow or block decision on stdout"
	default:
		return vFail, fmt.Sprintf("the hook exited with status %d and no usable decision", *r.code)
	}
}

func orDefault(s string) string {
	if s == "" {
		return DefaultDenyReason
	}
	return s
}

// matching lists the rules for ev whose matcher matches the payload.
func (h *Hooks) matching(ev Event, p Payload) []rule {
	if h == nil {
		return nil
	}
	var out []rule
	for _, r := range h.rules[ev] {
		if r.matches(p) {
			out = append(out, r)
		}
	}
	return out
}

func (r rule) matches(p Payload) bool {
	if r.matcher == nil {
		return true
	}
	target := p.target()
	if r.claude && p.ToolName != "" {
		target = claudeToolName(p.ToolName, p.ToolInput)
	}
	return r.matcher.MatchString(target)
}

// exec runs one action of r with the payload serialised for r's kind.
func (h *Hooks) exec(ctx context.Context, r rule, a action, p Payload) (run, error) {
	var (
		b   []byte
		err error
		env []string
	)
	if r.claude {
		b, err = json.Marshal(p.claude(h.dir))
		env = []string{"CLAUDE_PROJECT_DIR=" + r.project}
	} else {
		b, err = json.Marshal(p)
	}
	if err != nil {
		return run{}, err
	}
	root := r.root
	if r.claude {
		root = ""
	}
	return runCommand(ctx, a.command, root, h.dir, env, b, a.timeout)
}

// Decide runs a blocking chain (PreToolUse, Stop) as goose's
// emit_blocking does: rules in order, each matching action in turn; the
// first denial ends the chain. A hook that fails fails open (recorded in
// Failures) unless it is a PreToolUse action with on_failure: block.
func (h *Hooks) Decide(ctx context.Context, ev Event, p Payload) Outcome {
	var out Outcome
	for _, r := range h.matching(ev, p) {
		for _, a := range r.actions {
			res, err := h.exec(ctx, r, a, p)
			var v verdict
			var reason string
			evaluated := false
			switch {
			case err != nil:
				h.log.Warn("Plugin hook could not be executed", "plugin", r.plugin, "event", ev, "error", err)
				v, reason = vFail, CommandFailedReason
			case r.claude:
				v, reason = classifyClaude(ev, res)
				evaluated = res.code != nil && *res.code == 0 || v == vDeny
				out.Context = append(out.Context, claudeContext(ev, res)...)
			default:
				v, reason = classify(res)
				evaluated = res.code != nil && *res.code == 0 || v == vDeny
			}
			out.Evaluated = out.Evaluated || evaluated
			switch v {
			case vDeny:
				h.log.Info("Plugin hook denied", "plugin", r.plugin, "event", ev, "reason", reason)
				out.Denied, out.Plugin, out.Reason, out.Cause = true, r.plugin, reason, CausePolicyDenial
				return out
			case vFail:
				if a.block && ev == PreToolUse {
					out.Denied, out.Plugin, out.Reason, out.Cause = true, r.plugin, reason, CauseHookFailure
					return out
				}
				h.log.Warn("Plugin hook failed; continuing without it", "plugin", r.plugin, "event", ev, "reason", reason)
				out.Cause = CauseHookFailure
				out.Failures = append(out.Failures, Failure{Plugin: r.plugin, Event: ev, Reason: reason})
			}
		}
	}
	return out
}

// Emitted is what a non-blocking event's hooks left behind.
type Emitted struct {
	Failures []Failure
	// Banners are SessionStart {"banner": …} lines.
	Banners []string
	// Context is additionalContext (or plain stdout) of Claude Code
	// UserPromptSubmit and SessionStart hooks.
	Context []string
}

// Emit runs every matching action of a non-blocking event; their exit
// codes and stdout decide nothing. A non-zero exit or a failure to run is
// logged and returned.
func (h *Hooks) Emit(ctx context.Context, ev Event, p Payload) Emitted {
	var out Emitted
	for _, r := range h.matching(ev, p) {
		for _, a := range r.actions {
			res, err := h.exec(ctx, r, a, p)
			reason := ""
			switch {
			case err != nil:
				reason = err.Error()
			case res.code == nil:
				reason = "the hook was terminated by a signal"
			case *res.code != 0:
				reason = fmt.Sprintf("the hook exited with status %d", *res.code)
				if msg := strings.TrimSpace(strings.ToValidUTF8(string(res.stderr), "\uFFFD")); msg != "" {
					reason += ": " + msg
				}
			}
			if reason != "" {
				h.log.Warn("Plugin hook failed", "plugin", r.plugin, "event", ev, "error", reason)
				out.Failures = append(out.Failures, Failure{Plugin: r.plugin, Event: ev, Reason: reason})
				continue
			}
			if r.claude {
				out.Context = append(out.Context, claudeContext(ev, res)...)
			} else if ev == SessionStart {
				if b := banner(res.stdout); b != "" {
					out.Banners = append(out.Banners, b)
				}
			}
		}
	}
	return out
}

// banner is a SessionStart hook's {"banner": "…"} line.
func banner(stdout []byte) string {
	trimmed := strings.TrimSpace(string(stdout))
	if !strings.HasPrefix(trimmed, "{") {
		return ""
	}
	var v struct {
		Banner *string `json:"banner"`
	}
	if json.Unmarshal([]byte(trimmed), &v) != nil || v.Banner == nil {
		return ""
	}
	return *v.Banner
}
