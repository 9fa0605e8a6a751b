package earlyinfo

import (
	"testing"
	"time"
)

// Version waits for SetVersion (internal/buildinfo's initialisation),
// then reads the version through the function handed over.
func TestVersionWaitsForSetVersion(t *testing.T) {
	got := make(chan string)
	go func() { got <- Version() }()
	select {
	case v := <-got:
		t.Fatalf("Version returned %q before SetVersion", v)
	case <-time.After(20 * time.Millisecond):
	}
	SetVersion(func() string { return "1.2.3" })
	if v := <-got; v != "1.2.3" {
		t.Fatalf("Version() = %q, want 1.2.3", v)
	}
	if v := Version(); v != "1.2.3" {
		t.Fatalf("second Version() = %q", v)
	}
}
