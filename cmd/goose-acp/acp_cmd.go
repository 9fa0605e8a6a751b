package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/cmd/goose-acp/internal/firstframe"
	"github.com/goose-acp/goose-acp/internal/cliconfig"
	"github.com/goose-acp/goose-acp/internal/startpages"
)

// runACP serves the Agent Client Protocol on stdin/stdout: what editors
// spawn. Warnings and errors go to stderr, everything to the log file
// (newStdioLogger); stdout carries only frames.
func runACP(env *environment, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(env.stderr, "goose-acp: unexpected arguments %q\n", args)
		return 2
	}
	// Package initialisation is done (and initialize answered, by
	// internal/firstframe): the binary's pages it touched — a 64 KiB
	// window per package's init, from all over the text — leave the
	// resident set before the set-up below adds its own, so the start-up
	// peak is the larger of the two, not their sum (dev build: 21.7 → 17.2
	// MiB at serving start). serveACP releases once more when it serves.
	startpages.Release()
	// Without --http nothing needs the session database before the editor's
	// first session request, so initialize is answered while it opens.
	sessionsLater := env.opts.httpAddr == ""
	return withRuntimeMode(env, sessionsLater, newStdioLogger, func(rt *runtime) int { return serveACP(env, rt, sessionsLater) })
}

// runACPCommand is `goose-acp acp [--with-builtin NAME[,NAME…]]`, goose's
// own argv for its ACP agent (`goose acp`: the ACP registry's entry and
// goose's documented editor set-ups). Without flags it is `goose-acp`;
// --with-builtin adds builtin or platform extensions to every new session,
// as goose's flag of that name does.
func runACPCommand(env *environment, args []string) int {
	fs := flag.NewFlagSet("goose-acp acp", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	var builtins []string
	fs.Func("with-builtin", "add builtin extensions by name, comma-separated (e.g. developer,todo)", func(v string) error {
		for name := range strings.SplitSeq(v, ",") {
			name = strings.TrimSpace(name)
			if !knownBuiltin(name) {
				return fmt.Errorf("unknown builtin extension %q (known: %s)", name, strings.Join(builtinNames(), ", "))
			}
			if !slices.Contains(builtins, name) {
				builtins = append(builtins, name)
			}
		}
		return nil
	})
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	env.builtins = builtins
	return runACP(env, fs.Args())
}

// builtinNames are the extensions --with-builtin takes: developer and the
// platform extensions.
func builtinNames() []string {
	var out []string
	for _, p := range cliconfig.PlatformExtensions() {
		out = append(out, p.Name)
	}
	return out
}

func knownBuiltin(name string) bool { return slices.Contains(builtinNames(), name) }

// sessionBuiltins are the builtins every new ACP session gets: the
// default (developer) plus --with-builtin's.
func (env *environment) sessionBuiltins() []string {
	if len(env.builtins) == 0 {
		return nil // acp.Options' default
	}
	out := []string{"developer"}
	for _, b := range env.builtins {
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// releaseWaitsForStore bounds how long the start-up pages' release waits
// for the early store open (one that waits for another process's lock).
const releaseWaitsForStore = 100 * time.Millisecond

// serveACP serves ACP until stdin ends (and, with --http, the HTTP API
// until interrupted).
func serveACP(env *environment, rt *runtime, sessionsLater bool) int {
	log := rt.log
	stopHTTP, err := startHTTPAlongside(env, rt)
	if err != nil {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 1
	}
	defer stopHTTP()
	var opts acp.Options
	if sessionsLater {
		opts = acp.Options{Version: buildVersion(), Logger: log, Auth: rt.providers.authOptions(), Open: func(ctx context.Context) (acp.Options, error) {
			if err := rt.openSessionsBeside(ctx, env); err != nil {
				return acp.Options{}, err
			}
			full := rt.acpOptions()
			full.Builtins = env.sessionBuiltins()
			full.SessionAnswered = rt.early.SessionAnswered // its warming, beside the first prompt
			return full, nil
		}}
	} else {
		opts = rt.acpOptions()
		opts.Builtins = env.sessionBuiltins()
	}
	// Start-up is done (flags, logger, config.yaml, the provider
	// registry): the binary's pages it touched leave the resident set
	// (internal/startpages); what serving uses faults back in. On its own
	// goroutine: the madvise (~0.2 ms) runs beside the editor's first
	// request, not before it. After the session database's early open has
	// warmed a first turn's statements (earlystore; waiting at most
	// releaseWaitsForStore): SQLite's parser and code generator it ran
	// leave with the rest, and the turn runs only SQLite's executor.
	go func() {
		select {
		case <-rt.early.Done():
		case <-time.After(releaseWaitsForStore):
		}
		startpages.Release()
	}()
	in := env.stdin
	if f, ok := env.stdin.(*os.File); ok && f == os.Stdin {
		// The editor's initialize may have been answered already, while
		// the binary was starting (internal/firstframe).
		if first, ok := firstframe.Take(env.ctx); ok {
			in, opts.Initialized = first.Input, first.Initialized
		}
	}
	if err := acp.Serve(env.ctx, in, env.stdout, opts); err != nil {
		log.Error("acp server stopped", "err", err)
		return 1
	}
	if env.opts.httpAddr != "" && env.ctx.Err() == nil {
		// The editor went away, but Goose Desktop may still be using the
		// HTTP API: keep serving it until we are interrupted.
		log.Info("stdin closed; the HTTP API keeps serving until interrupted")
		<-env.ctx.Done()
	}
	return 0
}

// acpOptions are the ACP adapter's options over this runtime.
func (rt *runtime) acpOptions() acp.Options {
	return acp.Options{
		Agent:           rt.agent,
		Store:           rt.agent.Sessions(),
		Settings:        acp.Settings{Config: rt.cfg, Setup: rt.providers.setup, CustomProviders: rt.providers.custom},
		Scheduler:       rt.scheduler,
		ExtensionsFirst: rt.extensionsFirst,
		Providers:       rt.providers.list,
		Version:         buildVersion(),
		Logger:          rt.log,
		Auth:            rt.providers.authOptions(),
	}
}
