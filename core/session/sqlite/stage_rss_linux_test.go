//go:build linux

package sqlite_test

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

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
		before := resetPeakRSS(t)
		if err := f(); err != nil {
			t.Fatal(err)
		}
		growth := float64(peakRSS(t)-before) / size
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
