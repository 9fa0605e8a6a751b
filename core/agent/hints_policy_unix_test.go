//go:build unix

package agent

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Hint @imports go through the path policy and bounded reads: a FIFO is
// skipped instead of blocking session start, a .gooseignore'd file and a
// hard link to it are not imported, a hint file that is a FIFO is skipped.
func TestHintImportsFollowThePathPolicy(t *testing.T) {
	t.Setenv("GOOSE_PATH_ROOT", t.TempDir())
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.md"), 0o600); err != nil {
		t.Skip(err)
	}
	_ = os.WriteFile(filepath.Join(dir, ".env"), []byte("API_KEY=sk-hint-leak"), 0o600)
	_ = os.Link(filepath.Join(dir, ".env"), filepath.Join(dir, "linked.md"))
	_ = os.WriteFile(filepath.Join(dir, "ok.md"), []byte("imported-fine"), 0o644)
	_ = os.WriteFile(filepath.Join(dir, ".goosehints"), []byte("@pipe.md\n@.env\n@linked.md\n@ok.md"), 0o644)
	sub := filepath.Join(dir, "sub")
	_ = os.Mkdir(sub, 0o755)
	_ = syscall.Mkfifo(filepath.Join(sub, "AGENTS.md"), 0o600)
	done := make(chan string, 1)
	go func() {
		done <- loadHints(dir, "", "", []string{".goosehints"}) + loadHints(sub, "", "", []string{"AGENTS.md"})
	}()
	var got string
	select {
	case got = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("loading hints blocked on a FIFO")
	}
	if strings.Contains(got, "sk-hint-leak") || !strings.Contains(got, "imported-fine") ||
		!strings.Contains(got, "@pipe.md") || !strings.Contains(got, "@.env") || !strings.Contains(got, "@linked.md") {
		t.Fatalf("hints = %q", got)
	}
}
