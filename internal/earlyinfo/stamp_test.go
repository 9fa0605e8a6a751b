package earlyinfo

import (
	"os/exec"
	"strings"
	"testing"
)

// A build stamped the way internal/release stamps one (-X StampVar=…)
// reports that version through earlyinfo, at once, and through
// internal/buildinfo; an unstamped build reports buildinfo's own.
func TestStampVarIsWhatTheLinkerSets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a small program")
	}
	for _, c := range []struct{ ldflags, want string }{
		{"-X " + StampVar + "=9.8.7-test", "9.8.7-test 9.8.7-test"},
		{"", "dev dev"},
	} {
		out, err := exec.Command("go", "run", "-buildvcs=false", "-ldflags", c.ldflags, "./testdata/stamped").CombinedOutput()
		if err != nil {
			t.Fatalf("go run -ldflags %q: %v\n%s", c.ldflags, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != c.want {
			t.Errorf("-ldflags %q: printed %q, want %q", c.ldflags, got, c.want)
		}
	}
}
