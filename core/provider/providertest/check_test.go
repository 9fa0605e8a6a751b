package providertest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// recorder stands in for a test so the checks' own failures can be seen.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = append(r.failed, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// failures runs check against a recorder, as a test would (Fatal ends
// only the check), and returns what it reported.
func failures(t *testing.T, check func(tb testing.TB)) []string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		check(r)
	}()
	<-done
	return r.failed
}

// stubProvider streams its chunks then err, or, with hang, waits for the
// caller to cancel after the chunks.
type stubProvider struct {
	provider.Provider
	chunks []provider.Chunk
	err    error
	hang   bool
}

func (s stubProvider) Stream(ctx context.Context, _ provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		for _, c := range s.chunks {
			if !yield(c, nil) {
				return
			}
		}
		if s.hang {
			<-ctx.Done()
			yield(provider.Chunk{}, ctx.Err())
			return
		}
		if s.err != nil {
			yield(provider.Chunk{}, s.err)
		}
	}
}

func textChunk(id, text string) provider.Chunk {
	m := conversation.AssistantText(1, text)
	m.ID = &id
	return provider.Chunk{Message: &m}
}

func TestDrainContentsAndMerge(t *testing.T) {
	usage := provider.Chunk{Usage: &provider.ProviderUsage{Model: "m"}}
	boom := errors.New("boom")
	p := stubProvider{chunks: []provider.Chunk{textChunk("a", "Hel"), textChunk("a", "lo"), textChunk("b", "!"), usage}, err: boom}
	chunks, err := Drain(p, UserRequest("hi"))
	if !errors.Is(err, boom) || len(chunks) != 4 {
		t.Fatalf("Drain = %d chunks, %v; want the 4 chunks before the error", len(chunks), err)
	}
	if got := MustJSON(t, Contents(chunks)); got != `[{"type":"text","text":"Hel"},{"type":"text","text":"lo"},{"type":"text","text":"!"}]` {
		t.Errorf("Contents = %s", got)
	}
	conv := Merge(chunks)
	if len(conv) != 2 || conv[0].AsText() != "Hello" || conv[1].AsText() != "!" {
		t.Errorf("Merge = %s, want the two messages by id", MustJSON(t, conv))
	}
}

func TestCancelAfterFirstMessage(t *testing.T) {
	p := stubProvider{chunks: []provider.Chunk{textChunk("a", "x")}, hang: true}
	if err := CancelAfterFirstMessage(p, UserRequest("hi")); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestCheckContentReportsTheDifference(t *testing.T) {
	chunks := []provider.Chunk{textChunk("a", "hi")}
	if f := failures(t, func(tb testing.TB) { CheckContent(tb, chunks, []conversation.Content{conversation.Text("hi")}) }); f != nil {
		t.Errorf("equal content reported %v", f)
	}
	f := failures(t, func(tb testing.TB) { CheckContent(tb, chunks, []conversation.Content{conversation.Text("ho")}) })
	if len(f) != 1 || f[0] != "content:\n got [{\"type\":\"text\",\"text\":\"hi\"}]\nwant [{\"type\":\"text\",\"text\":\"ho\"}]" {
		t.Errorf("failures = %q", f)
	}
}

func TestCheckError(t *testing.T) {
	const key = "sk-secret"
	leaky := &provider.Error{Kind: provider.KindAuth, Provider: "openai", StatusCode: 401, Message: "bad key " + key}
	want := WantError{Provider: "openai", Kind: provider.KindAuth, Status: 401, Text: "bad key"}
	tests := []struct {
		name string
		err  error
		want WantError
		fail string // prefix of the one expected failure; "" for none
	}{
		{"match", leaky, want, ""},
		{"wrapped match", fmt.Errorf("turn: %w", leaky), want, ""},
		{"not a provider error", errors.New("plain"), want, "err = plain (*errors.errorString), want *provider.Error"},
		{"other kind", leaky, WantError{Provider: "openai", Kind: provider.KindServer, Status: 401}, "err = "},
		{"other status", leaky, WantError{Provider: "openai", Kind: provider.KindAuth, Status: 403}, "err = "},
		{"other provider", leaky, WantError{Provider: "google", Kind: provider.KindAuth, Status: 401}, "err = "},
		{"text missing", leaky, WantError{Provider: "openai", Kind: provider.KindAuth, Status: 401, Text: "quota"}, "err = "},
		{"secret leaked", leaky, WantError{Provider: "openai", Kind: provider.KindAuth, Status: 401, Secret: key}, "error leaks the API key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := failures(t, func(tb testing.TB) { CheckError(tb, tt.err, tt.want) })
			if tt.fail == "" && f != nil || tt.fail != "" && (len(f) != 1 || !strings.HasPrefix(f[0], tt.fail)) {
				t.Errorf("failures = %q, want one starting %q", f, tt.fail)
			}
		})
	}
}

func TestSleepsAndLookup(t *testing.T) {
	var s Sleeps
	p := provider.RetryOptions{Sleep: s.Sleep}
	_ = p.Sleep(context.Background(), time.Second)
	_ = p.Sleep(context.Background(), 2*time.Second)
	if !slices.Equal(s, Sleeps{time.Second, 2 * time.Second}) {
		t.Errorf("Sleeps = %v", s)
	}
	get := Lookup(map[string]any{"A": 1})
	if v, ok := get("A"); !ok || v != 1 {
		t.Errorf("Lookup(A) = %v, %v", v, ok)
	}
	if _, ok := get("B"); ok {
		t.Error("Lookup(B) found a missing key")
	}
	if _, ok := Lookup[string](nil)("A"); ok {
		t.Error("Lookup on a nil map found a key")
	}
}

func TestAssertGolden(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.Mkdir("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	if f := failures(t, func(tb testing.TB) { AssertGolden(tb, false, "x.json", []byte(`{"a":1}`)) }); len(f) != 1 || !strings.Contains(f[0], "run go test -update") {
		t.Errorf("missing golden: failures = %q", f)
	}
	if f := failures(t, func(tb testing.TB) { AssertGolden(tb, true, "x.json", []byte(`{"a":1}`)) }); f != nil {
		t.Errorf("update: failures = %q", f)
	}
	if b, _ := os.ReadFile(filepath.Join("testdata", "x.json")); string(b) != "{\n  \"a\": 1\n}\n" {
		t.Errorf("golden written as %q", b)
	}
	if f := failures(t, func(tb testing.TB) { AssertGolden(tb, false, "x.json", []byte(`{"a": 1}`)) }); f != nil {
		t.Errorf("same JSON, other spacing: failures = %q", f)
	}
	if f := failures(t, func(tb testing.TB) { AssertGolden(tb, false, "x.json", []byte(`{"a":2}`)) }); len(f) != 1 || !strings.HasPrefix(f[0], "x.json mismatch:") {
		t.Errorf("changed JSON: failures = %q", f)
	}
	if f := failures(t, func(tb testing.TB) { AssertGolden(tb, false, "x.json", []byte(`{`)) }); len(f) != 1 || !strings.HasPrefix(f[0], "invalid JSON {") {
		t.Errorf("invalid JSON: failures = %q", f)
	}
}
