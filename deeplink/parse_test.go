package deeplink

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const workedConfig = "eyJ2ZXJzaW9uIjoiMS4wLjAiLCJ0aXRsZSI6IlRlc3QgUmVjaXBlIiwiZGVzY3JpcHRpb24iOiJBIHRlc3QgcmVjaXBlIGZvciBkZWVwbGluayBlbmNvZGluZy9kZWNvZGluZyIsImluc3RydWN0aW9ucyI6IkFjdCBhcyBhIGhlbHBmdWwgYXNzaXN0YW50In0"

// legacy standard-base64 of {"version":"1.0.0","title":"Who?>","description":"d","instructions":"Be brief?>"}
const legacyPlus = "eyJ2ZXJzaW9uIjoiMS4wLjAiLCJ0aXRsZSI6Ildobz8+IiwiZGVzY3JpcHRpb24iOiJkIiwiaW5zdHJ1Y3Rpb25zIjoiQmUgYnJpZWY/PiJ9"

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, link string
		code       Code
	}{
		{"wrong scheme", "https://extension?name=x", CodeInvalidScheme},
		{"no scheme", "extension?name=x", CodeParseFailed},
		{"empty", "", CodeParseFailed},
		{"scheme only", "goose:", CodeUnsupportedRoute},
		{"no slashes", "goose:extension?name=x&cmd=npx", CodeUnsupportedRoute},
		{"empty host", "goose://?config=x", CodeUnsupportedRoute},
		{"upper-case host", "goose://EXTENSION?name=x&cmd=npx", CodeUnsupportedRoute},
		{"unknown host", "goose://settings", CodeUnsupportedRoute},
		{"percent in host", "goose://ext%65nsion?name=x&cmd=npx", CodeUnsupportedRoute},
		{"space in host", "goose://ext ension?name=x", CodeParseFailed},
		{"bad port", "goose://extension:abc?name=x", CodeParseFailed},
		{"huge", "goose://extension?name=" + strings.Repeat("a", maxLinkLen), CodeParseFailed},
		{"invalid utf-8 host", "goose://\xff\xfe?x", CodeUnsupportedRoute},
		{"ipv6 host", "goose://[::1]/x", CodeParseFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Parse(tc.link, Policy{})
			if res.OK || res.Error == nil || res.Error.Code != tc.code {
				t.Fatalf("Parse(%.60q) = %+v, want code %s", tc.link, res, tc.code)
			}
		})
	}
}

func TestParseExtension(t *testing.T) {
	tests := []struct {
		name, link, want string
	}{
		{"stdio", "goose://extension?cmd=npx&arg=-y&arg=%40modelcontextprotocol%2Fserver-github&name=GitHub&description=Repos&env=GITHUB_TOKEN%3Dsecret&env=GITHUB_TOKEN&installation_notes=Needs+a+token",
			`{"ok":true,"route":"extension","dispatch":"add-extension","outcome":"EXTENSION_ALLOWED","extension":{"type":"stdio","name":"GitHub","description":"Repos","cmd":"npx","args":["-y","@modelcontextprotocol/server-github"],"env_keys":["GITHUB_TOKEN"],"timeout":300},"envKeys":["GITHUB_TOKEN"],"installationNotes":"Needs a token"}`},
		{"path ignored, timeout prefix", "GOOSE://extension/add?name=My%20Ext&cmd=uvx&arg=mcp-x&timeout=30s",
			`{"ok":true,"route":"extension","dispatch":"add-extension","outcome":"EXTENSION_ALLOWED","extension":{"type":"stdio","name":"My Ext","description":"","cmd":"uvx","args":["mcp-x"],"timeout":30}}`},
		{"remote wins over cmd", "goose://extension?name=Remote&url=https%3A%2F%2Fmcp.example.com%2Fmcp&cmd=rm&header=Authorization%3DBearer%2520abc&header=X-A%3Db%3Dc&timeout=60",
			`{"ok":true,"route":"extension","dispatch":"add-extension","outcome":"EXTENSION_ALLOWED","extension":{"type":"streamable_http","name":"Remote","description":"","uri":"https://mcp.example.com/mcp","headers":{"Authorization":"Bearer abc","X-A":"b"},"timeout":60}}`},
		{"filesystem args", "goose://extension?name=fs&cmd=npx&arg=-y&arg=%40modelcontextprotocol%2Fserver-filesystem&arg=%2Fpath%2Fto%2Fdir1&arg=%2Fpath%2Fto%2Fdir2",
			`{"ok":true,"route":"extension","dispatch":"add-extension","outcome":"EXTENSION_ALLOWED","extension":{"type":"stdio","name":"fs","description":"","cmd":"npx","args":["-y","@modelcontextprotocol/server-filesystem","{{WORKING_DIR}}"],"timeout":300}}`},
		{"bad command", "goose://extension?name=x&cmd=%2Fusr%2Fbin%2Fnpx",
			`{"ok":false,"route":"extension","outcome":"EXTENSION_BLOCKED","error":{"code":"DEEPLINK_SECURITY_BLOCKED","message":"Invalid command: /usr/bin/npx. Only cu, docker, jbang, npx, uvx, goosed, npx.cmd, i-ching-mcp-server are allowed."}}`},
		{"npx -c", "goose://extension?name=x&cmd=npx&arg=-c&arg=evil",
			`{"ok":false,"route":"extension","outcome":"EXTENSION_BLOCKED","error":{"code":"DEEPLINK_SECURITY_BLOCKED","message":"npx with -c argument can lead to code injection"}}`},
		{"npx.cmd -c is the npx rule too", "goose://extension?name=x&cmd=npx.cmd&arg=-c",
			`{"ok":false,"route":"extension","outcome":"EXTENSION_BLOCKED","error":{"code":"DEEPLINK_SECURITY_BLOCKED","message":"npx with -c argument can lead to code injection"}}`},
		{"timeout 0 is valid", "goose://extension?name=x&cmd=npx&timeout=0",
			`{"ok":true,"route":"extension","dispatch":"add-extension","outcome":"EXTENSION_ALLOWED","extension":{"type":"stdio","name":"x","description":"","cmd":"npx","args":[],"timeout":0}}`},
		{"negative timeout", "goose://extension?name=x&cmd=npx&timeout=-5",
			`{"ok":false,"route":"extension","outcome":"EXTENSION_INVALID_PAYLOAD","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"timeout must be a non-negative integer"}}`},
		{"missing name", "goose://extension?cmd=npx&name=%20",
			`{"ok":false,"route":"extension","outcome":"EXTENSION_INVALID_PAYLOAD","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"Missing required field: name"}}`},
		{"no transport", "goose://extension?name=x",
			`{"ok":false,"route":"extension","outcome":"EXTENSION_INVALID_PAYLOAD","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"extension link needs cmd (stdio) or url (streamable_http)"}}`},
		{"bad timeout", "goose://extension?name=x&cmd=npx&timeout=abc",
			`{"ok":false,"route":"extension","outcome":"EXTENSION_INVALID_PAYLOAD","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"timeout must be a non-negative integer"}}`},
		{"header secret not leaked", "goose://extension?name=x&url=https%3A%2F%2Fh.example&header=Authorization%3Dsecret%25zz",
			`{"ok":false,"route":"extension","outcome":"EXTENSION_INVALID_PAYLOAD","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"header value is not valid percent-encoding"}}`},
		{"non-http url", "goose://extension?name=x&url=file%3A%2F%2F%2Fetc%2Fpasswd",
			`{"ok":false,"route":"extension","outcome":"EXTENSION_INVALID_PAYLOAD","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"url must be an absolute http or https URL"}}`},
		{"bad percent in name is literal", "goose://extension?name=50%&cmd=npx",
			`{"ok":true,"route":"extension","dispatch":"add-extension","outcome":"EXTENSION_ALLOWED","extension":{"type":"stdio","name":"50%","description":"","cmd":"npx","args":[],"timeout":300}}`},
		{"semicolon is data", "goose://extension?name=a;b&cmd=npx",
			`{"ok":true,"route":"extension","dispatch":"add-extension","outcome":"EXTENSION_ALLOWED","extension":{"type":"stdio","name":"a;b","description":"","cmd":"npx","args":[],"timeout":300}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertJSON(t, Parse(tc.link, Policy{}), tc.want)
		})
	}
}

func TestTrustGate(t *testing.T) {
	allow := []string{"npx -y @modelcontextprotocol/server-github", "uvx mcp_slack", "https://mcp.example.com/"}
	tests := []struct {
		name   string
		policy Policy
		link   string
		want   Outcome
		code   Code
	}{
		{"allowlisted", Policy{Allowlist: allow}, "goose://extension?name=g&cmd=npx&arg=-y&arg=@modelcontextprotocol/server-github", ExtensionAllowed, ""},
		{"allowlisted with extra args", Policy{Allowlist: allow}, "goose://extension?name=s&cmd=uvx&arg=mcp_slack&arg=--verbose", ExtensionAllowed, ""},
		{"look-alike blocked", Policy{Allowlist: allow}, "goose://extension?name=s&cmd=uvx&arg=mcp_slack_evil", ExtensionBlocked, CodeSecurityBlocked},
		{"not listed blocked", Policy{Allowlist: allow}, "goose://extension?name=s&cmd=docker&arg=run", ExtensionBlocked, CodeSecurityBlocked},
		{"not listed warning", Policy{Allowlist: allow, Warning: true}, "goose://extension?name=s&cmd=docker&arg=run", ExtensionUntrustedConfirmRequired, ""},
		{"listed in warning mode", Policy{Allowlist: allow, Warning: true}, "goose://extension?name=s&cmd=uvx&arg=mcp_slack", ExtensionAllowed, ""},
		{"no allowlist warning", Policy{Warning: true}, "goose://extension?name=s&cmd=uvx&arg=x", ExtensionUntrustedConfirmRequired, ""},
		{"url prefix", Policy{Allowlist: allow}, "goose://extension?name=r&url=https%3A%2F%2Fmcp.example.com%2Fmcp", ExtensionAllowed, ""},
		{"url look-alike", Policy{Allowlist: []string{"https://mcp.example.com"}}, "goose://extension?name=r&url=https%3A%2F%2Fmcp.example.com.evil.io%2F", ExtensionBlocked, CodeSecurityBlocked},
		{"load error fails closed", Policy{LoadErr: errors.New("boom")}, "goose://extension?name=s&cmd=uvx", ExtensionBlocked, CodeSecurityBlocked},
		{"load error warning", Policy{LoadErr: errors.New("boom"), Warning: true}, "goose://extension?name=s&cmd=uvx", ExtensionUntrustedConfirmRequired, ""},
		{"hard rules before allowlist", Policy{Allowlist: []string{"npx"}}, "goose://extension?name=s&cmd=npx&arg=-c", ExtensionBlocked, CodeSecurityBlocked},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Parse(tc.link, tc.policy)
			if res.Outcome != tc.want {
				t.Fatalf("outcome = %s, want %s (%+v)", res.Outcome, tc.want, res.Error)
			}
			if tc.code == "" && (!res.OK || res.Dispatch != DispatchAddExtension) {
				t.Fatalf("want ok dispatch, got %+v", res)
			}
			wantExt := !strings.HasPrefix(tc.name, "hard")
			if tc.code != "" && (res.OK || res.Error.Code != tc.code || (res.Extension != nil) != wantExt) {
				t.Fatalf("want %s with extension, got %+v", tc.code, res)
			}
		})
	}
}

func TestParseSessions(t *testing.T) {
	tests := []struct{ link, want string }{
		{"goose://sessions/abc123", `{"ok":true,"route":"sessions","dispatch":"open-shared-session","shareToken":"abc123"}`},
		{"goose://sessions/tok?x=1#f", `{"ok":true,"route":"sessions","dispatch":"open-shared-session","shareToken":"tok?x=1#f"}`},
		{"goose://sessions/", `{"ok":false,"route":"sessions","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"Invalid URL: Missing share token"}}`},
		{"goose://sessions/%20%20", `{"ok":true,"route":"sessions","dispatch":"open-shared-session","shareToken":"%20%20"}`},
		{"goose://sessions/   ", `{"ok":false,"route":"sessions","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"Invalid URL: Missing share token"}}`},
		{"goose://sessions", `{"ok":false,"route":"sessions","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"Invalid URL: URL must use the goose://sessions/ scheme"}}`},
		{"GOOSE://sessions/secret-token", `{"ok":true,"route":"sessions","dispatch":"open-shared-session","shareToken":"secret-token"}`},
		{"goose://sessions/?x=1", `{"ok":false,"route":"sessions","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"Invalid URL: Missing share token"}}`},
		{"goose://sessions/#frag", `{"ok":false,"route":"sessions","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"Invalid URL: Missing share token"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.link, func(t *testing.T) {
			res := Parse(tc.link, Policy{})
			assertJSON(t, res, tc.want)
			if res.Error != nil && strings.Contains(res.Error.Message, "secret") {
				t.Fatal("token leaked into the error")
			}
		})
	}
}

// TestNpxCallFamilyBlocked: every spelling of npx's --call option, for
// every npx name on the allowlist, is refused (they all run arbitrary
// shell code).
func TestNpxCallFamilyBlocked(t *testing.T) {
	for _, cmd := range []string{"npx", "npx.cmd"} {
		for _, arg := range []string{"-c", "--call", "-c=evil", "--call=evil", "-cevil", "--call%3Devil"} {
			link := "goose://extension?name=x&cmd=" + cmd + "&arg=-y&arg=pkg&arg=" + arg
			res := Parse(link, Policy{})
			if res.OK || res.Error == nil || res.Error.Code != CodeSecurityBlocked {
				t.Errorf("%s %s: got %+v, want DEEPLINK_SECURITY_BLOCKED", cmd, arg, res)
			}
		}
	}
	for _, arg := range []string{"--cache=/tmp/x", "-y", "--yes", "pkg-c"} {
		if res := Parse("goose://extension?name=x&cmd=npx&arg="+arg, Policy{}); !res.OK {
			t.Errorf("npx %s: got %+v, want allowed", arg, res.Error)
		}
	}
}

func TestParseRecipe(t *testing.T) {
	recipeJSON := `{"version":"1.0.0","title":"Test Recipe","description":"A test recipe for deeplink encoding/decoding","instructions":"Act as a helpful assistant"}`
	tests := []struct {
		name, link, want string
	}{
		{"plain", "goose://recipe?config=" + workedConfig,
			`{"ok":true,"route":"recipe","dispatch":"open-recipe","config":"` + workedConfig + `","recipe":` + recipeJSON + `}`},
		{"bot alias with params and job", "goose://bot?config=" + workedConfig + "&name=Alice&topic=a+b&bad=%zz&sp=%20x&name=Bob&flag&scheduledJob=my+job",
			`{"ok":true,"route":"bot","dispatch":"open-recipe","config":"` + workedConfig + `","recipe":` + recipeJSON + `,"parameters":{"bad":"%zz","name":"Bob","sp":" x","topic":"a+b"},"scheduledJob":"my job"}`},
		{"legacy plus preserved", "goose://recipe?config=" + legacyPlus,
			`{"ok":true,"route":"recipe","dispatch":"open-recipe","config":"` + legacyPlus + `","recipe":{"version":"1.0.0","title":"Who?>","description":"d","instructions":"Be brief?>"}}`},
		{"no config", "goose://recipe?name=x",
			`{"ok":false,"route":"recipe","parameters":{"name":"x"},"error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"recipe link has no config"}}`},
		{"undecodable config", "goose://recipe?config=notbase64!",
			`{"ok":false,"route":"recipe","config":"notbase64!","error":{"code":"DEEPLINK_INVALID_PAYLOAD","message":"Failed to decode recipe deeplink"}}`},
		{"bad percent in config", "goose://recipe?config=abc%2+x",
			`{"ok":false,"route":"recipe","error":{"code":"DEEPLINK_PARSE_FAILED","message":"config is not valid percent-encoding"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertJSON(t, Parse(tc.link, Policy{}), tc.want)
		})
	}
}

func assertJSON(t *testing.T, v any, want string) {
	t.Helper()
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSuffix(buf.String(), "\n"); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"goose://extension?name=x&cmd=npx&arg=-y", "goose://sessions/abc", "goose://recipe?config=" + workedConfig + "&a=b",
		"goose://bot?config=" + legacyPlus, "goose://extension?name=r&url=https%3A%2F%2Fa.b&header=A%3Db", "GOOSE://x", "goose:",
		"goose://ext ension", "goose://%zz", "goose://e:1/p?q#f", "\x00goose://extension\t?name=\xff",
	} {
		f.Add(s)
	}
	policy := Policy{Allowlist: []string{"npx -y"}}
	f.Fuzz(func(t *testing.T, s string) {
		res := Parse(s, policy)
		if res.OK == (res.Error != nil) {
			t.Fatalf("ok=%v but error=%v", res.OK, res.Error)
		}
		if res.OK && res.Dispatch == "" {
			t.Fatalf("ok without dispatch: %+v", res)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("result does not marshal: %v", err)
		}
	})
}

func TestParseMalformedQuery(t *testing.T) {
	tests := []struct{ link, wantName string }{
		{"goose://extension?cmd=npx&name=a%", "a%"},
		{"goose://extension?cmd=npx&name=%E2%82", "\uFFFD"},
		{"goose://extension?cmd=npx&name=\xff\xfe", "\uFFFD\uFFFD"},
		{"goose://extension?cmd=npx&name=a%00b", "a\x00b"},
		{"goose://extension?cmd=npx&name=caf\u00e9+au+lait", "café au lait"},
		{"goose://extension?cmd=npx&name=x#name=y", "x"},
		{"goose://extension?cmd=npx&&&name=first&name=second", "first"},
	}
	for _, tc := range tests {
		res := Parse(tc.link, Policy{})
		if !res.OK || res.Extension.Name != tc.wantName {
			t.Errorf("%q: ok=%v name=%q err=%v", tc.link, res.OK, nameOf(res), res.Error)
		}
	}
}

func nameOf(r *Result) string {
	if r.Extension == nil {
		return ""
	}
	return r.Extension.Name
}

func TestToUSV(t *testing.T) {
	for in, want := range map[string]string{
		"ok é":         "ok é",
		"\xff\xfe":     "\uFFFD\uFFFD",
		"a\xe2\x82":    "a\uFFFD",
		"\xed\xa0\x80": "\uFFFD\uFFFD\uFFFD",
		"\xf0\x9f\x98": "\uFFFD",
		"\xc3(":        "\uFFFD(",
	} {
		if got := toUSV(in); got != want {
			t.Errorf("toUSV(%q) = %q, want %q", in, got, want)
		}
	}
}
