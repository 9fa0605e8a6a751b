package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testEnv is a getenv over a private goose root.
func testEnv(t *testing.T, extra map[string]string) func(string) string {
	t.Helper()
	root := t.TempDir()
	vars := map[string]string{"GOOSE_PATH_ROOT": root, "HOME": root, "GOOSE_DISABLE_KEYRING": "1"}
	for k, v := range extra {
		vars[k] = v
	}
	return func(k string) string { return vars[k] }
}

func runCLI(t *testing.T, getenv func(string) string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut, getenv)
	return code, out.String(), errOut.String()
}

func TestVersionAndHelp(t *testing.T) {
	code, out, _ := runCLI(t, testEnv(t, nil), "", "--version")
	if code != 0 || !strings.HasPrefix(out, "goose-acp ") {
		t.Fatalf("--version: code %d, out %q", code, out)
	}
	code, out, errOut := runCLI(t, testEnv(t, nil), "", "--help")
	if code != 0 || out != "" || !strings.Contains(errOut, "goose-acp mcp developer") {
		t.Fatalf("--help: code %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestUnknownCommandAndBadFlag(t *testing.T) {
	if code, out, errOut := runCLI(t, testEnv(t, nil), "", "frobnicate"); code != 2 || out != "" || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, _ := runCLI(t, testEnv(t, nil), "", "--no-such-flag"); code != 2 {
		t.Fatalf("bad flag: code %d, want 2", code)
	}
	if code, _, errOut := runCLI(t, testEnv(t, nil), "", "--log-level", "loud"); code != 2 || !strings.Contains(errOut, `invalid log level "loud"`) {
		t.Fatalf("bad log level: code %d, stderr %q", code, errOut)
	}
}

// ACP on an empty stdin: the agent starts, sees EOF, shuts down cleanly
// and writes nothing to stdout (the protocol channel). An editor that
// asked for nothing leaves no session database behind; one that sent
// initialize gets it opened (and created) before the agent exits.
func TestACPExitsCleanlyOnEOFWithSilentStdout(t *testing.T) {
	getenv := testEnv(t, nil)
	db := filepath.Join(getenv("GOOSE_PATH_ROOT"), "data", "sessions", "sessions.db")
	code, out, errOut := runCLI(t, getenv, "")
	if code != 0 || out != "" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("sessions.db was created though the editor asked for nothing")
	}
	code, out, errOut = runCLI(t, getenv, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n")
	if code != 0 || !strings.Contains(out, `"protocolVersion":1`) {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("sessions.db was not created after initialize: %v", err)
	}
}

func TestCorruptConfigIsReportedAndKept(t *testing.T) {
	getenv := testEnv(t, nil)
	dir := filepath.Join(getenv("GOOSE_PATH_ROOT"), "config")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bad := "GOOSE_PROVIDER: openai\nextensions: [unclosed\n"
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, getenv, "")
	if code != 1 || out != "" || !strings.Contains(errOut, "config.yaml") || !strings.Contains(errOut, "line") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	if got, _ := os.ReadFile(path); string(got) != bad {
		t.Fatalf("config.yaml was changed to %q", got)
	}
}

func TestHTTPRefusesNonLoopbackWithoutFlag(t *testing.T) {
	for _, tc := range []struct {
		addr   string
		remote bool
		ok     bool
	}{
		{"127.0.0.1:3000", false, true},
		{"[::1]:3000", false, true},
		{"localhost:0", false, true},
		{"0.0.0.0:3000", false, false},
		{":3000", false, false},
		{"192.0.2.10:3000", false, false},
		{"0.0.0.0:3000", true, true},
	} {
		err := checkLoopback("--http", tc.addr, tc.remote)
		if (err == nil) != tc.ok {
			t.Errorf("checkLoopback(%q, %v) = %v, want ok=%v", tc.addr, tc.remote, err, tc.ok)
		}
	}
}

// `goose-acp agent` binds GOOSE_HOST like goosed, but a non-loopback host
// needs --allow-remote or GOOSE_ALLOW_REMOTE=true (goosed bound 0.0.0.0
// without asking).
func TestAgentRefusesNonLoopbackHostWithoutOptIn(t *testing.T) {
	for _, host := range []string{"0.0.0.0", "::"} {
		env := testEnv(t, map[string]string{"GOOSE_HOST": host, "GOOSE_PORT": "0", "GOOSE_TLS": "false"})
		code, out, errOut := runCLI(t, env, "", "agent")
		want := "goose-acp agent: GOOSE_HOST \"" + net.JoinHostPort(host, "0") + "\" is not a loopback address; pass --allow-remote (or set GOOSE_ALLOW_REMOTE=true)"
		if code != 2 || out != "" || !strings.Contains(errOut, want) {
			t.Errorf("GOOSE_HOST=%s: code %d, stdout %q, stderr %q", host, code, out, errOut)
		}
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
	}{
		{map[string]string{"GOOSE_ALLOW_REMOTE": "true"}, []string{"agent"}},
		{nil, []string{"agent", "--allow-remote"}},
		{nil, []string{"--allow-remote", "agent"}},
	} {
		vars := map[string]string{"GOOSE_HOST": "0.0.0.0", "GOOSE_PORT": "0", "GOOSE_TLS": "false"}
		for k, v := range tc.env {
			vars[k] = v
		}
		// The agent starts and is stopped by the deadline; under load it may
		// be stopped before it listens, so only the refusal is asserted.
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		var out, errOut bytes.Buffer
		code := run(ctx, tc.args, strings.NewReader(""), &out, &errOut, testEnv(t, vars))
		cancel()
		if code == 2 || strings.Contains(errOut.String(), "not a loopback") {
			t.Errorf("%v %v: code %d, stderr %q", tc.env, tc.args, code, errOut.String())
		}
	}
}
