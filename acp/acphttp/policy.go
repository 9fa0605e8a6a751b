package acphttp

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Header names of the ACP transport RFD.
const (
	HeaderConnectionID = "Acp-Connection-Id"
	HeaderSessionID    = "Acp-Session-Id"
)

// RequireSecret lets a request through when it carries secret as the
// X-Secret-Key header or as one of the query parameters params (goose serve:
// "token"; goosed's older /acp: "secret"), compared in constant time; any
// other request gets 401 with an empty body. A CORS preflight (OPTIONS with
// Access-Control-Request-Method) passes: browsers never send credentials on
// it. An empty secret refuses everything.
func RequireSecret(secret string, params []string, next http.Handler) http.Handler {
	want := []byte(secret)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isPreflight(r) || (len(want) > 0 && secretOK(r, want, params)) {
			next.ServeHTTP(w, r)
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
	})
}

func secretOK(r *http.Request, want []byte, params []string) bool {
	if h := r.Header.Get("X-Secret-Key"); h != "" && subtle.ConstantTimeCompare([]byte(h), want) == 1 {
		return true
	}
	q := r.URL.Query()
	for _, p := range params {
		if v := q.Get(p); v != "" && subtle.ConstantTimeCompare([]byte(v), want) == 1 {
			return true
		}
	}
	return false
}

func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
}

// OriginAllowed is goose serve's Origin rule when a token is required: an
// http or https origin whose host is localhost, an IPv4 loopback address or
// ::1, and the literal origins "null" (sandboxed/file pages) and "file://"
// (Electron's renderer). An absent Origin is decided by the caller.
func OriginAllowed(origin string) bool {
	if origin == "null" || origin == "file://" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	if strings.Contains(host, ":") { // an IPv6 literal: only ::1 (not ::ffff:127.0.0.1)
		return ip.Equal(net.IPv6loopback)
	}
	return ip.IsLoopback()
}

// isWebSocketUpgrade is goose's test for an upgrade: GET with a Connection
// header naming upgrade and Upgrade: websocket.
func isWebSocketUpgrade(r *http.Request) bool {
	return r.Method == http.MethodGet && headerHasToken(r.Header, "Connection", "upgrade") &&
		headerHasToken(r.Header, "Upgrade", "websocket")
}

func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, part := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(part), token) {
				return true
			}
		}
	}
	return false
}

// Guard applies the /acp origin and CORS policy in front of next:
//   - a WebSocket upgrade with an Origin header that allowed rejects is
//     answered 403 (no Origin: allowed; native clients send none);
//   - a request from an allowed origin gets CORS headers naming that
//     origin, exposing Acp-Connection-Id and Acp-Session-Id;
//   - a CORS preflight is answered here (200), with the allow headers only
//     for an allowed origin, so the browser refuses the others.
//
// allowed nil means OriginAllowed.
func Guard(allowed func(origin string) bool, next http.Handler) http.Handler {
	if allowed == nil {
		allowed = OriginAllowed
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin, hasOrigin := r.Header.Get("Origin"), len(r.Header.Values("Origin")) > 0
		ok := hasOrigin && allowed(origin)
		if ok {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Expose-Headers", "acp-connection-id, acp-session-id")
		}
		if isPreflight(r) {
			if ok {
				h := w.Header()
				h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
				h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
			}
			w.WriteHeader(http.StatusOK)
			return
		}
		if hasOrigin && !ok && isWebSocketUpgrade(r) {
			http.Error(w, "origin not allowed", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// corsAllowHeaders are the request headers goose's /acp CORS layer allows.
const corsAllowHeaders = "content-type, accept, x-secret-key, acp-connection-id, acp-session-id, " +
	"sec-websocket-key, sec-websocket-version, sec-websocket-protocol, sec-websocket-extensions, connection, upgrade"
