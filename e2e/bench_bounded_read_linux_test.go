//go:build linux

package e2e

// Bounded reads, measured on the spawned binary:
//
//	go test ./e2e -run XXX -bench BoundedResourceLink -benchtime 10x -count 5
//
// A prompt links a 2 GB sparse file, /dev/zero, a symlink to /dev/zero and
// a FIFO (client without fs.readTextFile, so the agent reads locally). Each
// op is one prompt answered; the goals are every answer within 1 s and the
// agent's peak RSS (VmHWM, the whole process lifetime) under 60 MB.

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// peakRSSMB reads a process's peak resident set size (VmHWM) in MB.
func peakRSSMB(pid int) (float64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024, err == nil
		}
	}
	return 0, false
}

// hostileLinks makes the linked files in work and returns the links.
func hostileLinks(tb testing.TB, work string) map[string]string {
	tb.Helper()
	sparse := filepath.Join(work, "sparse.bin")
	f, err := os.Create(sparse)
	if err != nil {
		tb.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		tb.Skip("no sparse files here:", err)
	}
	f.Close()
	fifo := filepath.Join(work, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		tb.Skip("no FIFOs here:", err)
	}
	zeroLink := filepath.Join(work, "zeros")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		tb.Fatal(err)
	}
	return map[string]string{"sparse.bin": sparse, "zero": "/dev/zero", "zeros": zeroLink, "pipe": fifo}
}

func linkBlocks(links map[string]string) []acp.ContentBlock {
	blocks := []acp.ContentBlock{{Type: "text", Text: "read these"}}
	for name, p := range links {
		blocks = append(blocks, acp.ContentBlock{Type: "resource_link", Name: name, URI: "file://" + p})
	}
	return blocks
}

func BenchmarkBoundedResourceLink(b *testing.B) {
	work := b.TempDir()
	benchLinkTurns(b, work, linkBlocks(hostileLinks(b, work)))
}

// benchLinkTurns spawns an agent and measures one prompt with blocks per
// op, each in a fresh session (the measure is one prompt's reads, not a
// conversation growing by an attachment per turn). It reports the slowest
// answer and the agent's peak RSS.
func benchLinkTurns(b *testing.B, work string, blocks []acp.ContentBlock) {
	env := newAgentEnv(b)
	a := spawnRaw(b, env)
	defer a.stop()
	a.call(b, "initialize", initParams)
	var slowest time.Duration
	for b.Loop() {
		b.StopTimer()
		id := a.newSession(b, work)
		env.LLM.Script.Append(providertest.Turn{Text: []string{"ok"}})
		b.StartTimer()
		start := time.Now()
		res, _ := a.call(b, "session/prompt", map[string]any{"sessionId": id, "prompt": blocks})
		slowest = max(slowest, time.Since(start))
		if !strings.Contains(string(res), `"end_turn"`) {
			b.Fatalf("prompt: %s", res)
		}
		b.StopTimer()
		a.call(b, "session/close", map[string]any{"sessionId": id})
		b.StartTimer()
	}
	b.ReportMetric(float64(slowest.Microseconds())/1000, "ms-slowest-answer")
	if mb, ok := peakRSSMB(a.cmd.Process.Pid); ok {
		b.ReportMetric(mb, "MiB-peak-RSS")
	}
}

// TestHostileResourceLinksAreAnswered: every hostile link is answered with
// a visible note, and nothing of the zeros or the 2 GB reaches the model.
func TestHostileResourceLinksAreAnswered(t *testing.T) {
	env := newAgentEnv(t, textTurn("ok"))
	c := startAgent(t, env)
	c.initialize(acp.ClientCapabilities{})
	work := t.TempDir()
	links := hostileLinks(t, work)
	sess := c.newSession(work)
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.promptBlocks(sess.SessionID, linkBlocks(links)...)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the prompt with hostile links was never answered")
	}
	for _, want := range []string{
		"[zero](file:///dev/zero) was not attached: Access to '/dev/zero' is refused: /dev is a pseudo-filesystem, never read or written",
		"[zeros](file://" + links["zeros"] + ") was not attached: Access to '" + links["zeros"] + "' is refused: /dev is a pseudo-filesystem",
		"[pipe](file://" + links["pipe"] + ") was not attached: '" + links["pipe"] + "' is a named pipe (FIFO), not a regular file",
		"[sparse.bin](file://" + links["sparse.bin"] + ") was not attached: '" + links["sparse.bin"] + "' is a binary file (it has NUL bytes), not text",
	} {
		if !llmSaw(env, want) {
			t.Errorf("the model did not see %q", want)
		}
	}
	for _, r := range env.LLM.Requests() {
		if len(r.Body) > 1<<20 {
			t.Errorf("a request of %d bytes reached the model", len(r.Body))
		}
	}
}

// BenchmarkLargeTextResourceLink: a 64 MiB text file linked; 1 MiB of it is
// attached (then "[truncated]"), so the cost is one 1 MiB turn, not the
// file's size. That turn is not cheap: token counting of the 1 MiB message
// (tiktoken's regexp over every piece) dominates its time and peak RSS.
func BenchmarkLargeTextResourceLink(b *testing.B) {
	work := b.TempDir()
	big := filepath.Join(work, "big.log")
	line := strings.Repeat("2026-01-01 12:00:00 INFO something happened here ", 2) + "\n"
	if err := os.WriteFile(big, []byte(strings.Repeat(line, (64<<20)/len(line))), 0o644); err != nil {
		b.Fatal(err)
	}
	benchLinkTurns(b, work, []acp.ContentBlock{{Type: "resource_link", Name: "big.log", URI: "file://" + big}})
}

// BenchmarkLargePromptRSS: one 31 MB text prompt to the spawned binary
// (sqlite store, mock OpenAI server); reports the agent's peak RSS growth
// over its RSS before the prompt, as a multiple of the prompt's size. The
// in-process split between the ACP face and core is BenchmarkLargePromptPeakHeap in acp/.
func BenchmarkLargePromptRSS(b *testing.B) { largePromptRSS(b, providertest.OpenAI) }

// BenchmarkAnthropicHugePromptRSS is BenchmarkLargePromptRSS against a
// mock Anthropic Messages server.
//
//	go test ./e2e -run XXX -bench AnthropicHugePromptRSS -benchtime 1x -count 5
func BenchmarkAnthropicHugePromptRSS(b *testing.B) { largePromptRSS(b, providertest.Anthropic) }

// BenchmarkGoogleHugePromptRSS is the same against a mock Gemini server.
//
//	go test ./e2e -run XXX -bench GoogleHugePromptRSS -benchtime 1x -count 5
func BenchmarkGoogleHugePromptRSS(b *testing.B) { largePromptRSS(b, providertest.Google) }

func largePromptRSS(b *testing.B, format providertest.Format) {
	var worst float64
	for b.Loop() {
		b.StopTimer()
		worst = max(worst, hugePromptGrowth(b, format, b.StartTimer, b.StopTimer))
		b.StartTimer()
	}
	b.ReportMetric(worst, "peak-RSS-growth-x")
}

// hugePromptGrowth sends one 31 MB text prompt to a new agent and returns
// its peak RSS growth over its RSS before the prompt, as a multiple of the
// prompt's size; start and stop bracket the prompt.
func hugePromptGrowth(tb testing.TB, format providertest.Format, start, stop func()) float64 {
	const size = 31 << 20
	text := strings.Repeat("0123456789abcdef", size/16)
	env := newAgentEnvFor(tb, format)
	a := spawnRaw(tb, env)
	defer a.stop()
	a.call(tb, "initialize", initParams)
	id := a.newSession(tb, tb.TempDir())
	// The prompt is over the model's auto-compact threshold: one
	// answer for the summary, one for the turn.
	env.LLM.Script.Append(providertest.Turn{Text: []string{"summary"}}, providertest.Turn{Text: []string{"ok"}})
	before, _ := peakRSSMB(a.cmd.Process.Pid)
	start()
	res, _ := a.call(tb, "session/prompt", map[string]any{"sessionId": id, "prompt": []acp.ContentBlock{{Type: "text", Text: text}}})
	stop()
	if !strings.Contains(string(res), `"end_turn"`) {
		tb.Fatalf("prompt: %.300s", res)
	}
	peak, ok := peakRSSMB(a.cmd.Process.Pid)
	if !ok {
		tb.Fatal("no VmHWM for the agent")
	}
	return (peak - before) * (1 << 20) / size
}

// TestHugePromptPeakRSS: a 31 MB prompt (compaction, then the turn) grows
// the agent's peak RSS by at most 2.8× its size (2.1× as measured; 3.1×
// before its row was staged, and again while every SQLite connection kept
// the write-ahead log): the benchmarks' figure, held by a test so that a
// change bringing a copy of the prompt back fails here.
func TestHugePromptPeakRSS(t *testing.T) {
	if growth := hugePromptGrowth(t, providertest.OpenAI, func() {}, func() {}); growth > 2.8 {
		t.Errorf("a 31 MB prompt grew the agent's peak RSS by %.2f× its size, want ≤ 2.8×", growth)
	}
}
