package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/diagnostics"
)

func TestAuth(t *testing.T) {
	e := newTestEnv(t, "auto")
	cases := []struct {
		name, method, path, key string
		want                    int
	}{
		{"status needs no key", "GET", "/status", "", 200},
		{"features needs no key", "GET", "/features", "", 200},
		{"sessions without key", "GET", "/sessions", "", 401},
		{"sessions with wrong key", "GET", "/sessions", "nope", 401},
		{"sessions with key prefix", "GET", "/sessions", testSecret[:5], 401},
		{"sessions with key", "GET", "/sessions", testSecret, 200},
		{"exempt is exact: /status/x", "GET", "/status/x", "", 401},
		{"unknown route without key", "GET", "/nope", "", 401},
		{"unknown route with key", "GET", "/nope", testSecret, 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := map[string]string{}
			if c.key != "" {
				h["X-Secret-Key"] = c.key
			}
			resp := e.doHeaders(c.method, c.path, nil, h)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Fatalf("status %d, want %d (%s)", resp.StatusCode, c.want, body)
			}
			if c.want == 401 && len(body) != 0 {
				t.Fatalf("401 body %q, want empty", body)
			}
		})
	}
}

func TestEmptySecretRejectsEverything(t *testing.T) {
	e := newTestEnvWith(t, "auto", func(o *Options) { o.SecretKey = "" })
	resp := e.doHeaders("GET", "/sessions", nil, map[string]string{"X-Secret-Key": ""})
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("status %d, want 401", resp.StatusCode)
	}
}

func TestCORS(t *testing.T) {
	e := newTestEnv(t, "auto")
	// A preflight is answered before auth.
	resp := e.doHeaders("OPTIONS", "/sessions", nil, map[string]string{
		"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-secret-key,content-type"})
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("preflight status %d", resp.StatusCode)
	}
	for k, v := range map[string]string{"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "*", "Access-Control-Allow-Headers": "*"} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	// Normal and rejected responses carry the origin header too.
	for _, key := range []string{testSecret, ""} {
		resp = e.doHeaders("GET", "/sessions", nil, map[string]string{"X-Secret-Key": key, "Origin": "http://x"})
		resp.Body.Close()
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("key %q: Access-Control-Allow-Origin %q", key, got)
		}
	}
}

func TestStatusFeaturesSystemInfo(t *testing.T) {
	e := newTestEnv(t, "auto")
	code, body := e.call("GET", "/status", nil)
	if code != 200 || body != "ok" {
		t.Fatalf("/status = %d %q", code, body)
	}
	code, body = e.call("GET", "/features", nil)
	if code != 200 || body != `{"features":{"code-mode":false,"local-inference":false}}` {
		t.Fatalf("/features = %d %s", code, body)
	}
	var info diagnostics.SystemInfo
	e.callJSON("GET", "/system_info", nil, 200, &info)
	if info.AppVersion != "1.33.0-test" || info.Provider == nil || *info.Provider != "fake" || info.Model == nil || *info.Model != "fake-model" {
		t.Fatalf("system info %+v", info)
	}
	if strings.Join(info.EnabledExtensions, ",") != "tt" {
		t.Fatalf("enabled extensions %v", info.EnabledExtensions)
	}
}

func TestBodyErrors(t *testing.T) {
	e := newTestEnv(t, "auto")
	big := `{"json":"` + strings.Repeat("a", DefaultBodyLimit) + `"}`
	cases := []struct {
		name, path, ctype, body string
		want                    int
		msg                     string
	}{
		{"no content type", "/config/read", "", `{"key":"a","is_secret":false}`, 415, "Expected request with `Content-Type: application/json`"},
		{"malformed", "/config/read", "application/json", `{"key":`, 400, "Failed to parse the request body as JSON"},
		{"wrong shape", "/config/read", "application/json", `{"key":1,"is_secret":false}`, 422, ""},
		{"missing field", "/config/read", "application/json", `{"key":"a"}`, 422, "Failed to deserialize the JSON body into the target type: missing field `is_secret`"},
		{"over 2 MiB", "/config/read", "application/json", big, 413, "Failed to buffer the request body: length limit exceeded"},
		{"import allows 25 MiB", "/sessions/import", "application/json", big, 400, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := map[string]string{"X-Secret-Key": testSecret}
			req, _ := http.NewRequest("POST", e.http.URL+c.path, strings.NewReader(c.body))
			for k, v := range h {
				req.Header.Set(k, v)
			}
			if c.ctype != "" {
				req.Header.Set("Content-Type", c.ctype)
			}
			resp, err := e.http.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct{ Message string }
			_ = json.NewDecoder(resp.Body).Decode(&body)
			if resp.StatusCode != c.want {
				t.Fatalf("status %d, want %d (%s)", resp.StatusCode, c.want, body.Message)
			}
			if c.msg != "" && body.Message != c.msg {
				t.Fatalf("message %q, want %q", body.Message, c.msg)
			}
		})
	}
}

func TestUnavailableRoutes(t *testing.T) {
	e := newTestEnv(t, "auto")
	for _, u := range Unavailable {
		path := strings.NewReplacer("{model_id}", "m", "{author}", "a", "{repo}", "r", "{name}", "n", "{id}", "i",
			"{platform}", "p", "{user_id}", "u", "{session_id}", "s").Replace(u.Path)
		var body any
		if u.Method == "POST" || u.Method == "PUT" {
			body = map[string]any{}
		}
		code, b := e.call(u.Method, path, body)
		msg, _ := json.Marshal(u.Feature.Name + " is not available in goose-acp: " + u.Feature.Why)
		want := `{"message":` + string(msg) + `}`
		if code != http.StatusNotImplemented || b != want {
			t.Errorf("%s %s = %d %s, want 501 %s", u.Method, path, code, b, want)
		}
	}
}
