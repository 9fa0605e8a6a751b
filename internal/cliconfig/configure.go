package cliconfig

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/goose-acp/goose-acp/core/setup"
)

// Exit codes of `goose-acp configure` (both halves).
const (
	ExitOK        = 0
	ExitFailed    = 1 // the test or the save failed; nothing saved
	ExitUsage     = 2 // usage errors, or no flags and stdin is not a terminal
	ExitInterrupt = 130
)

// TerminalStdin returns stdin as a file when it is a terminal.
func TerminalStdin(r io.Reader) (*os.File, bool) {
	f, ok := r.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return nil, false
	}
	return f, true
}

// RefuseWithoutTerminal tells a script to use the flags; it returns
// ExitUsage.
func RefuseWithoutTerminal(stderr io.Writer) int {
	fmt.Fprintln(stderr, "Error: goose-acp configure needs an interactive terminal (stdin is not one).\n"+
		"For scripts: goose-acp configure --provider openai --model gpt-4o-mini --api-key-env OPENAI_API_KEY")
	return ExitUsage
}

// OpenSetup is configure's start: its logger (at error level unless
// logLevel or GOOSE_LOG_LEVEL asks otherwise, since configure reports
// failures itself), the configuration, and core/setup over it with the
// process environment. On failure it has written the error and returns
// the exit code (ExitUsage for the logger, ExitFailed for the files).
func OpenSetup(logLevel, logFile string, stderr io.Writer, getenv func(string) string) (*setup.Setup, func() error, int) {
	log, closeLog, err := NewLogger(cmp.Or(logLevel, getenv("GOOSE_LOG_LEVEL"), "error"), logFile, stderr, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return nil, nil, ExitUsage
	}
	o, err := Open(getenv, log)
	if err != nil {
		_ = closeLog()
		fmt.Fprintln(stderr, "Error:", err)
		return nil, nil, ExitFailed
	}
	s := setup.New(setup.Options{Config: o.Config, Logger: log, Env: func(k string) (string, bool) {
		v := getenv(k)
		return v, v != ""
	}})
	return s, closeLog, ExitOK
}

// PrintSaved is what configure prints once the settings are saved.
func PrintSaved(w io.Writer, c setup.Choice, saved setup.Saved) {
	fmt.Fprintf(w, "Saved GOOSE_PROVIDER=%s and GOOSE_MODEL=%s to %s\n", c.Provider, c.Model, saved.ConfigFile)
	if len(saved.SecretKeys) > 0 {
		fmt.Fprintf(w, "Stored %s in %s\n", strings.Join(saved.SecretKeys, ", "), saved.SecretStore)
	}
}

// IsHostKey reports a provider's host or endpoint setting.
func IsHostKey(name string) bool {
	return strings.HasSuffix(name, "_HOST") || strings.HasSuffix(name, "_ENDPOINT") || strings.HasSuffix(name, "_BASE_URL")
}
