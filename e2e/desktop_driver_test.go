package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/internal/npmtest"
)

// Desktop's contracts, both in the repository: Desktop 1.44's (goose
// d17d65f2) and Desktop 1.5x's (goose a14ab4dd).
const (
	desktop144Schema = "testdata/desktop-1.44"
	desktop15xSchema = "../acp/testdata/unstable"
)

// desktop144Serve is the argv Desktop 1.44's gooseServe.ts spawns (no
// --enable-scheduler: goose 1.44 always ran its scheduler).
var desktop144Serve = []string{"serve", "--platform", "desktop", "--host", "127.0.0.1", "--port", "$PORT"}

// desktopScript is what e2e/desktop/driver.mjs runs: Desktop's own
// requests, with Desktop's params, over @agentclientprotocol/sdk 1.5.0.
type desktopScript struct {
	ServeArgs     []string       `json:"serveArgs,omitempty"`
	ClientVersion string         `json:"clientVersion,omitempty"`
	Permission    string         `json:"permission,omitempty"`
	RecipeParams  map[string]any `json:"recipeParams,omitempty"`
	Steps         []desktopStep  `json:"steps"`
}

type desktopStep map[string]any

// dcall is a request (method verbatim); as names its result for later
// steps ("${as.field}") and for the test.
func dcall(as, method string, params any) desktopStep {
	return desktopStep{"call": method, "params": params, "as": as}
}

// dext is a _goose/unstable/* request.
func dext(as, method string, params any) desktopStep {
	return dcall(as, "_goose/unstable/"+method, params)
}

// withUntil repeats a step's request until the array field of its result
// is non-empty (15 s at most).
func withUntil(s desktopStep, field string) desktopStep {
	s["untilNonEmpty"] = field
	return s
}

func dreconnect() desktopStep { return desktopStep{"reconnect": true} }

// dwait waits for count session/update frames (custom: goose's
// _goose/unstable/session/update) of one kind for a session.
func dwait(sessionID, update string, custom bool, count int) desktopStep {
	return desktopStep{"waitFor": map[string]any{"sessionId": sessionID, "update": update, "custom": custom}, "count": count}
}

type desktopError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

type desktopResult struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *desktopError   `json:"error"`
}

type desktopFrame struct {
	Seq    int             `json:"seq"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type desktopRun struct {
	t          *testing.T
	Results    map[string]desktopResult `json:"results"`
	Steps      []map[string]any         `json:"steps"`
	Inbound    []desktopFrame           `json:"inbound"`
	Requests   []desktopFrame           `json:"requests"`
	Initialize []json.RawMessage        `json:"initialize"`
	Violations []json.RawMessage        `json:"violations"`
	Stderr     string                   `json:"stderr"`
}

// runDesktop runs script against the binary with env's goose home and mock
// LLM. Every answer must satisfy both Desktop versions' schemas (and the
// SDK's zod for standard frames); a violation fails the test.
func runDesktop(t *testing.T, env *agentEnv, script desktopScript) *desktopRun {
	t.Helper()
	dir := npmtest.Install(t, "desktop")
	if script.ServeArgs == nil {
		script.ServeArgs = desktop144Serve
	}
	b, err := json.Marshal(script)
	if err != nil {
		t.Fatal(err)
	}
	scriptPath := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(scriptPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s144, _ := filepath.Abs(desktop144Schema)
	s15x, _ := filepath.Abs(desktop15xSchema)
	work := env.Vars["WORKDIR"]
	if work == "" {
		work = t.TempDir()
	}
	cmd := exec.Command("node", "driver.mjs")
	cmd.Dir = dir
	cmd.Env = append(env.environ(), "GOOSE_ACP_BIN="+binary, "WORKDIR="+work, "DESKTOP_SCRIPT="+scriptPath,
		"DESKTOP_SCHEMAS=desktop-1.44="+s144+",desktop-1.5x="+s15x)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("driver.mjs: %v\n%s\n%s", err, out, stderr.String())
	}
	run := &desktopRun{t: t}
	if err := json.Unmarshal(lastJSONLine(out), run); err != nil {
		t.Fatalf("driver report: %v\n%s", err, out)
	}
	if d, ok := run.Results["!driver"]; ok {
		t.Fatalf("driver: %s\nagent stderr:\n%s", d.Error.Message, run.Stderr)
	}
	if len(run.Violations) > 0 {
		t.Errorf("answers Desktop's schemas reject:\n%s", joinRaw(run.Violations))
	}
	return run
}

func lastJSONLine(out []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if bytes.HasPrefix(lines[i], []byte("{")) {
			return lines[i]
		}
	}
	return nil
}

func joinRaw(rs []json.RawMessage) string {
	var sb strings.Builder
	for _, r := range rs {
		sb.Write(r)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// ok is the named step's result; the test fails if it answered an error.
func (r *desktopRun) ok(name string) json.RawMessage {
	r.t.Helper()
	res, found := r.Results[name]
	if !found {
		r.t.Fatalf("no step %q ran", name)
	}
	if res.Error != nil {
		r.t.Fatalf("%s (%s %s) answered error %d %s %s\nagent stderr:\n%s", name, res.Method, res.Params,
			res.Error.Code, res.Error.Message, res.Error.Data, r.Stderr)
	}
	return res.Result
}

// decode decodes the named step's result into v.
func (r *desktopRun) decode(name string, v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.ok(name), v); err != nil {
		r.t.Fatalf("%s: %v", name, err)
	}
}

// fail is the named step's error; the test fails if it succeeded.
func (r *desktopRun) fail(name string) desktopError {
	r.t.Helper()
	res := r.Results[name]
	if res.Error == nil {
		r.t.Fatalf("%s (%s) succeeded, want an error: %s", name, res.Method, res.Result)
	}
	return *res.Error
}

// updates are the session/update (custom: _goose/unstable/session/update)
// payloads for a session, in order.
func (r *desktopRun) updates(sessionID string, custom bool) []map[string]any {
	want := "session/update"
	if custom {
		want = "_goose/unstable/session/update"
	}
	var out []map[string]any
	for _, f := range r.Inbound {
		if f.Method != want {
			continue
		}
		var p struct {
			SessionID string         `json:"sessionId"`
			Update    map[string]any `json:"update"`
		}
		if json.Unmarshal(f.Params, &p) == nil && p.SessionID == sessionID {
			out = append(out, p.Update)
		}
	}
	return out
}

// updatesOfKind filters updates by their sessionUpdate tag.
func updatesOfKind(us []map[string]any, kind string) []map[string]any {
	var out []map[string]any
	for _, u := range us {
		if u["sessionUpdate"] == kind {
			out = append(out, u)
		}
	}
	return out
}

// djson re-encodes v (for exact comparisons of decoded values).
func djson(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// framesAfter are the inbound notifications that arrived after the named
// step was sent.
func (r *desktopRun) framesAfter(name string) []desktopFrame {
	r.t.Helper()
	for _, s := range r.Steps {
		if s["as"] == name {
			after, _ := s["afterSeq"].(float64)
			var out []desktopFrame
			for _, f := range r.Inbound {
				if float64(f.Seq) > after {
					out = append(out, f)
				}
			}
			return out
		}
	}
	r.t.Fatalf("no step %q", name)
	return nil
}
