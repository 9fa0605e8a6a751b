package providertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// This file holds the checks every backend's tests make against a Server:
// run a stream, look at what it yielded, compare with goldens.

// drainTimeout bounds Drain so a stream that never ends fails the test
// instead of hanging it.
const drainTimeout = 10 * time.Second

// Serve starts a Server that replays turns in format and closes it when the
// test ends.
func Serve(tb testing.TB, format Format, turns ...Turn) *Server {
	tb.Helper()
	srv := Start(format, NewScript(turns...))
	tb.Cleanup(srv.Close)
	return srv
}

// UserRequest is the request most provider tests send: a fixed system
// prompt and one user message.
func UserRequest(text string) provider.Request {
	return provider.Request{System: "You are goose.", Messages: []conversation.Message{conversation.UserText(1, text)}}
}

// Drain reads p's stream for req to its end or its first error, within ten
// seconds, and returns the chunks yielded before it ended.
func Drain(p provider.Provider, req provider.Request) ([]provider.Chunk, error) {
	ctx, cancel := context.WithTimeout(context.Background(), drainTimeout)
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

// CancelAfterFirstMessage streams req from p, cancels the stream's context
// when the first message chunk arrives, and returns the error the stream
// ended with (a provider that honours cancellation ends with
// context.Canceled).
func CancelAfterFirstMessage(p provider.Provider, req provider.Request) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var err error
	for c, e := range p.Stream(ctx, req) {
		if c.Message != nil {
			cancel()
		}
		err = e
	}
	return err
}

// Contents lists every chunk's content items in order.
func Contents(chunks []provider.Chunk) []conversation.Content {
	var out []conversation.Content
	for _, c := range chunks {
		if c.Message != nil {
			out = append(out, c.Message.Content...)
		}
	}
	return out
}

// Merge merges the message chunks as the agent does: chunks sharing an id
// become one message.
func Merge(chunks []provider.Chunk) conversation.Conversation {
	var conv conversation.Conversation
	for _, c := range chunks {
		if c.Message != nil {
			conv.Push(*c.Message)
		}
	}
	return conv
}

// MustJSON marshals v, failing the test if it cannot.
func MustJSON(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// CheckContent reports an error unless the chunks' content items, as JSON,
// are want's.
func CheckContent(tb testing.TB, chunks []provider.Chunk, want []conversation.Content) {
	tb.Helper()
	if got, w := MustJSON(tb, Contents(chunks)), MustJSON(tb, want); got != w {
		tb.Errorf("content:\n got %s\nwant %s", got, w)
	}
}

// WantError is the *provider.Error a failed stream must end with.
type WantError struct {
	Provider string
	Kind     provider.Kind
	Status   int
	// Text must appear in the error's message.
	Text string
	// Secret, when set, must not appear in it (API keys are redacted).
	Secret string
}

// CheckError fails the test unless err is a *provider.Error matching want.
func CheckError(tb testing.TB, err error, want WantError) {
	tb.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) {
		tb.Fatalf("err = %v (%T), want *provider.Error", err, err)
	}
	if pe.Kind != want.Kind || pe.StatusCode != want.Status || pe.Provider != want.Provider || !strings.Contains(pe.Error(), want.Text) {
		tb.Errorf("err = %v (provider %q kind %v status %d), want provider %q kind %v status %d containing %q",
			pe, pe.Provider, pe.Kind, pe.StatusCode, want.Provider, want.Kind, want.Status, want.Text)
	}
	if want.Secret != "" && strings.Contains(pe.Error(), want.Secret) {
		tb.Errorf("error leaks the API key: %v", pe)
	}
}

// Sleeps records the waits a retrying provider asks for instead of
// sleeping; pass its Sleep method as provider.RetryOptions.Sleep.
type Sleeps []time.Duration

// Sleep records d and returns at once.
func (s *Sleeps) Sleep(_ context.Context, d time.Duration) error {
	*s = append(*s, d)
	return nil
}

// Lookup answers for the keys of m, as a backend's Param option or a
// registry's Env and Get options ask.
func Lookup[V any](m map[string]V) func(string) (V, bool) {
	return func(k string) (V, bool) {
		v, ok := m[k]
		return v, ok
	}
}

// AssertGolden compares the JSON got, indented, with testdata/name; with
// update set (each package's -update flag) it rewrites the file first.
func AssertGolden(tb testing.TB, update bool, name string, got []byte) {
	tb.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, got, "", "  "); err != nil {
		tb.Fatalf("invalid JSON %s: %v", got, err)
	}
	buf.WriteByte('\n')
	path := filepath.Join("testdata", name)
	if update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		tb.Errorf("%s mismatch:\n got: %s\nwant: %s", name, buf.Bytes(), want)
	}
}
