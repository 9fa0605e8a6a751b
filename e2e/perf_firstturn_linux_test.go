//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// BenchmarkFreshProcessFirstTurn is the start-up figure, what an
// editor meets when it starts goose-acp for a new chat (Zed and
// codecompanion start one process per chat, acpx one per command): every
// iteration spawns a fresh process and times, as client round trips,
// spawn → initialize, session/new (a cwd, no MCP servers) and the
// session's first prompt "Say hello.", answered at once by the mock in two
// SSE chunks; config.yaml enables the developer extension and an
// OpenAI-compatible provider on the mock, session naming is off. It
// reports the medians of the iterations (ms-initialize, ms-new,
// ms-first-prompt, ms-total = spawn → prompt answered) and the peak RSS of
// the process tree after that first turn (MiB-peak-RSS, VmHWM):
//
//	go test -run '^$' -bench FreshProcessFirstTurn -benchtime 10x -count 10 ./e2e/
//
// Goals: session/new ≤ 1.8 ms, first prompt ≤ 8 ms, total
// ≤ 17 ms, peak RSS ≤ 20 MB. The binary is the test's own build: a
// binary the linker just wrote can sit in the page cache in larger folios
// than a copied one, which maps more of it per page fault (RSS).
func BenchmarkFreshProcessFirstTurn(b *testing.B) {
	env := newAgentEnv(b)
	dir := filepath.Join(env.Root, "config")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	cfg := fmt.Sprintf("GOOSE_PROVIDER: openai\nGOOSE_MODEL: gpt-4o\nOPENAI_HOST: %s\nextensions:\n  developer:\n    enabled: true\n    type: builtin\n    name: developer\n    display_name: Developer\n    timeout: 300\n    bundled: true\n", env.LLM.URL)
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	for _, k := range []string{"GOOSE_PROVIDER", "GOOSE_MODEL", "OPENAI_HOST"} {
		delete(env.Vars, k) // from config.yaml, as a user has them
	}
	cwd := b.TempDir()
	turn := providertest.Turn{Text: []string{"Hello! ", "How can I help?"}, Usage: &providertest.Usage{Input: 50, Output: 6}}
	var inits, news, prompts, totals, rss []float64
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for b.Loop() {
		b.StopTimer()
		env.LLM.Script.Append(turn)
		b.StartTimer()
		t0 := time.Now()
		a := spawnRaw(b, env)
		a.call(b, "initialize", initParams)
		t1 := time.Now()
		id := a.newSession(b, cwd)
		t2 := time.Now()
		a.prompt(b, id, "Say hello.")
		t3 := time.Now()
		b.StopTimer()
		if mb, ok := treePeakRSSMB(a.cmd.Process.Pid); ok {
			rss = append(rss, mb)
		}
		a.stop()
		inits, news, prompts, totals = append(inits, ms(t1.Sub(t0))), append(news, ms(t2.Sub(t1))), append(prompts, ms(t3.Sub(t2))), append(totals, ms(t3.Sub(t0)))
		b.StartTimer()
	}
	b.ReportMetric(median(inits), "ms-initialize")
	b.ReportMetric(median(news), "ms-new")
	b.ReportMetric(median(prompts), "ms-first-prompt")
	b.ReportMetric(median(totals), "ms-total")
	if len(rss) > 0 {
		b.ReportMetric(median(rss), "MiB-peak-RSS")
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

// treePeakRSSMB is the sum of the peak resident set sizes (VmHWM) of a
// process and its descendants, in MiB.
func treePeakRSSMB(pid int) (float64, bool) {
	total, ok := peakRSSMB(pid)
	if !ok {
		return 0, false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return total, true
	}
	for _, f := range strings.Fields(string(b)) {
		if child, err := strconv.Atoi(f); err == nil {
			if mb, ok := treePeakRSSMB(child); ok {
				total += mb
			}
		}
	}
	return total, true
}
