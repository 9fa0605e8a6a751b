package buildinfo

import (
	"runtime/debug"
	"sync"
)

// version is set by the linker (-X); empty in a plain `go build`.
var version = ""

// Version is the version goose-acp reports (--version, initialize's
// agentInfo, the goosed API's /status). Worked out once: without -X (a dev
// build) each call parsed the embedded build info, several times as ACP
// starts.
var Version = sync.OnceValue(func() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
})
