package main

import (
	"context"
	"fmt"

	"github.com/goose-acp/goose-acp/acp"
)

// runACP serves the Agent Client Protocol on stdin/stdout: what editors
// spawn. Logs go to stderr or --log-file; stdout carries only frames.
func runACP(env *environment, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(env.stderr, "goose-acp: unexpected arguments %q\n", args)
		return 2
	}
	// Without --http nothing needs the session database before the editor's
	// first session request, so initialize is answered while it opens.
	sessionsLater := env.opts.httpAddr == ""
	return withRuntimeMode(env, sessionsLater, func(rt *runtime) int { return serveACP(env, rt, sessionsLater) })
}

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
			if err := rt.openSessions(ctx, env); err != nil {
				return acp.Options{}, err
			}
			return rt.acpOptions(), nil
		}}
	} else {
		opts = rt.acpOptions()
	}
	if err := acp.Serve(env.ctx, env.stdin, env.stdout, opts); err != nil {
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
		Providers:       rt.providers.list,
		DefaultProvider: rt.stringSetting("GOOSE_PROVIDER"),
		DefaultModel:    rt.stringSetting("GOOSE_MODEL"),
		DefaultMode:     rt.stringSetting("GOOSE_MODE"),
		Version:         buildVersion(),
		Logger:          rt.log,
		SubscribeTitles: rt.titles.subscribe,
		Auth:            rt.providers.authOptions(),
	}
}
