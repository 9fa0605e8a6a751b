package ollama

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

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// start serves turns in Ollama's wire format for the test's lifetime.
func start(t *testing.T, turns ...providertest.Turn) *providertest.Server {
	return providertest.Serve(t, providertest.Ollama, turns...)
}

// newProvider points a provider at srv; params are the goose settings it
// sees. Ids are "id-1", "id-2", … in creation order.
func newProvider(t *testing.T, srv *providertest.Server, cfg model.Config, params map[string]string) *Provider {
	t.Helper()
	n := 0
	p, err := New(Options{
		BaseURL:    srv.URL,
		Model:      cfg,
		HTTPClient: srv.Client(),
		Param:      providertest.Lookup(params),
		Now:        func() time.Time { return time.Unix(1_700_000_000, 0) },
		NewID:      func() string { n++; return fmt.Sprintf("id-%d", n) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
