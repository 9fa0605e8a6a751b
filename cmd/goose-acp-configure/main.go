package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/goose-acp/goose-acp/internal/cliconfig"
	"github.com/goose-acp/goose-acp/internal/configureui"
	"github.com/goose-acp/goose-acp/internal/helperexe"
)

const usage = `Usage: goose-acp-configure [--log-level LEVEL] [--log-file FILE] [--agent PATH]

The interactive goose-acp configure: pick a provider, key and model in the
terminal. goose-acp runs it for "goose-acp configure" without flags; for
scripts use goose-acp configure --provider NAME --model MODEL [flags].

  --log-level LEVEL   debug, info, warn or error (default GOOSE_LOG_LEVEL or error)
  --log-file FILE     write logs to this file instead of stderr
  --agent PATH        the goose-acp to name at the end (default: the one beside this program, else on PATH)

Exit status: 0 saved; 1 the test or the save failed (nothing saved); 2 usage
errors, or stdin is not a terminal; 130 cancelled.
`

func main() {
	// As goose-acp's own commands: the first Ctrl-C or SIGTERM cancels,
	// a second one ends the process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() { <-ctx.Done(); stop() }()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	var logLevel, logFile, agent string
	fs := flag.NewFlagSet("goose-acp-configure", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&logLevel, "log-level", "", "")
	fs.StringVar(&logFile, "log-file", "", "")
	fs.StringVar(&agent, "agent", "", "")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		return cliconfig.ExitOK
	}
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n\n%s", err, usage)
		return cliconfig.ExitUsage
	}
	in, ok := cliconfig.TerminalStdin(stdin)
	if !ok {
		return cliconfig.RefuseWithoutTerminal(stderr)
	}
	s, closeLog, code := cliconfig.OpenSetup(logLevel, logFile, stderr, getenv)
	if code != cliconfig.ExitOK {
		return code
	}
	defer closeLog()
	if agent == "" {
		// Run by hand: the goose-acp this helper belongs to.
		agent, _ = helperexe.Find("goose-acp", "", getenv, nil)
	}
	return configureui.Run(configureui.Options{Ctx: ctx, In: in, Out: stdout, Err: stderr, Getenv: getenv, Setup: s, Agent: agent})
}
