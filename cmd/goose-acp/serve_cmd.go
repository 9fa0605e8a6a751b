package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp"
	"github.com/goose-acp/goose-acp/acp/acphttp"
	"github.com/goose-acp/goose-acp/httpapi"
	"github.com/goose-acp/goose-acp/internal/startpages"
)

// serveFlags are `goose serve`'s, as Goose Desktop 1.4x–1.54 passes them:
// serve [--tls] --platform desktop --enable-scheduler --host 127.0.0.1 --port N.
type serveFlags struct {
	tls, enableScheduler, allowRemote bool
	platform, host                    string
	port                              int
}

func parseServeFlags(args []string, getenv func(string) string, stderr io.Writer) (serveFlags, error) {
	var f serveFlags
	fs := flag.NewFlagSet("goose-acp serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&f.tls, "tls", false, "serve HTTPS/WSS with a self-signed certificate (prints GOOSED_CERT_FINGERPRINT=)")
	fs.StringVar(&f.platform, "platform", "desktop", "the client platform (Goose Desktop passes desktop)")
	fs.BoolVar(&f.enableScheduler, "enable-scheduler", false, "run scheduled recipes in this process")
	fs.StringVar(&f.host, "host", envOr(getenv, "GOOSE_HOST", "127.0.0.1"), "listen host (GOOSE_HOST)")
	fs.IntVar(&f.port, "port", 0, "listen port (GOOSE_PORT, else 3000)")
	fs.BoolVar(&f.allowRemote, "allow-remote", false, "allow a non-loopback --host (the secret is still required)")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if f.port == 0 {
		p, err := strconv.Atoi(envOr(getenv, "GOOSE_PORT", "3000"))
		if err != nil || p <= 0 || p > 65535 {
			return f, fmt.Errorf("GOOSE_PORT %q is not a port number", getenv("GOOSE_PORT"))
		}
		f.port = p
	}
	if f.port < 0 || f.port > 65535 {
		return f, fmt.Errorf("--port %d is not a port number", f.port)
	}
	// The platform only tells goose who its client is (Desktop passes
	// desktop); any name is accepted and logged, an empty one is a mistake.
	if strings.TrimSpace(f.platform) == "" {
		return f, errors.New("--platform needs a value (Goose Desktop passes desktop)")
	}
	return f, nil
}

// runsSchedules: this serve fires scheduled jobs (--enable-scheduler, or
// Goose Desktop's --platform desktop).
func (f serveFlags) runsSchedules() bool { return f.enableScheduler || f.platform == "desktop" }

// runServe is `goose serve` for Goose Desktop 1.4x–1.54: ACP over WebSocket
// and streamable HTTP at /acp (every `_goose/unstable/*` method included),
// /status and /health without auth. Stdout stays silent except for the
// GOOSED_CERT_FINGERPRINT= line with --tls, which Desktop waits for.
func runServe(env *environment, args []string) int {
	f, err := parseServeFlags(args, env.getenv, env.stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(env.stderr, "goose-acp serve:", err)
		return 2
	}
	secret := strings.TrimSpace(env.getenv("GOOSE_SERVER__SECRET_KEY"))
	if secret == "" {
		fmt.Fprintln(env.stderr, "goose-acp serve: GOOSE_SERVER__SECRET_KEY is not set; /acp needs a secret (Goose Desktop sets it; for a manual run, export a random value and pass it as ?token= or X-Secret-Key)")
		return 2
	}
	allowRemote := f.allowRemote || env.opts.allowRemote || isTrue(env.getenv("GOOSE_ALLOW_REMOTE"))
	addr := net.JoinHostPort(f.host, strconv.Itoa(f.port))
	if err := checkLoopback("--host", addr, allowRemote); err != nil {
		fmt.Fprintln(env.stderr, "goose-acp serve:", err)
		return 2
	}
	return withRuntime(env, func(rt *runtime) int { return serveDesktop(env, rt, f, addr, secret) })
}

// serveDesktop serves /acp, /status and /health until interrupted.
func serveDesktop(env *environment, rt *runtime, f serveFlags, addr, secret string) int {
	// Schedule management is always served. The schedules run here with
	// --enable-scheduler, and for Goose Desktop (--platform desktop) even
	// without it: Desktop 1.44 never passes the flag (goose 1.44 always
	// ran its scheduler).
	sched, stop, err := startScheduler(env.ctx, rt, !f.runsSchedules())
	if err != nil {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 1
	}
	defer stop()
	rt.scheduler = sched
	// Goose Desktop shows each extension's load result from session/new
	// and session/load (a failed one as a toast): they answer once the
	// session's extensions have connected, as goose does.
	rt.extensionsFirst = f.platform == "desktop"
	cert, err := rt.serveCert(env, f.tls)
	if err != nil {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 1
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(env.stderr, "goose-acp: listening on %s: %v\n", addr, err)
		return 1
	}
	acpHandler := acphttp.New(acphttp.Options{Logger: rt.log, Serve: rt.serveACPConn})
	defer acpHandler.Close()
	if cert != nil {
		fmt.Fprintf(env.stdout, "GOOSED_CERT_FINGERPRINT=%s\n", fingerprintOf(cert))
	}
	rt.log.Info("goose serve listening", "addr", ln.Addr().String(), "tls", cert != nil, "platform", f.platform, "scheduler", f.runsSchedules())
	go startpages.Release() // start-up's pages (package init included), as serveACP does
	err = httpapi.Serve(env.ctx, ln, serveMux(secret, acpHandler), cert)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 1
	}
	return 0
}

// serveACPConn is one /acp connection: the same ACP server as stdio, on
// the connection's message stream, over the one runtime (one agent, one
// store) every connection shares.
func (rt *runtime) serveACPConn(ctx context.Context, stream jsonrpc2.ObjectStream) error {
	return acp.ServeStream(ctx, stream, rt.acpOptions())
}

// serveMux is goose serve's routing: /status and /health answer "ok" to
// anyone (CORS any; Desktop polls /status before it has a connection);
// everything else needs the secret as ?token= or X-Secret-Key; /acp also
// gets the Origin rule and CORS.
func serveMux(secret string, acpHandler http.Handler) http.Handler {
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "*")
			h.Set("Access-Control-Allow-Headers", "*")
			return
		}
		h.Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "ok")
	})
	mux := http.NewServeMux()
	for _, p := range []string{"/status", "/health"} {
		mux.Handle("GET "+p, ok)
		mux.Handle("OPTIONS "+p, ok)
	}
	mux.Handle("/acp", acphttp.Guard(nil, acphttp.RequireSecret(secret, []string{"token"}, acpHandler)))
	mux.Handle("/", acphttp.RequireSecret(secret, []string{"token"}, http.NotFoundHandler()))
	return mux
}

// serveCert is the TLS certificate for --tls (httpapi's self-signed one
// under the config dir, or GOOSE_TLS_CERT_PATH/KEY_PATH); nil without.
func (rt *runtime) serveCert(env *environment, useTLS bool) (*tls.Certificate, error) {
	if !useTLS {
		return nil, nil
	}
	c, _, err := httpapi.LoadOrCreateCert(rt.paths.Config, env.getenv("GOOSE_TLS_CERT_PATH"), env.getenv("GOOSE_TLS_KEY_PATH"))
	if err != nil {
		return nil, err
	}
	return &c, nil
}
