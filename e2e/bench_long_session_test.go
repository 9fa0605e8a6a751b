package e2e

// The long-session goal, measured on the spawned binary:
//
//	go test -run XXX -bench LongSession -benchtime 20x -count 10 ./e2e/
//
// After a first resume + prompt (reported as ms-first-resume+prompt), each
// op resumes the session, sends one prompt against an instant mock LLM
// and closes the session (untimed); ms-resume and ms-prompt are the two steps'
// own times (goal: the prompt ≤ 50 ms at 8,000 messages), MiB-RSS the
// agent's resident set after the loop (goal ≤ 40 MB).

import (
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func BenchmarkLongSession2k(b *testing.B) { benchLongSession(b, 2_000) }
func BenchmarkLongSession8k(b *testing.B) { benchLongSession(b, 8_000) }

func benchLongSession(b *testing.B, n int) {
	env := newAgentEnv(b)
	cwd := b.TempDir()
	id := seedLongSession(b, env, cwd, n)
	a := spawnRaw(b, env)
	defer a.stop()
	a.call(b, "initialize", initParams)
	turn := providertest.Turn{Text: []string{"Done."}, Usage: &providertest.Usage{Input: 50, Output: 3}}
	resume := map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}}
	// The first prompt finds no stored token total, counts the history
	// (1.15 M tokens at 8,000 messages, over gpt-4o's compaction
	// threshold) and compacts it, as goose does; it is reported on its
	// own, the loop measures the turns after it.
	env.LLM.Script.Append(turn, turn)
	first := time.Now()
	a.call(b, "session/resume", resume)
	a.prompt(b, id, "one more thing")
	firstOp := time.Since(first)
	a.call(b, "session/close", map[string]any{"sessionId": id})
	var resumed, prompted time.Duration
	start := a.cpu()
	for b.Loop() {
		b.StopTimer()
		env.LLM.Script.Append(turn)
		b.StartTimer()
		t0 := time.Now()
		a.call(b, "session/resume", resume)
		t1 := time.Now()
		a.prompt(b, id, "one more thing")
		t2 := time.Now()
		resumed += t1.Sub(t0)
		prompted += t2.Sub(t1)
		b.StopTimer()
		a.call(b, "session/close", map[string]any{"sessionId": id})
		b.StartTimer()
	}
	a.reportCPU(b, start)
	b.ReportMetric(float64(resumed.Microseconds())/1000/float64(b.N), "ms-resume")
	b.ReportMetric(float64(prompted.Microseconds())/1000/float64(b.N), "ms-prompt")
	b.ReportMetric(float64(firstOp.Microseconds())/1000, "ms-first-resume+prompt")
	if mb, ok := rssMB(a.cmd.Process.Pid); ok {
		b.ReportMetric(mb, "MiB-RSS")
	}
}

// seedLongSession stores n alternating user/assistant messages of about
// 144 o200k tokens each (8,000 of them ≈ 1.15 M tokens, the shape).
func seedLongSession(b *testing.B, env *agentEnv, cwd string, n int) string {
	b.Helper()
	return seedSessionText(b, env, cwd, n, "lorem ipsum dolor sit amet, consectetur adipiscing elit; ", 16)
}
