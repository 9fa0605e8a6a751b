package plugins

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hookPlugin writes a plugin with this hooks.json and returns it active.
func hookPlugin(t *testing.T, dir, name, hooksJSON string) Plugin {
	t.Helper()
	root := filepath.Join(dir, name)
	write(t, filepath.Join(root, "hooks", "hooks.json"), hooksJSON)
	return Plugin{Name: name, Root: root, Scope: ScopeUser, State: Active}
}

func oneHook(event, matcher, action string) string {
	m := ""
	if matcher != "" {
		m = `"matcher":` + strconvQuote(matcher) + `,`
	}
	return `{"hooks":{"` + event + `":[{` + m + `"hooks":[` + action + `]}]}}`
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func cmd(command string, extra ...string) string {
	return `{"type":"command","command":` + strconvQuote(command) + strings.Join(extra, "") + `}`
}

func shellPayload(command string) Payload {
	p := Payload{Event: PreToolUse, SessionID: "s1", ToolCallID: "call_1", WorkingDir: "/w"}
	return p.ForTool("shell", map[string]any{"command": command})
}

func code(n int) *int { return &n }

// TestClassifyBoundaries pins goose's classify_output, case by case.
func TestClassifyBoundaries(t *testing.T) {
	cases := []struct {
		name           string
		r              run
		want           verdict
		reason         string
		stdinDelivered bool
	}{
		{"exit 2 denies with stderr", run{code: code(2), stdout: []byte("\xff"), stderr: []byte("  path is protected  ")}, vDeny, "path is protected", true},
		{"exit 2 without stderr", run{code: code(2)}, vDeny, DefaultDenyReason, true},
		{"block JSON at exit 1", run{code: code(1), stdout: []byte(`{"decision":"block","reason":"nope"}`)}, vDeny, "nope", true},
		{"block JSON without reason", run{code: code(0), stdout: []byte(`{"decision":"block"}`)}, vDeny, DefaultDenyReason, true},
		{"empty stdout allows", run{code: code(0)}, vAllow, "", true},
		{"allow JSON allows", run{code: code(0), stdout: []byte(` {"decision":"allow"} `)}, vAllow, "", true},
		{"allow JSON at exit 1", run{code: code(1), stdout: []byte(`{"decision":"allow"}`)}, vFail, "the hook exited with status 1 and no usable decision", true},
		{"unknown decision", run{code: code(0), stdout: []byte(`{"decision":"maybe"}`)}, vFail, "the hook exited 0 without an allow or block decision on stdout", true},
		{"approve is not allow", run{code: code(0), stdout: []byte(`{"decision":"approve"}`)}, vFail, "the hook exited 0 without an allow or block decision on stdout", true},
		{"malformed JSON", run{code: code(0), stdout: []byte(`{"decision" "allow"}`)}, vFail, "the hook exited 0 without an allow or block decision on stdout", true},
		{"stray stdout", run{code: code(0), stdout: []byte("ok\n")}, vFail, "the hook exited 0 without an allow or block decision on stdout", true},
		{"invalid UTF-8", run{code: code(0), stdout: []byte("\xff")}, vFail, "the hook wrote invalid UTF-8 to stdout", true},
		{"exit 3", run{code: code(3)}, vFail, "the hook exited with status 3 and no usable decision", true},
		{"signal", run{}, vFail, "the hook was terminated by a signal", true},
		{"no payload, exit 0", run{code: code(0)}, vFail, StdinFailedReason, false},
		{"no payload, still denies", run{code: code(2), stderr: []byte("no")}, vDeny, "no", false},
	}
	for _, c := range cases {
		c.r.stdinDelivered = c.stdinDelivered
		v, reason := classify(c.r)
		if v != c.want || reason != c.reason {
			t.Errorf("%s: got %v %q, want %v %q", c.name, v, reason, c.want, c.reason)
		}
	}
}

func TestLoadHooksFileRules(t *testing.T) {
	dir := t.TempDir()
	ok := hookPlugin(t, dir, "ok", `{"hooks":{
		"NotAnEvent":{"anything":1},
		"PreToolUse":[
			{"matcher":"[invalid","hooks":[{"command":"a"}]},
			{"matcher":"","hooks":[{"type":"prompt","prompt":"x"},{"command":null},{"type":null,"command":"b","timeout":5,"on_failure":"block"}]},
			{"hooks":[]}
		],
		"Stop":[{"hooks":[{"command":"c","on_failure":"whatever"}]}]
	}}`)
	h := LoadHooks([]Plugin{ok}, dir, nil)
	pre := h.rules[PreToolUse]
	if len(pre) != 1 || pre[0].matcher != nil || len(pre[0].actions) != 1 {
		t.Fatalf("PreToolUse rules = %+v", pre)
	}
	if a := pre[0].actions[0]; a.command != "b" || a.timeout != 5*time.Second || !a.block {
		t.Fatalf("action = %+v", a)
	}
	if s := h.rules[Stop]; len(s) != 1 || s[0].actions[0].timeout != DefaultTimeout || s[0].actions[0].block {
		t.Fatalf("Stop rules = %+v (on_failure is read for PreToolUse only)", s)
	}
	for _, bad := range []string{
		`{"hooks":{"PreToolUse":{"matcher":"x"}}}`,
		`{"hooks":{"PreToolUse":[{"matcher":5,"hooks":[]}]}}`,
		`{"hooks":{"PreToolUse":[{"hooks":["echo"]}]}}`,
		`{"hooks":{"PreToolUse":[{"hooks":[{"type":1,"command":"x"}]}]}}`,
		`{"hooks":{"PreToolUse":[{"hooks":[{"command":["x"]}]}]}}`,
		`{"hooks":{"PreToolUse":[{"hooks":[{"command":"x","timeout":-1}]}]}}`,
		`{"hooks":{"PreToolUse":[{"hooks":[{"command":"x","on_failure":"deny"}]}]}}`,
		`not json`,
	} {
		p := hookPlugin(t, t.TempDir(), "bad", bad)
		if h := LoadHooks([]Plugin{p}, dir, nil); !h.Empty() {
			t.Errorf("malformed file loaded: %s", bad)
		}
	}
	// A plugin that does not run loads nothing.
	waiting := ok
	waiting.State = AwaitingConsent
	if h := LoadHooks([]Plugin{waiting}, dir, nil); !h.Empty() {
		t.Fatal("a plugin waiting for consent loaded hooks")
	}
}

// TestPayloadJSON pins goose's HookContext field names and order.
func TestPayloadJSON(t *testing.T) {
	p := shellPayload("ls -la")
	b, _ := json.Marshal(p)
	if want := `{"event":"PreToolUse","session_id":"s1","matcher_context":"shell","tool_call_id":"call_1","tool_name":"shell","tool_input":{"command":"ls -la"},"working_dir":"/w"}`; string(b) != want {
		t.Fatalf("PreToolUse payload\n got %s\nwant %s", b, want)
	}
	b, _ = json.Marshal(Payload{Event: SessionStart, SessionID: "s1"})
	if want := `{"event":"SessionStart","session_id":"s1","matcher_context":null}`; string(b) != want {
		t.Fatalf("SessionStart payload %s", b)
	}
	evaluated := true
	r := shellPayload("rm -rf /")
	r.Event, r.Decision, r.PolicyEvaluated, r.BlockedBy, r.Reason, r.Cause = PreToolUseResult, "deny", &evaluated, "guard", "no", CausePolicyDenial
	b, _ = json.Marshal(r)
	if want := `{"event":"PreToolUseResult","session_id":"s1","matcher_context":"shell","tool_call_id":"call_1","tool_name":"shell","tool_input":{"command":"rm -rf /"},"working_dir":"/w","decision":"deny","policy_evaluated":true,"blocked_by":"guard","reason":"no","cause":"policy_denial"}`; string(b) != want {
		t.Fatalf("PreToolUseResult payload\n got %s\nwant %s", b, want)
	}
	b, _ = json.Marshal(Payload{Event: UserPromptSubmit, SessionID: "s1", WorkingDir: "/w"}.WithMessage("hi"))
	if want := `{"event":"UserPromptSubmit","session_id":"s1","matcher_context":"hi","message":"hi","working_dir":"/w"}`; string(b) != want {
		t.Fatalf("UserPromptSubmit payload %s", b)
	}
}

func TestDecideChain(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	log := filepath.Join(dir, "ran.log")
	// The first plugin records its stdin and allows; the second denies
	// rm through stderr and exit 2; the third must not run.
	a := hookPlugin(t, dir, "a-recorder", oneHook("PreToolUse", "", cmd("cat > "+filepath.Join(dir, "payload.json"))))
	b := hookPlugin(t, dir, "b-guard", oneHook("PreToolUse", "^shell$", cmd(`grep -q '"rm ' && { echo "rm is not allowed" >&2; exit 2; }; exit 0`)))
	c := hookPlugin(t, dir, "c-after", oneHook("PreToolUse", "", cmd("echo c >> "+log)))
	h := LoadHooks([]Plugin{a, b, c}, dir, nil)
	out := h.Decide(ctx, PreToolUse, shellPayload("rm -rf build"))
	if !out.Denied || out.Plugin != "b-guard" || out.Reason != "rm is not allowed" || out.Cause != CausePolicyDenial || !out.Evaluated {
		t.Fatalf("outcome = %+v", out)
	}
	if want := "Tool call denied by policy hook `b-guard`: rm is not allowed. Do not retry; this is a policy denial, not a transient failure."; out.DenialText() != want {
		t.Fatalf("denial text %q", out.DenialText())
	}
	if _, err := os.Stat(log); err == nil {
		t.Fatal("a hook after the denial ran")
	}
	got, _ := os.ReadFile(filepath.Join(dir, "payload.json"))
	if !strings.Contains(string(got), `"tool_input":{"command":"rm -rf build"}`) {
		t.Fatalf("payload on stdin = %s", got)
	}
	if out := h.Decide(ctx, PreToolUse, shellPayload("ls")); out.Denied {
		t.Fatalf("ls denied: %+v", out)
	}
}

func TestDecideFailures(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	failing := hookPlugin(t, dir, "broken", oneHook("PreToolUse", "", cmd("echo boom >&2; exit 3")))
	out := LoadHooks([]Plugin{failing}, dir, nil).Decide(ctx, PreToolUse, shellPayload("ls"))
	if out.Denied || out.Cause != CauseHookFailure || out.Evaluated || len(out.Failures) != 1 || out.Failures[0].Reason != "the hook exited with status 3 and no usable decision" {
		t.Fatalf("fail-open outcome = %+v", out)
	}
	blocking := hookPlugin(t, t.TempDir(), "strict", oneHook("PreToolUse", "", cmd("exit 3", `,"on_failure":"block"`)))
	out = LoadHooks([]Plugin{blocking}, dir, nil).Decide(ctx, PreToolUse, shellPayload("ls"))
	if want := "Tool call blocked because policy hook `strict` could not complete: the hook exited with status 3 and no usable decision. That hook is configured to block on failure."; !out.Denied || out.DenialText() != want {
		t.Fatalf("on_failure block outcome = %+v %q", out, out.DenialText())
	}
	slow := hookPlugin(t, t.TempDir(), "slow", oneHook("PreToolUse", "", cmd("sleep 30", `,"timeout":1,"on_failure":"block"`)))
	start := time.Now()
	out = LoadHooks([]Plugin{slow}, dir, nil).Decide(ctx, PreToolUse, shellPayload("ls"))
	if !out.Denied || out.Reason != CommandFailedReason || time.Since(start) > 10*time.Second {
		t.Fatalf("timed-out hook = %+v after %s", out, time.Since(start))
	}
}

func TestEmitBannersAndFailures(t *testing.T) {
	dir := t.TempDir()
	banner := hookPlugin(t, dir, "a-banner", oneHook("SessionStart", "", cmd(`printf '{"banner":"3 tasks open"}'`)))
	plain := hookPlugin(t, dir, "b-plain", oneHook("SessionStart", "", cmd("echo just text")))
	broken := hookPlugin(t, dir, "c-broken", oneHook("SessionStart", "", cmd("echo oops >&2; exit 1")))
	out := LoadHooks([]Plugin{banner, plain, broken}, dir, nil).Emit(context.Background(), SessionStart, Payload{Event: SessionStart, SessionID: "s"})
	if len(out.Banners) != 1 || out.Banners[0] != "3 tasks open" {
		t.Fatalf("banners = %q", out.Banners)
	}
	if len(out.Failures) != 1 || out.Failures[0].Plugin != "c-broken" || out.Failures[0].Reason != "the hook exited with status 1: oops" {
		t.Fatalf("failures = %+v", out.Failures)
	}
}

func TestMatcherTargets(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	p := hookPlugin(t, dir, "m", `{"hooks":{
		"BeforeShellExecution":[{"matcher":"^git push","hooks":[{"command":"echo shell >> `+log+`"}]}],
		"SessionStart":[{"matcher":"x","hooks":[{"command":"echo never >> `+log+`"}]}]}}`)
	h := LoadHooks([]Plugin{p}, dir, nil)
	ctx := context.Background()
	base := Payload{Event: BeforeShellExecution, SessionID: "s"}.ForTool("shell", map[string]any{"command": "git status"})
	h.Emit(ctx, BeforeShellExecution, base.WithMatcher("git status"))
	h.Emit(ctx, BeforeShellExecution, base.WithMatcher("git push origin"))
	h.Emit(ctx, SessionStart, Payload{Event: SessionStart, SessionID: "s"})
	if got, _ := os.ReadFile(log); string(got) != "shell\n" {
		t.Fatalf("ran: %q", got)
	}
}

// TestPayloadDelivery: a small payload reaches even a hook that never
// reads it; a 1 MiB one does not reach a hook that exits at once, and that
// hook cannot allow (goose's stdin rule), though it could still deny.
func TestPayloadDelivery(t *testing.T) {
	dir := t.TempDir()
	quick := hookPlugin(t, dir, "quick", oneHook("PreToolUse", "", cmd("exit 0", `,"on_failure":"block"`)))
	h := LoadHooks([]Plugin{quick}, dir, nil)
	ctx := context.Background()
	for range 20 {
		if out := h.Decide(ctx, PreToolUse, shellPayload("ls")); out.Denied || out.Cause != "" {
			t.Fatalf("small payload: %+v", out)
		}
	}
	big := shellPayload(strings.Repeat("x", 1<<20))
	if out := h.Decide(ctx, PreToolUse, big); !out.Denied || out.Reason != StdinFailedReason || out.Cause != CauseHookFailure {
		t.Fatalf("1 MiB payload to a hook that exits at once: %+v", out)
	}
}
