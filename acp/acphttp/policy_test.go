package acphttp

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestOriginAllowed(t *testing.T) {
	for origin, want := range map[string]bool{
		"null": true, "file://": true,
		"http://localhost": true, "http://localhost:5173": true, "https://LOCALHOST:1": true,
		"http://127.0.0.1:3000": true, "http://127.8.9.10": true, "http://[::1]:8080": true,
		"https://example.com": false, "http://localhost.evil.com": false, "http://10.0.0.1": false,
		"app://goose": false, "file:///etc": false, "": false, "localhost": false,
		"http://[::ffff:127.0.0.1]": false, "ws://localhost": false,
	} {
		if got := OriginAllowed(origin); got != want {
			t.Errorf("OriginAllowed(%q) = %v, want %v", origin, got, want)
		}
	}
}

func TestRequireSecret(t *testing.T) {
	h := RequireSecret("s3cret", []string{"token"}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	for _, c := range []struct {
		name, target string
		header       map[string]string
		method       string
		want         int
	}{
		{"missing", "/acp", nil, "GET", 401},
		{"wrong token", "/acp?token=nope", nil, "GET", 401},
		{"wrong header", "/acp", map[string]string{"X-Secret-Key": "nope"}, "GET", 401},
		{"other param name", "/acp?secret=s3cret", nil, "GET", 401},
		{"token", "/acp?token=s3cret", nil, "GET", 418},
		{"header", "/acp", map[string]string{"X-Secret-Key": "s3cret"}, "POST", 418},
		{"prefix is not enough", "/acp?token=s3cre", nil, "GET", 401},
		{"preflight passes", "/acp", map[string]string{"Access-Control-Request-Method": "POST"}, "OPTIONS", 418},
		{"plain OPTIONS does not", "/acp", nil, "OPTIONS", 401},
	} {
		r := httptest.NewRequest(c.method, c.target, nil)
		for k, v := range c.header {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("%s: %d, want %d", c.name, w.Code, c.want)
		}
	}
	empty := RequireSecret("", []string{"token"}, http.NotFoundHandler())
	w := httptest.NewRecorder()
	empty.ServeHTTP(w, httptest.NewRequest("GET", "/acp?token=", nil))
	if w.Code != 401 {
		t.Errorf("an empty secret let a request through: %d", w.Code)
	}
}

func TestGuardOriginAndCORS(t *testing.T) {
	h := Guard(nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	upgrade := map[string]string{"Connection": "keep-alive, Upgrade", "Upgrade": "websocket"}
	for _, c := range []struct {
		name, origin string
		hasOrigin    bool
		upgrade      bool
		want         int
		allowOrigin  string
	}{
		{"no origin", "", false, true, 418, ""},
		{"foreign origin upgrade", "https://evil.example", true, true, 403, ""},
		{"file origin", "file://", true, true, 418, "file://"},
		{"null origin", "null", true, true, 418, "null"},
		{"localhost origin", "http://localhost:5173", true, true, 418, "http://localhost:5173"},
		{"foreign origin plain POST reaches auth", "https://evil.example", true, false, 418, ""},
	} {
		r := httptest.NewRequest("GET", "/acp", nil)
		if c.hasOrigin {
			r.Header.Set("Origin", c.origin)
		}
		if c.upgrade {
			for k, v := range upgrade {
				r.Header.Set(k, v)
			}
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.want || w.Header().Get("Access-Control-Allow-Origin") != c.allowOrigin {
			t.Errorf("%s: %d %q, want %d %q", c.name, w.Code, w.Header().Get("Access-Control-Allow-Origin"), c.want, c.allowOrigin)
		}
		if c.allowOrigin != "" && w.Header().Get("Access-Control-Expose-Headers") != "acp-connection-id, acp-session-id" {
			t.Errorf("%s: expose headers %q", c.name, w.Header().Get("Access-Control-Expose-Headers"))
		}
	}
	pre := httptest.NewRequest("OPTIONS", "/acp", nil)
	pre.Header.Set("Origin", "http://127.0.0.1:9")
	pre.Header.Set("Access-Control-Request-Method", "DELETE")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, pre)
	if w.Code != 200 || w.Header().Get("Access-Control-Allow-Methods") != "GET, POST, DELETE, OPTIONS" ||
		w.Header().Get("Access-Control-Allow-Headers") != corsAllowHeaders {
		t.Errorf("allowed preflight: %d %v", w.Code, w.Header())
	}
	pre.Header.Set("Origin", "https://evil.example")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, pre)
	if w.Header().Get("Access-Control-Allow-Methods") != "" || w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("foreign preflight got CORS headers: %v", w.Header())
	}
}
