package developer

import (
	"bytes"
	"context"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/developer/shellrun"
)

// loginPathTimeout bounds the login-shell probe (a slow rc file must not
// stall every command).
const loginPathTimeout = 5 * time.Second

var (
	loginPathOnce  sync.Once
	loginPathValue string
)

// loginPath is the PATH a login shell sees, probed once per process; ""
// when the probe fails (the inherited PATH is then kept).
func (s *service) loginPath(spec shellrun.Spec) string {
	loginPathOnce.Do(func() {
		if runtime.GOOS == "windows" || spec.Flavor != "posix" {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), loginPathTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, spec.Path, "-l", "-i", "-c", "echo $PATH")
		shellrun.Detach(cmd)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			s.log.Warn("login shell PATH probe failed", "shell", spec.Path, "err", err)
			return
		}
		loginPathValue = lastNonEmptyLine(out.String())
	})
	return loginPathValue
}

func lastNonEmptyLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}
