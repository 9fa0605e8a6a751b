package anthropic

import (
	"flag"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const testKey = "sk-ant-test-SECRET-0123456789"

// start serves turns in Anthropic's wire format for the test's lifetime.
func start(t *testing.T, turns ...providertest.Turn) *providertest.Server {
	return providertest.Serve(t, providertest.Anthropic, turns...)
}

// newProvider points a provider at srv; params are the goose settings it
// sees.
func newProvider(t *testing.T, srv *providertest.Server, cfg model.Config, params map[string]string) *Provider {
	t.Helper()
	p, err := New(Options{
		BaseURL:    srv.URL,
		APIKey:     testKey,
		Model:      cfg,
		HTTPClient: srv.Client(),
		Param:      providertest.Lookup(params),
		Now:        func() time.Time { return time.Unix(1_700_000_000, 0) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
