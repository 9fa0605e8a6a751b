package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/goose-acp/goose-acp/internal/buildinfo"
)

const usage = `goose-acp — the goose agent for editors (Agent Client Protocol) and Goose Desktop.

Usage:
  goose-acp [flags]                  serve ACP on stdin/stdout (what editors spawn)
  goose-acp acp [--with-builtin NAME,...]   the same (goose's "goose acp"), adding builtin extensions
  goose-acp configure [--provider NAME --model MODEL [--api-key-env VAR]]   set up the AI provider
  goose-acp [flags] --http ADDR      also serve the goosed HTTP/SSE API on ADDR
  goose-acp agent                    goosed-compatible backend (GOOSE_PORT, GOOSE_SERVER__SECRET_KEY, GOOSE_TLS)
  goose-acp serve [--tls] [--platform desktop] [--enable-scheduler] [--host H] [--port P]
                                     Goose Desktop 1.4x–1.54's backend: ACP over WebSocket at /acp (GOOSE_SERVER__SECRET_KEY)
  goose-acp mcp developer            the developer tools as an MCP server on stdio
  goose-acp run (-t TEXT | --recipe FILE [--params k=v ...])   run one prompt or recipe headlessly
  goose-acp plugin (install URL|PATH | update NAME | list | remove NAME | enable NAME | disable NAME)
  goose-acp deeplink parse [--from SOURCE] [--allowlist FILE|URL] URL
  goose-acp recipe (encode FILE|- | decode LINK|CONFIG)

Flags:
`

// options are the global flags.
type options struct {
	logLevel    string
	logFile     string
	httpAddr    string
	tls         bool
	allowRemote bool
	showVersion bool
}

// run is main without the process: it parses args, dispatches the
// subcommand and returns the exit code. Only cmd/ writes to stdout.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	opts, rest, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	if opts.showVersion {
		fmt.Fprintf(stdout, "goose-acp %s\n", buildVersion())
		return 0
	}
	env := &environment{ctx: ctx, opts: opts, stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	name := ""
	if len(rest) > 0 {
		name = rest[0]
		rest = rest[1:]
	}
	cmd, ok := commands()[name]
	if !ok {
		fmt.Fprintf(stderr, "goose-acp: unknown command %q (see goose-acp --help)\n", name)
		return 2
	}
	return cmd(env, rest)
}

// environment is what every subcommand gets.
type environment struct {
	ctx    context.Context
	opts   options
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// builtins are `acp --with-builtin`'s extensions.
	builtins []string
}

func parseFlags(args []string, stderr io.Writer) (options, []string, error) {
	var o options
	fs := flag.NewFlagSet("goose-acp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.logLevel, "log-level", "", "log level: debug, info, warn, error (default GOOSE_LOG_LEVEL or info)")
	fs.StringVar(&o.logFile, "log-file", "", "write logs to this file instead of stderr")
	fs.StringVar(&o.httpAddr, "http", "", "also serve the goosed HTTP/SSE API on this loopback address (e.g. 127.0.0.1:3000)")
	fs.BoolVar(&o.tls, "tls", true, "serve --http over HTTPS with a self-signed certificate")
	fs.BoolVar(&o.allowRemote, "allow-remote", false, "allow --http on a non-loopback address (the secret key is still required)")
	fs.BoolVar(&o.showVersion, "version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		return o, nil, err
	}
	return o, fs.Args(), nil
}

// buildVersion is the version goose-acp reports (internal/buildinfo:
// stamped at build time, else the module's).
func buildVersion() string { return buildinfo.Version() }
