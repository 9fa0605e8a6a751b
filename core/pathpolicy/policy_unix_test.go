//go:build unix

package pathpolicy

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestOpenRegularRefusesWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan error, 1)
	go func() { _, _, err := ReadText(context.Background(), fifo, 1<<20); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "is a named pipe (FIFO), not a regular file") {
			t.Fatalf("fifo: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
	if _, _, err := ReadText(context.Background(), "/dev/zero", 1<<20); !errors.Is(err, ErrNotRegular) ||
		!strings.Contains(err.Error(), "is a character device") {
		t.Fatalf("/dev/zero: %v", err)
	}
	if _, err := CreateRegular(fifo); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("write to fifo: %v", err)
	}
}
