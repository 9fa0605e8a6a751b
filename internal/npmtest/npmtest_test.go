package npmtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// harness makes a folder with a package-lock.json, like e2e/node.
func harness(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package-lock.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fakeCI stands in for `npm ci`: it writes the hidden lock file npm
// writes last, after a pause that lets concurrent callers pile up.
func fakeCI(dir string, runs *atomic.Int32) func(context.Context) ([]byte, error) {
	return func(context.Context) ([]byte, error) {
		runs.Add(1)
		time.Sleep(50 * time.Millisecond)
		mods := filepath.Join(dir, "node_modules")
		if err := os.MkdirAll(mods, 0o755); err != nil {
			return nil, err
		}
		return nil, os.WriteFile(filepath.Join(mods, ".package-lock.json"), []byte("{}"), 0o644)
	}
}

func TestConcurrentCallersInstallOnce(t *testing.T) {
	dir := harness(t)
	var runs atomic.Int32
	var wg sync.WaitGroup
	errs := make([]error, 8)
	ranCount := atomic.Int32{}
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ran, err := ensure(dir, fakeCI(dir, &runs))
			errs[i] = err
			if ran {
				ranCount.Add(1)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if runs.Load() != 1 || ranCount.Load() != 1 {
		t.Fatalf("npm ci ran %d times (%d callers say they ran it), want exactly 1", runs.Load(), ranCount.Load())
	}
	// Installed and current: a later caller does nothing.
	if ran, err := ensure(dir, fakeCI(dir, &runs)); ran || err != nil || runs.Load() != 1 {
		t.Fatalf("second ensure: ran %v, err %v, runs %d", ran, err, runs.Load())
	}
}

func TestStaleInstallIsRedone(t *testing.T) {
	dir := harness(t)
	var runs atomic.Int32
	if _, err := ensure(dir, fakeCI(dir, &runs)); err != nil {
		t.Fatal(err)
	}
	// package-lock.json changed after the install (a pull bumped a version).
	earlier := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "node_modules", ".package-lock.json"), earlier, earlier); err != nil {
		t.Fatal(err)
	}
	if ran, err := ensure(dir, fakeCI(dir, &runs)); !ran || err != nil || runs.Load() != 2 {
		t.Fatalf("after the lock file changed: ran %v, err %v, runs %d (want a second install)", ran, err, runs.Load())
	}
}

func TestInstallErrors(t *testing.T) {
	dir := harness(t)
	_, err := ensure(dir, func(context.Context) ([]byte, error) {
		return []byte("npm ERR! network unreachable"), errors.New("exit status 1")
	})
	if err == nil || !strings.Contains(err.Error(), "npm ci in "+dir) || !strings.Contains(err.Error(), "npm ERR! network unreachable") {
		t.Fatalf("failed npm ci: err = %v, want the folder and npm's output", err)
	}
	_, err = ensure(dir, func(context.Context) ([]byte, error) { return nil, nil })
	if err == nil || !strings.Contains(err.Error(), ".package-lock.json is missing") {
		t.Fatalf("npm ci that installed nothing: err = %v", err)
	}
	_, err = ensure(t.TempDir(), func(context.Context) ([]byte, error) { return nil, nil })
	if err == nil || !strings.Contains(err.Error(), "has no package-lock.json") {
		t.Fatalf("folder without a lock file: err = %v", err)
	}
}

// recordTB captures Install's verdict without ending the real test.
type recordTB struct {
	testing.TB
	skipped, failed string
}

func (r *recordTB) Helper() {}
func (r *recordTB) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recordTB) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recordTB) Fatal(args ...any) {
	r.failed = fmt.Sprint(args...)
	runtime.Goexit()
}

func verdict(t *testing.T, dir string) *recordTB {
	r := &recordTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Install(r, dir)
	}()
	<-done
	return r
}

func TestWithoutNodeSkipsUnlessRequired(t *testing.T) {
	dir := harness(t)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GOOSE_ACP_E2E_NODE", "")
	t.Setenv("GOOSE_ACP_REQUIRE_NPM", "")
	r := verdict(t, dir)
	if r.failed != "" || !strings.HasPrefix(r.skipped, "node and npm not on PATH; install Node.js 20 or newer with npm") {
		t.Fatalf("without node: skipped %q, failed %q", r.skipped, r.failed)
	}
	t.Setenv("GOOSE_ACP_REQUIRE_NPM", "1")
	r = verdict(t, dir)
	if r.skipped != "" || r.failed != "node and npm not on PATH (GOOSE_ACP_REQUIRE_NPM=1 makes this a failure)" {
		t.Fatalf("required: skipped %q, failed %q", r.skipped, r.failed)
	}
}
