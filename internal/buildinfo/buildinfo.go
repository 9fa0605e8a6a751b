package buildinfo

import "runtime/debug"

// version is set by the linker (-X); empty in a plain `go build`.
var version = ""

// Version is the version goose-acp reports (--version, initialize's
// agentInfo, the goosed API's /status).
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
