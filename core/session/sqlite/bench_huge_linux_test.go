//go:build linux

package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// BenchmarkAppendHugeMessage stores one 31 MB user message (the huge prompt's
// prompt) and reports the process's peak RSS growth (VmHWM after
// /proc/self/clear_refs) as a multiple of its size. The message's text
// is Go's before the store; SQLite reads the staged row's record once
// (stage.go), so storing it costs about 1× (2× when the value was bound
// or written in place: SQLite held it and the record built from it).
//
//	go test ./core/session/sqlite -run XXX -bench AppendHugeMessage -benchtime 1x -count 5
func BenchmarkAppendHugeMessage(b *testing.B) {
	const size = 31 << 20
	ctx := context.Background()
	st := openStore(&testing.T{}, filepath.Join(b.TempDir(), "sessions.db"), nil)
	defer st.Close()
	m := conversation.UserText(1_800_000_000, strings.Repeat("0123456789abcdef", size/16))
	var worstRSS float64
	for b.Loop() {
		b.StopTimer()
		s, err := st.Create(ctx, session.NewSession{WorkingDir: "/bench"})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		rss0 := resetPeakRSS(b)
		b.StartTimer()
		if err := st.AppendMessage(ctx, s.ID, m); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		worstRSS = max(worstRSS, float64(peakRSS(b)-rss0)/size)
		b.StartTimer()
	}
	b.ReportMetric(worstRSS, "peak-RSS-growth-x")
}

// resetPeakRSS resets VmHWM to the current RSS and returns it.
func resetPeakRSS(b testing.TB) int {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skip("cannot reset the peak RSS:", err)
	}
	return peakRSS(b)
}

func peakRSS(b testing.TB) int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return kb << 10
		}
	}
	b.Skip("no VmHWM")
	return 0
}
