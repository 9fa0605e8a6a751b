package earlyinfo

// StampVar is the variable a release build stamps the version into:
// go build -ldflags "-X <StampVar>=<version>" (internal/release does).
const StampVar = "github.com/goose-acp/goose-acp/internal/earlyinfo.stamped"

// stamped is set by the linker (-X StampVar=…); empty in a plain `go build`.
var stamped = ""

var (
	set     = make(chan struct{})
	version func() string
)

// Stamped is the version stamped at build time, or "".
func Stamped() string { return stamped }

// SetVersion hands over how the version is read; internal/buildinfo's
// initialisation calls it, once.
func SetVersion(f func() string) {
	version = f
	close(set)
}

// Version is the version: a stamped one at once, else internal/buildinfo's
// once SetVersion has been called (it waits until then: only a binary that
// links internal/buildinfo, as cmd/goose-acp does, may call it unstamped).
func Version() string {
	if stamped != "" {
		return stamped
	}
	<-set
	return version()
}
