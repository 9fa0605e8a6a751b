package google

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
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
	t.Helper()
	srv := providertest.Start(providertest.Google, providertest.NewScript(turns...))
	t.Cleanup(srv.Close)
	return srv
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

func drain(t *testing.T, p provider.Provider, req provider.Request) ([]provider.Chunk, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out []provider.Chunk
	for c, err := range p.Stream(ctx, req) {
		if err != nil {
			return out, err
		}
		out = append(out, c)
	}
	return out, nil
}

func userRequest(text string) provider.Request {
	return provider.Request{System: "You are goose.", Messages: []conversation.Message{conversation.UserText(1, text)}}
}

// contents lists every chunk's content items in order.
func contents(chunks []provider.Chunk) []conversation.Content {
	var out []conversation.Content
	for _, c := range chunks {
		if c.Message != nil {
			out = append(out, c.Message.Content...)
		}
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// assertGolden compares got (JSON) with testdata/name, indented.
func assertGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, got, "", "  "); err != nil {
		t.Fatalf("invalid JSON %s: %v", got, err)
	}
	buf.WriteByte('\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("%s mismatch:\n got: %s\nwant: %s", name, buf.Bytes(), want)
	}
}

func intp(v int) *int { return &v }
