package earlystore

import (
	"context"
	"os"

	"github.com/goose-acp/goose-acp/cmd/goose-acp/internal/firstframe"
	"github.com/goose-acp/goose-acp/core/config"
)

// atStart is the open init started, or nil.
var atStart *Store

// The open starts while the rest of the binary's packages initialise
// (~2 ms of a fresh process): only for the invocations that serve ACP on
// stdio and open the database when the editor asks (no --http), with the
// process's own environment. Other commands and test binaries open
// nothing here.
func init() {
	if !firstframe.ServesACPOnStdio(os.Args[1:]) {
		return
	}
	atStart = Start(context.Background(), sessionsDB(os.Getenv))
}

// AtStart hands over the open init started for path (nil when there is
// none, or it is for another path, which it then closes).
func AtStart(path string) *Store {
	e := atStart
	atStart = nil
	if e == nil || e.path == path {
		return e
	}
	e.CloseUnused()
	return nil
}

// DiscardAtStart closes an open init started that nobody took (a command
// that ended before asking for it).
func DiscardAtStart() {
	if e := atStart; e != nil {
		atStart = nil
		e.CloseUnused()
	}
}

// sessionsDB is the sessions.db path goose-acp resolves for getenv.
func sessionsDB(getenv func(string) string) string {
	home, _ := os.UserHomeDir()
	if h := getenv("HOME"); h != "" {
		home = h
	}
	paths, err := config.ResolvePaths(getenv, home)
	if err != nil {
		return ""
	}
	return paths.SessionsDB()
}
