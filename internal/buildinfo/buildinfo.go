package buildinfo

import (
	"runtime/debug"
	"sync"

	"github.com/goose-acp/goose-acp/internal/earlyinfo"
)

// Version is the version goose-acp reports (--version, initialize's
// agentInfo, the goosed API's /status). Worked out once: without -X (a dev
// build) each call parsed the embedded build info, several times as ACP
// starts.
var Version = sync.OnceValue(func() string {
	if v := earlyinfo.Stamped(); v != "" {
		return v
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
})

// The first-frame responder reads the version through earlyinfo, which it
// can import without runtime/debug (earlyinfo's doc says why).
func init() { earlyinfo.SetVersion(Version) }
