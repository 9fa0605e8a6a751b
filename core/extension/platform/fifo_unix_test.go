//go:build unix

package platform

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO where a skill file or a tom file is expected is refused at once;
// os.Open on it used to block until a writer came.
func TestSkillAndTomReadsDoNotBlockOnFIFOs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "SKILL.md")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := readSkillFile(dir, fifo)
		if got := readClipped(fifo); got != "" {
			t.Errorf("tom read %q", got)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO skill file was read")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO skill file blocked")
	}
}
