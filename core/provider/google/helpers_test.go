package google

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// TestMain checks for leaked goroutines; opencensus (pulled in by genai)
// starts a package-level worker in init.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("go.opencensus.io/stats/view.(*worker).start"))
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
