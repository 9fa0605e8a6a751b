package npmtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// installTimeout bounds one `npm ci`; a cold cache on a slow link takes
// a minute or two for the biggest harness.
const installTimeout = 10 * time.Minute

// Required reports whether a missing Node toolchain must fail the test:
// GOOSE_ACP_REQUIRE_NPM=1, or the older GOOSE_ACP_E2E_NODE that CI also sets.
func Required() bool {
	return os.Getenv("GOOSE_ACP_REQUIRE_NPM") == "1" || os.Getenv("GOOSE_ACP_E2E_NODE") != ""
}

// Install makes dir's locked npm packages present and returns dir as an
// absolute path. Without node or npm on PATH it skips t (fails it when
// Required). A failing `npm ci` always fails t: npm is there, so the
// install is expected to work.
func Install(t testing.TB, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := Toolchain(); err != nil {
		if Required() {
			t.Fatalf("%v (GOOSE_ACP_REQUIRE_NPM=1 makes this a failure)", err)
		}
		t.Skipf("%v; install Node.js 20 or newer with npm to run this test (GOOSE_ACP_REQUIRE_NPM=1 makes this a failure)", err)
	}
	ran, err := ensure(abs, func(ctx context.Context) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = abs
		return cmd.CombinedOutput()
	})
	if err != nil {
		t.Fatal(err)
	}
	if ran {
		t.Logf("npmtest: installed the locked npm packages in %s", abs)
	}
	return abs
}

// Toolchain reports which of node and npm is missing from PATH.
func Toolchain() error {
	var missing []string
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s not on PATH", strings.Join(missing, " and "))
	}
	return nil
}

// ensure runs install in dir unless its node_modules is current, holding
// dir's lock while it checks again and installs. It reports whether it ran.
func ensure(dir string, install func(context.Context) ([]byte, error)) (bool, error) {
	if ok, err := current(dir); err != nil || ok {
		return false, err
	}
	unlock, err := lock(lockPath(dir))
	if err != nil {
		return false, fmt.Errorf("npmtest: lock for %s: %w", dir, err)
	}
	defer unlock()
	// Another process may have installed while we waited for the lock.
	if ok, err := current(dir); err != nil || ok {
		return false, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	if out, err := install(ctx); err != nil {
		return true, fmt.Errorf("npmtest: npm ci in %s: %w\n%s", dir, err, out)
	}
	if ok, err := current(dir); err != nil || !ok {
		return true, fmt.Errorf("npmtest: npm ci in %s finished but node_modules/.package-lock.json is missing or older than package-lock.json (err: %v)", dir, err)
	}
	return true, nil
}

// current reports whether dir's node_modules matches its package-lock.json:
// npm writes node_modules/.package-lock.json at the end of every install,
// so one at least as new as the lock file means nothing changed since.
func current(dir string) (bool, error) {
	want, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false, fmt.Errorf("npmtest: %s has no package-lock.json: %w", dir, err)
	}
	got, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("npmtest: %w", err)
	}
	return !got.ModTime().Before(want.ModTime()), nil
}

// lockPath is outside the work tree (nothing to ignore or clean up) and
// one per harness folder, so different folders install in parallel.
func lockPath(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(os.TempDir(), "goose-acp-npm-"+hex.EncodeToString(sum[:8])+".lock")
}
