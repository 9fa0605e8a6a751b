package e2e

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// matrixOutcome is one classified answer of the registry's protocol matrix.
type matrixOutcome struct {
	Status  string `json:"status"`
	Code    *int   `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
}

type matrixReport struct {
	Initialize      matrixOutcome            `json:"initialize"`
	ProtocolVersion int                      `json:"protocolVersion"`
	AuthMethods     []string                 `json:"authMethods"`
	Capabilities    map[string]bool          `json:"capabilities"`
	SessionNew      matrixOutcome            `json:"sessionNew"`
	SetModelSignal  bool                     `json:"setModelSignal"`
	MethodProbes    map[string]matrixOutcome `json:"methodProbes"`
	Violations      []json.RawMessage        `json:"violations"`
}

// runRegistryMatrix probes the binary as the ACP registry's daily protocol
// matrix does (e2e/node/registry_matrix.mjs sends its requests byte for
// byte) and returns the classified report.
func runRegistryMatrix(t *testing.T, env *agentEnv) matrixReport {
	t.Helper()
	dir := nodeHarness(t)
	work := t.TempDir()
	cmd := exec.Command("node", "registry_matrix.mjs")
	cmd.Dir = dir
	cmd.Env = append(env.environ(), "GOOSE_ACP_BIN="+binary, "WORKDIR="+work, "TERM=dumb")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("registry matrix: %v\n%s", err, out)
	}
	var r matrixReport
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("report %q: %v", out, err)
	}
	if len(r.Violations) > 0 {
		t.Errorf("schema violations: %s", r.Violations)
	}
	t.Logf("matrix report: %s", out)
	return r
}

func statuses(r matrixReport) map[string]string {
	out := map[string]string{"initialize": r.Initialize.Status, "session/new": r.SessionNew.Status}
	for m, o := range r.MethodProbes {
		out[m] = o.Status
	}
	return out
}

// The registry's matrix runs unauthenticated, on a machine with no goose
// configuration: initialize lists the sign-in methods, session/new is
// -32000 whose message says what to run, and the feature probes on the
// probe's made-up session id are answered as the matrix counts support
// (list works, fork and resume of an unknown id -32002). With a provider
// configured every probe, legacy session/set_model and close included,
// succeeds on the real session.
func TestRegistryProtocolMatrix(t *testing.T) {
	caps := map[string]bool{"loadSession": true, "sessionList": true, "sessionFork": true, "sessionResume": true, "sessionClose": true}
	t.Run("unconfigured", func(t *testing.T) {
		env := newAgentEnv(t)
		unconfigured(env)
		r := runRegistryMatrix(t, env)
		if r.ProtocolVersion != 1 || strings.Join(r.AuthMethods, ",") != "agent,terminal" {
			t.Errorf("protocolVersion %d authMethods %v", r.ProtocolVersion, r.AuthMethods)
		}
		if !mapsEqual(r.Capabilities, caps) {
			t.Errorf("capabilities %v", r.Capabilities)
		}
		want := map[string]string{"initialize": "success", "session/new": "auth_required", "session/list": "success",
			"session/fork": "resource_not_found", "session/resume": "resource_not_found", "session/set_model": "resource_not_found",
			"session/close": "not_probed"}
		if got := statuses(r); !mapsEqual(got, want) {
			t.Errorf("probes\n got %v\nwant %v", got, want)
		}
		if r.SessionNew.Code == nil || *r.SessionNew.Code != -32000 || !strings.Contains(r.SessionNew.Message, "`goose-acp configure`") {
			t.Errorf("session/new answer %+v: the message must say to run goose-acp configure", r.SessionNew)
		}
		if r.SetModelSignal {
			t.Error("models exposed without a session")
		}
	})
	t.Run("configured", func(t *testing.T) {
		r := runRegistryMatrix(t, newAgentEnv(t))
		want := map[string]string{"initialize": "success", "session/new": "success", "session/list": "success",
			"session/fork": "success", "session/resume": "success", "session/set_model": "success", "session/close": "success"}
		if got := statuses(r); !mapsEqual(got, want) {
			t.Errorf("probes\n got %v\nwant %v", got, want)
		}
		if !r.SetModelSignal || !mapsEqual(r.Capabilities, caps) {
			t.Errorf("set_model signal %v capabilities %v", r.SetModelSignal, r.Capabilities)
		}
	})
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
