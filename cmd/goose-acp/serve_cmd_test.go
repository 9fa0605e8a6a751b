package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestParseServeFlags(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, c := range []struct {
		args    []string
		env     map[string]string
		want    serveFlags
		wantErr string
	}{
		{args: []string{"--platform", "desktop", "--enable-scheduler", "--host", "127.0.0.1", "--port", "4567"},
			want: serveFlags{platform: "desktop", enableScheduler: true, host: "127.0.0.1", port: 4567}},
		{args: []string{"--tls", "--platform=desktop", "--port=1"}, want: serveFlags{tls: true, platform: "desktop", host: "127.0.0.1", port: 1}},
		{args: nil, env: map[string]string{"GOOSE_PORT": "3100", "GOOSE_HOST": "localhost"},
			want: serveFlags{platform: "desktop", host: "localhost", port: 3100}},
		{args: []string{"--host", "::1", "--port", "9"}, env: map[string]string{"GOOSE_PORT": "3100", "GOOSE_HOST": "localhost"},
			want: serveFlags{platform: "desktop", host: "::1", port: 9}},
		{args: nil, want: serveFlags{platform: "desktop", host: "127.0.0.1", port: 3000}},
		{args: nil, env: map[string]string{"GOOSE_PORT": "http"}, wantErr: `GOOSE_PORT "http" is not a port number`},
		{args: []string{"--port", "70000"}, wantErr: "--port 70000 is not a port number"},
		{args: []string{"extra"}, wantErr: `unexpected arguments ["extra"]`},
		{args: []string{"--platform", "cli", "--port", "5"}, want: serveFlags{platform: "cli", host: "127.0.0.1", port: 5}},
		{args: []string{"--platform", " "}, wantErr: "--platform needs a value (Goose Desktop passes desktop)"},
		{args: []string{"--bogus"}, wantErr: "flag provided but not defined: -bogus"},
	} {
		got, err := parseServeFlags(c.args, env(c.env), io.Discard)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%v: err %v, want %q", c.args, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v %v: %+v %v, want %+v", c.args, c.env, got, err, c.want)
		}
	}
}

// TestServeMux: /status and /health are open (CORS any), everything else
// needs the token, and /acp gets the Origin rule before auth.
func TestServeMux(t *testing.T) {
	acpHit := false
	mux := serveMux("tok", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { acpHit = true }))
	do := func(method, target string, hdr map[string]string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, nil)
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		return w
	}
	for _, p := range []string{"/status", "/health"} {
		w := do("GET", p, nil)
		if w.Code != 200 || w.Body.String() != "ok" || w.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("GET %s: %d %q %v", p, w.Code, w.Body.String(), w.Header())
		}
		if w := do("OPTIONS", p, map[string]string{"Origin": "https://x", "Access-Control-Request-Method": "GET"}); w.Code != 200 || w.Header().Get("Access-Control-Allow-Methods") != "*" {
			t.Errorf("preflight %s: %d %v", p, w.Code, w.Header())
		}
	}
	for _, c := range []struct {
		target string
		hdr    map[string]string
		want   int
		hit    bool
	}{
		{"/acp", nil, 401, false},
		{"/acp?token=no", nil, 401, false},
		{"/acp?token=tok", nil, 200, true},
		{"/acp", map[string]string{"X-Secret-Key": "tok"}, 200, true},
		{"/acp?token=tok", map[string]string{"Origin": "https://evil.example", "Connection": "Upgrade", "Upgrade": "websocket"}, 403, false},
		{"/sessions", nil, 401, false},
		{"/sessions?token=tok", nil, 404, false},
		{"/status/extra", nil, 401, false},
	} {
		acpHit = false
		w := do("GET", c.target, c.hdr)
		if w.Code != c.want || acpHit != c.hit {
			t.Errorf("GET %s %v: %d (acp reached %v), want %d", c.target, c.hdr, w.Code, acpHit, c.want)
		}
	}
	// Only GET (and its preflight) is open on /status.
	if w := do("POST", "/status", nil); w.Code != 401 {
		t.Errorf("POST /status: %d, want 401", w.Code)
	}
}
