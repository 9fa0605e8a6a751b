package httpapi

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestACPIsMountedBehindTheSecret: /acp is the handler cmd gives, reached
// only with the secret (header or ?secret=), for GET, POST and DELETE, and
// with the request body left whole (the ACP transport bounds its own
// messages at 32 MiB; httpapi's 2 MB default must not cut them).
func TestACPIsMountedBehindTheSecret(t *testing.T) {
	type seen struct {
		method string
		body   int
	}
	got := make(chan seen, 8)
	e := newTestEnvWith(t, "auto", func(o *Options) {
		o.ACP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n, _ := io.Copy(io.Discard, r.Body)
			got <- seen{r.Method, int(n)}
			w.WriteHeader(http.StatusAccepted)
		})
	})
	do := func(method, query string, header http.Header, body string) int {
		req, _ := http.NewRequest(method, e.http.URL+"/acp"+query, strings.NewReader(body))
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := do("GET", "", nil, ""); code != http.StatusUnauthorized {
		t.Fatalf("without the secret: %d", code)
	}
	big := strings.Repeat("x", DefaultBodyLimit+1)
	for _, c := range []struct {
		method, query string
		header        http.Header
		body          string
	}{
		{"GET", "?secret=" + testSecret, nil, ""},
		{"POST", "", http.Header{"X-Secret-Key": {testSecret}}, big},
		{"DELETE", "?secret=" + testSecret, nil, ""},
	} {
		if code := do(c.method, c.query, c.header, c.body); code != http.StatusAccepted {
			t.Fatalf("%s /acp: %d", c.method, code)
		}
		if s := <-got; s.method != c.method || s.body != len(c.body) {
			t.Fatalf("the handler saw %+v, want %s with %d bytes", s, c.method, len(c.body))
		}
	}
	select {
	case s := <-got:
		t.Fatalf("the handler was reached without the secret: %+v", s)
	default:
	}
}

func TestACPWebSocketDisabled(t *testing.T) {
	e := newTestEnv(t, "auto")
	code, body := e.call("GET", "/acp", nil)
	if code != 404 || body != `{"message":"ACP over WebSocket is not enabled on this server"}` {
		t.Fatalf("%d %s", code, body)
	}
}
