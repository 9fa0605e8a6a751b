package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testRecipeConfig = "eyJ2ZXJzaW9uIjoiMS4wLjAiLCJ0aXRsZSI6IlRlc3QgUmVjaXBlIiwiZGVzY3JpcHRpb24iOiJBIHRlc3QgcmVjaXBlIGZvciBkZWVwbGluayBlbmNvZGluZy9kZWNvZGluZyIsImluc3RydWN0aW9ucyI6IkFjdCBhcyBhIGhlbHBmdWwgYXNzaXN0YW50In0"

func envFunc(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// checkGolden compares got with testdata/deeplink/<name>.json; set
// GOLDEN_UPDATE=1 to rewrite the files.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "deeplink", name+".json")
	if os.Getenv("GOLDEN_UPDATE") == "1" {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s: %v (run with GOLDEN_UPDATE=1)", path, err)
	}
	if got != string(want) {
		t.Fatalf("%s:\ngot  %s\nwant %s", name, got, want)
	}
}

func TestDeeplinkParseGolden(t *testing.T) {
	allow := filepath.Join("testdata", "deeplink", "allowlist.yaml")
	tests := []struct {
		name string
		args []string
		env  map[string]string
		code int
	}{
		{"extension_stdio", []string{"parse", "goose://extension?cmd=npx&arg=-y&arg=%40modelcontextprotocol%2Fserver-github&name=GitHub&env=GITHUB_TOKEN&installation_notes=Get+a+token"}, nil, 0},
		{"extension_remote", []string{"parse", "goose://extension?name=Remote&url=https%3A%2F%2Fmcp.example.com%2Fmcp&header=X-Team%3Dgoose&timeout=60"}, nil, 0},
		{"extension_allowlisted", []string{"parse", "--allowlist", allow, "goose://extension?cmd=uvx&arg=mcp_slack&name=Slack"}, nil, 0},
		{"extension_blocked", []string{"parse", "goose://extension?cmd=docker&arg=run&name=D", "--allowlist", allow}, nil, 1},
		{"extension_env_allowlist_warning", []string{"parse", "goose://extension?cmd=docker&arg=run&name=D"}, map[string]string{"GOOSE_ALLOWLIST": allow, "GOOSE_ALLOWLIST_WARNING": "true"}, 0},
		{"extension_allowlist_unreadable", []string{"parse", "--allowlist", filepath.Join("testdata", "deeplink", "missing.yaml"), "goose://extension?cmd=uvx&name=U"}, nil, 1},
		{"extension_npx_c", []string{"parse", "goose://extension?cmd=npx&arg=-c&arg=x&name=Evil"}, nil, 1},
		{"extension_invalid", []string{"parse", "goose://extension?cmd=npx"}, nil, 1},
		{"sessions", []string{"parse", "goose://sessions/abc123"}, nil, 0},
		{"sessions_empty", []string{"parse", "goose://sessions/"}, nil, 1},
		{"recipe", []string{"parse", "goose://recipe?config=" + testRecipeConfig + "&name=Alice&scheduledJob=nightly"}, nil, 0},
		{"bot_undecodable", []string{"parse", "goose://bot?config=%21%21"}, nil, 1},
		{"wrong_scheme", []string{"parse", "https://example.com"}, nil, 1},
		{"unsupported_route", []string{"parse", "goose://settings"}, nil, 1},
		{"parse_failed", []string{"parse", "goose://ext ension"}, nil, 1},
		{"from_argv", []string{"parse", "--from", "argv", "--", "/opt/Goose", "--inspect", "goose://sessions/from-argv"}, nil, 0},
		{"from_second_instance_none", []string{"parse", "--from", "second-instance", "/opt/Goose"}, nil, 1},
		{"from_open_file", []string{"parse", "--from", "open-file", filepath.Join("testdata", "deeplink", "standup.yaml")}, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := runDeeplink(context.Background(), tc.args, &out, &errOut, envFunc(tc.env))
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stdout %s stderr %s", code, tc.code, out.String(), errOut.String())
			}
			if strings.Count(out.String(), "\n") != 1 {
				t.Fatalf("want exactly one JSON line, got %q", out.String())
			}
			checkGolden(t, tc.name, out.String())
		})
	}
}

func TestDeeplinkUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"frob"}, {"parse"}, {"parse", "--from", "dock", "goose://x"}, {"parse", "--bogus", "goose://x"}, {"parse", "a", "b"}} {
		var out, errOut bytes.Buffer
		if code := runDeeplink(context.Background(), args, &out, &errOut, envFunc(nil)); code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "Usage:") {
			t.Errorf("%v: exit %d stdout %q stderr %q", args, code, out.String(), errOut.String())
		}
	}
}

func TestDeeplinkHTTPSAllowlist(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/allow.yaml":
			fmt.Fprint(w, "extensions:\n  - id: d\n    command: docker run mcp\n")
		case "/redirect":
			http.Redirect(w, r, "/allow.yaml", http.StatusFound)
		case "/insecure":
			http.Redirect(w, r, "http://example.com/allow.yaml", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	saved := allowlistClient.Transport
	allowlistClient.Transport = srv.Client().Transport
	defer func() { allowlistClient.Transport = saved }()

	link := "goose://extension?cmd=docker&arg=run&arg=mcp&name=D"
	for path, want := range map[string]string{"/allow.yaml": "EXTENSION_ALLOWED", "/redirect": "EXTENSION_ALLOWED", "/missing": "EXTENSION_BLOCKED", "/insecure": "EXTENSION_BLOCKED"} {
		var out, errOut bytes.Buffer
		runDeeplink(context.Background(), []string{"parse", "--allowlist", srv.URL + path, link}, &out, &errOut, envFunc(nil))
		if !strings.Contains(out.String(), `"outcome":"`+want+`"`) {
			t.Errorf("%s: got %s", path, out.String())
		}
	}
	if _, err := fetchAllowlist(context.Background(), "http://example.com/a"); err == nil {
		t.Error("http allowlist accepted")
	}
}

// TestDeeplinkURLIsNeverAFlag: a link that starts with "-" is classified,
// not taken for an unknown flag; the command's own flags still work in
// every spelling.
func TestDeeplinkURLIsNeverAFlag(t *testing.T) {
	for _, args := range [][]string{{"parse", "-foo"}, {"parse", "--", "-foo"}, {"parse", "--from=open-url", "-foo"}, {"parse", "-foo", "-from", "open-url"}} {
		var out, errOut bytes.Buffer
		code := runDeeplink(context.Background(), args, &out, &errOut, envFunc(nil))
		want := `{"ok":false,"error":{"code":"DEEPLINK_PARSE_FAILED","message":"not an absolute URL"}}` + "\n"
		if code != 1 || out.String() != want || errOut.Len() != 0 {
			t.Errorf("%q: exit %d stdout %q stderr %q", args, code, out.String(), errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := runDeeplink(context.Background(), []string{"parse", "--from", "argv", "/opt/Goose", "-x", "goose://sessions/t"}, &out, &errOut, envFunc(nil)); code != 0 || !strings.Contains(out.String(), `"shareToken":"t"`) {
		t.Errorf("--from argv: exit %d stdout %q stderr %q", code, out.String(), errOut.String())
	}
}
