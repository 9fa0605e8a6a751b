package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"iter"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

// promptBytes is the 31 MB prompt (under MaxMessageBytes).
const promptBytes = 31 << 20

// BenchmarkLargePromptPeakHeap sends one 31 MB text prompt through Serve
// and reports the peak heap as a multiple of the prompt's size:
// peak-heap-x from the line's first byte until the decoded user message
// reaches the session store (the ACP face's decoding and handling, issue
// 16's goal: under 4×), and turn-peak-heap-x for the whole turn against an
// instant in-process model (which adds core's copies: the stored JSON
// encoding, token counting and compaction of the huge message).
//
//	go test ./acp -run XXX -bench LargePromptPeakHeap -benchtime 3x -count 5
func BenchmarkLargePromptPeakHeap(b *testing.B) {
	line := largePromptLine(promptBytes)
	var worst, worstTurn float64
	for b.Loop() {
		b.StopTimer()
		c, sessionID := startBenchServer(b)
		msg := []byte(strings.Replace(line, "SESSION", sessionID, 1) + "\n")
		runtime.GC()
		base := heapObjects()
		stop, peak := sampleHeap()
		var atStore atomic.Uint64
		c.store.onUser = func() { atStore.Store(max(peak(), heapObjects())) }
		b.StartTimer()
		_, _ = c.in.Write(msg)
		c.waitResult(b, 9)
		b.StopTimer()
		stop()
		if atStore.Load() == 0 {
			b.Fatal("the user message never reached the store")
		}
		worst = max(worst, float64(atStore.Load()-base)/promptBytes)
		worstTurn = max(worstTurn, float64(peak()-base)/promptBytes)
		msg = nil
		c.close()
		b.StartTimer()
	}
	b.ReportMetric(worst, "peak-heap-x")
	b.ReportMetric(worstTurn, "turn-peak-heap-x")
}

// hookedStore calls onUser when a user message is appended.
type hookedStore struct {
	session.Store
	onUser func()
}

func (h *hookedStore) AppendMessage(ctx context.Context, id string, m conversation.Message) error {
	if m.Role == conversation.RoleUser && h.onUser != nil {
		h.onUser()
	}
	return h.Store.AppendMessage(ctx, id, m)
}

func largePromptLine(n int) string {
	text := strings.Repeat("0123456789abcdef", n/16)
	return `{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":"SESSION","prompt":[{"type":"text","text":` +
		mustJSON(text) + `}]}}`
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// sampleHeap polls the heap every 100 µs until stop; peak returns the
// largest value seen.
func sampleHeap() (stop func(), peak func() uint64) {
	var top atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			if v := heapObjects(); v > top.Load() {
				top.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }, func() uint64 { return top.Load() }
}

type benchClient struct {
	in    *io.PipeWriter
	out   *bufio.Reader
	done  chan struct{}
	a     *agent.Agent
	store *hookedStore
}

func startBenchServer(b testing.TB) (*benchClient, string) {
	return startServerWith(b, `{}`)
}

// startServerWith serves one session for a client with these capabilities.
func startServerWith(b testing.TB, caps string) (*benchClient, string) {
	store := &hookedStore{Store: memory.New(time.Now)}
	a := agent.New(agent.Options{
		Store:     store,
		Providers: func(context.Context, string, model.Config) (provider.Provider, error) { return instantModel{}, nil },
		Config:    benchConfig{"GOOSE_DISABLE_SESSION_NAMING": "true", "GOOSE_PROVIDER": "instant", "GOOSE_MODEL": "instant"},
		TempDir:   b.TempDir(),
	})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &benchClient{in: inW, out: bufio.NewReaderSize(outR, 1<<16), done: make(chan struct{}), a: a, store: store}
	go func() {
		_ = Serve(context.Background(), inR, outW, Options{Agent: a, Store: store, Builtins: []string{}})
		outW.Close()
		close(c.done)
	}()
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":` + caps + `}}`)
	c.waitResult(b, 1)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"` + b.TempDir() + `","mcpServers":[]}}`)
	var r struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(c.waitResult(b, 2), &r); err != nil {
		b.Fatal(err)
	}
	return c, r.SessionID
}

func (c *benchClient) send(line string) { _, _ = io.WriteString(c.in, line+"\n") }

func (c *benchClient) waitResult(b testing.TB, id int) json.RawMessage {
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			b.Fatalf("agent output ended: %v", err)
		}
		var m struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &m) == nil && m.Method == "" && m.ID != nil && *m.ID == id {
			if m.Error != nil {
				b.Fatalf("request %d: %s", id, m.Error)
			}
			return m.Result
		}
	}
}

func (c *benchClient) close() {
	c.in.Close()
	go io.Copy(io.Discard, c.out)
	<-c.done
	_ = c.a.Close()
}

type benchConfig map[string]any

func (m benchConfig) Get(k string) (any, bool)     { v, ok := m[k]; return v, ok }
func (m benchConfig) Secret(string) (string, bool) { return "", false }

// instantModel answers every turn with one short text.
type instantModel struct{}

func (instantModel) Metadata() provider.Metadata { return provider.Metadata{Name: "instant"} }
func (instantModel) ModelConfig() model.Config   { return model.Config{ModelName: "instant"} }
func (instantModel) FetchModels(context.Context) ([]string, error) {
	return []string{"instant"}, nil
}
func (instantModel) Complete(context.Context, provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	return conversation.AssistantText(0, "ok"), provider.ProviderUsage{Model: "instant", Usage: provider.NewUsage(1, 1)}, nil
}
func (instantModel) Stream(context.Context, provider.Request) iter.Seq2[provider.Chunk, error] {
	return func(yield func(provider.Chunk, error) bool) {
		m := conversation.AssistantText(0, "ok")
		if !yield(provider.Chunk{Message: &m}, nil) {
			return
		}
		yield(provider.Chunk{Usage: &provider.ProviderUsage{Model: "instant", Usage: provider.NewUsage(1, 1)}}, nil)
	}
}
