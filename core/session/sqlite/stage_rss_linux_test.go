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

// vmHWM resets the process's peak RSS to its RSS (clear_refs 5) when
// reset, and returns the peak in bytes.
func vmHWM(t *testing.T, reset bool) int {
	t.Helper()
	if reset {
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			t.Fatal("cannot reset the peak RSS:", err)
		}
	}
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// TestHugeRowCostsSQLiteOneCopy: storing a huge message, and compaction
// rewriting its row's metadata, grow the process by about the row once
// (SQLite reading the staged record), not twice (SQLite holding the
// value and building the record from it, as an INSERT or UPDATE of the
// value does).
func TestHugeRowCostsSQLiteOneCopy(t *testing.T) {
	const size = 24 << 20
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "sessions.db"), nil)
	defer st.Close()
	s, err := st.Create(ctx, session.NewSession{WorkingDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	m := conversation.UserText(1_800_000_000, strings.Repeat("0123456789abcdef", size/16)).WithID("big")
	measure := func(what string, f func() error) {
		runtime.GC()
		before := vmHWM(t, true)
		if err := f(); err != nil {
			t.Fatal(err)
		}
		growth := float64(vmHWM(t, false)-before) / size
		t.Logf("%s: peak RSS growth %.2f× the row", what, growth)
		if growth > 1.5 {
			t.Errorf("%s grew the process by %.2f× the row", what, growth)
		}
	}
	measure("storing the message", func() error { return st.AppendMessage(ctx, s.ID, m) })
	hidden := m.WithMetadata(conversation.Metadata{UserVisible: true})
	measure("rewriting its metadata", func() error {
		return st.ReplaceConversation(ctx, s.ID, []conversation.Message{hidden, conversation.UserText(1_800_000_001, "summary")})
	})
}
