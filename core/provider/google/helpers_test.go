package google

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestMain checks for leaked goroutines.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const testKey = "AIza-test-SECRET-0123456789"

// start serves turns in Gemini's wire format for the test's lifetime.
func start(t *testing.T, turns ...providertest.Turn) *providertest.Server {
	return providertest.Serve(t, providertest.Google, turns...)
}

// newProvider points a provider at srv. Ids are "id-1", "id-2", … in
// creation order.
func newProvider(t *testing.T, srv *providertest.Server, cfg model.Config) *Provider {
	t.Helper()
	n := 0
	p, err := New(Options{
		BaseURL:    srv.URL,
		APIKey:     testKey,
		Model:      cfg,
		HTTPClient: srv.Client(),
		Now:        func() time.Time { return time.Unix(1_700_000_000, 0) },
		NewID:      func() string { n++; return fmt.Sprintf("id-%d", n) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// reply is one scripted HTTP answer of rawServer: a status (0 means 200),
// headers and a body written verbatim; cut drops the connection after the
// body instead of ending it.
type reply struct {
	status int
	header map[string]string
	body   string
	cut    bool
}

// seen is one request rawServer received.
type seen struct {
	Method, URL string
	Header      http.Header
	Body        string
}

// rawServer answers successive requests with replies, byte for byte, and
// records them; requests past the script get a 599.
func rawServer(t *testing.T, replies ...reply) (*httptest.Server, func() []seen) {
	t.Helper()
	var mu sync.Mutex
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		n := len(got)
		got = append(got, seen{r.Method, r.URL.String(), r.Header.Clone(), string(b)})
		mu.Unlock()
		if n >= len(replies) {
			w.WriteHeader(599)
			return
		}
		rp := replies[n]
		for k, v := range rp.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(cmp.Or(rp.status, http.StatusOK))
		_, _ = io.WriteString(w, rp.body)
		if rp.cut {
			rc := http.NewResponseController(w)
			_ = rc.Flush()
			if conn, _, err := rc.Hijack(); err == nil {
				_ = conn.Close()
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []seen {
		mu.Lock()
		defer mu.Unlock()
		return append([]seen(nil), got...)
	}
}

// rawProvider points a provider at a rawServer.
func rawProvider(t *testing.T, srv *httptest.Server, modelName string) *Provider {
	t.Helper()
	n := 0
	p, err := New(Options{
		BaseURL:    srv.URL,
		APIKey:     testKey,
		Model:      model.Config{ModelName: modelName},
		HTTPClient: srv.Client(),
		Now:        func() time.Time { return time.Unix(1_700_000_000, 0) },
		NewID:      func() string { n++; return fmt.Sprintf("id-%d", n) },
		Headers:    map[string]string{"x-extra": "yes"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// events writes each chunk as one data-only SSE event, as Gemini does.
func events(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\r\n\r\n")
	}
	return b.String()
}
