package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

var update = flag.Bool("update", false, "rewrite testdata/stream_2000.sse")

const recordedStream = "testdata/stream_2000.sse"
const recordedChunks = 2000

// recordedTurn is a long reply: reasoning, text, and ten tool calls whose
// arguments arrive in fragments — 2,000 Chat Completions chunks in all.
func recordedTurn() providertest.Turn {
	t := providertest.Turn{Usage: &providertest.Usage{Input: 5000, Output: 2100}}
	for i := range 250 {
		t.Thinking = append(t.Thinking, fmt.Sprintf("step %d of the plan; ", i))
	}
	for i := range 1707 {
		t.Text = append(t.Text, fmt.Sprintf("token%d \"quoted\" ", i))
	}
	for i := range 10 {
		t.ToolCalls = append(t.ToolCalls, providertest.ToolCall{ID: fmt.Sprintf("call_%02d", i), Name: "developer__shell",
			Arguments: fmt.Sprintf(`{"command":"grep -rn \"pattern %d\" ./src --include=*.go"}`, i)})
	}
	return t
}

func writeRecordedStream() ([]byte, error) {
	var buf bytes.Buffer
	for _, c := range providertest.OpenAIChunks("chatcmpl-recorded", "gpt-4o-2024-08-06", recordedTurn(), true) {
		b, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&buf, "data: %s\n\n", b)
	}
	buf.WriteString("data: [DONE]\n\n")
	return buf.Bytes(), nil
}

func loadRecordedStream(tb testing.TB) []byte {
	tb.Helper()
	if *update {
		b, err := writeRecordedStream()
		if err == nil {
			err = os.WriteFile(recordedStream, b, 0o644)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	b, err := os.ReadFile(recordedStream)
	if err != nil {
		tb.Fatalf("%v (run go test -run Recorded -update to record it)", err)
	}
	return b
}

func parseAll(tb testing.TB, data []byte) (messages int) {
	p := newStreamParser(bytes.NewReader(data), "openai", "gpt-4o", userHi, fixedNow)
	for c, err := range p.chunks(context.Background()) {
		if err != nil {
			tb.Fatal(err)
		}
		if c.Message != nil {
			messages++
		}
	}
	return messages
}

func TestRecordedStreamParses(t *testing.T) {
	data := loadRecordedStream(t)
	if n := bytes.Count(data, []byte("data: {")); n != recordedChunks {
		t.Fatalf("recorded stream has %d chunks, want %d", n, recordedChunks)
	}
	// 250 thinking + 1707 text deltas, then one message with the 10 calls.
	if got := parseAll(t, data); got != 250+1707+1 {
		t.Fatalf("got %d messages", got)
	}
}

// TestParseAllocationBudget holds the parser to ≤10 allocations per chunk.
func TestParseAllocationBudget(t *testing.T) {
	data := loadRecordedStream(t)
	per := testing.AllocsPerRun(3, func() { parseAll(t, data) }) / recordedChunks
	t.Logf("%.2f allocs/chunk", per)
	if per > 10 {
		t.Fatalf("%.2f allocs per chunk, budget is 10", per)
	}
}

func BenchmarkParseRecordedStream(b *testing.B) {
	data := loadRecordedStream(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		parseAll(b, data)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/recordedChunks, "ns/chunk")
}
