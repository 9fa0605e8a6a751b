package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"
)

// An ACP process opens an existing sessions.db from its start, before the
// editor's first request (an editor's first session/new otherwise waits
// for the open), and closes it cleanly when the editor leaves without
// asking for anything. A missing sessions.db is still created only at
// initialize (TestACPExitsCleanlyOnEOFWithSilentStdout).
func TestACPOpensAnExistingSessionsDBAtStart(t *testing.T) {
	getenv := testEnv(t, nil)
	db := filepath.Join(getenv("GOOSE_PATH_ROOT"), "data", "sessions", "sessions.db")
	code, out, errOut := runCLI(t, getenv, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n")
	if code != 0 || !strings.Contains(out, `"protocolVersion":1`) {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	if n := walSize(db); n != oneFrameWAL {
		t.Fatalf("sessions.db-wal after a clean exit: %d bytes, want one frame (%d)", n, oneFrameWAL)
	}
	in, w := io.Pipe()
	done := make(chan int, 1)
	var stdout, stderr strings.Builder
	go func() { done <- run(context.Background(), nil, in, &stdout, &stderr, getenv) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		// The open of an up-to-date file writes nothing: it has the
		// file open.
		if openHere(t, db) {
			break
		}
		if time.Now().After(deadline) {
			_ = w.Close()
			<-done
			t.Fatal("sessions.db was not opened before the editor's first request")
		}
		time.Sleep(2 * time.Millisecond)
	}
	_ = w.Close()
	if code := <-done; code != 0 || stdout.String() != "" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if n := walSize(db); n != oneFrameWAL {
		t.Errorf("the store opened at start was not closed: sessions.db-wal has %d bytes", n)
	}
}

// oneFrameWAL is the write-ahead log a closed store leaves: its header
// and one 4 KiB page.
const oneFrameWAL = 32 + 24 + 4096

// openHere reports whether this process has path open (Linux: its
// descriptors in /proc/self/fd).
func openHere(t *testing.T, path string) bool {
	t.Helper()
	if goruntime.GOOS != "linux" {
		t.Skip("open files are listed in /proc/self/fd on Linux only")
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && target == path {
			return true
		}
	}
	return false
}

// walSize is the size of db's write-ahead log (-1: none).
func walSize(db string) int64 {
	fi, err := os.Stat(db + "-wal")
	if err != nil {
		return -1
	}
	return fi.Size()
}
