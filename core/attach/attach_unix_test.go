//go:build unix

package attach

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/pathpolicy"
)

// A FIFO in the working dir is refused at once instead of blocking the
// prompt forever.
func TestFIFOLinkDoesNotBlock(t *testing.T) {
	wd := t.TempDir()
	fifo := filepath.Join(wd, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	pol := pathpolicy.New(pathpolicy.Options{WorkingDir: wd, ConfigDir: t.TempDir()})
	done := make(chan string, 1)
	go func() { done <- Link(context.Background(), pol, "pipe", "file://"+fifo, nil) }()
	select {
	case got := <-done:
		if !strings.Contains(got, "was not attached: '"+fifo+"' is a named pipe (FIFO), not a regular file") {
			t.Fatalf("fifo link = %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a FIFO link blocked the prompt")
	}
}
