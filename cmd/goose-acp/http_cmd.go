package main

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/acp/acphttp"
	"github.com/goose-acp/goose-acp/httpapi"
)

// runAgent is goosed-compatible: `goose-acp agent` reads GOOSE_HOST,
// GOOSE_PORT, GOOSE_TLS, GOOSE_TLS_CERT_PATH/KEY_PATH and
// GOOSE_SERVER__SECRET_KEY, prints GOOSED_CERT_FINGERPRINT= on stdout as
// goosed does (the desktop waits for that line), and stops gracefully on
// SIGINT/SIGTERM.
//
// Like goosed it binds GOOSE_HOST, but a non-loopback host needs an opt-in
// (--allow-remote, before or after "agent", or GOOSE_ALLOW_REMOTE=true):
// goosed would bind 0.0.0.0 silently.
func runAgent(env *environment, args []string) int {
	allowRemote := env.opts.allowRemote || isTrue(env.getenv("GOOSE_ALLOW_REMOTE"))
	for _, a := range args {
		if a != "--allow-remote" && a != "-allow-remote" {
			fmt.Fprintf(env.stderr, "goose-acp agent: unexpected arguments %q\n", args)
			return 2
		}
		allowRemote = true
	}
	host, port := envOr(env.getenv, "GOOSE_HOST", "127.0.0.1"), envOr(env.getenv, "GOOSE_PORT", "3000")
	if err := checkLoopback("GOOSE_HOST", net.JoinHostPort(host, port), allowRemote); err != nil {
		fmt.Fprintln(env.stderr, "goose-acp agent:", err)
		return 2
	}
	return withRuntime(env, func(rt *runtime) int { return serveGoosed(env, rt) })
}

// serveGoosed serves the goosed API until interrupted.
func serveGoosed(env *environment, rt *runtime) int {
	log := rt.log
	sched, stopSched, err := startScheduler(env.ctx, rt, false)
	if err != nil {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 1
	}
	defer stopSched()
	rt.scheduler = sched
	host, port := envOr(env.getenv, "GOOSE_HOST", "127.0.0.1"), envOr(env.getenv, "GOOSE_PORT", "3000")
	useTLS := !isFalse(env.getenv("GOOSE_TLS"))
	secret := env.getenv("GOOSE_SERVER__SECRET_KEY")
	if secret == "" {
		secret = randomSecret()
	}
	srv, cert, err := rt.httpServer(env, secret, useTLS)
	if err != nil {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 1
	}
	defer srv.Close()
	if cert != nil {
		fmt.Fprintf(env.stdout, "GOOSED_CERT_FINGERPRINT=%s\n", fingerprintOf(cert))
	}
	log.Info("goosed API listening", "addr", net.JoinHostPort(host, port), "tls", useTLS)
	if err := httpapi.ListenAndServe(env.ctx, net.JoinHostPort(host, port), srv.Handler(), cert); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 1
	}
	return 0
}

// goosed is the goosed API with its /acp transport; Close ends both.
type goosed struct {
	*httpapi.Server
	acp *acphttp.Handler
}

func (g goosed) Close() error {
	_ = g.Server.Close()
	return g.acp.Close()
}

// httpServer builds the goosed API over this runtime; cert is nil without
// TLS. Its /acp is the same transport and ACP server as `serve`'s, with
// goose serve's Origin rule (the secret is httpapi's check).
func (rt *runtime) httpServer(env *environment, secret string, useTLS bool) (goosed, *tls.Certificate, error) {
	var cert *tls.Certificate
	if useTLS {
		c, _, err := httpapi.LoadOrCreateCert(rt.paths.Config, env.getenv("GOOSE_TLS_CERT_PATH"), env.getenv("GOOSE_TLS_KEY_PATH"))
		if err != nil {
			return goosed{}, nil, err
		}
		cert = &c
	}
	acpHandler := acphttp.New(acphttp.Options{Logger: rt.log, Serve: rt.serveACPConn})
	srv := httpapi.New(httpapi.Options{
		Agent: rt.agent, Store: rt.store, Config: rt.cfg,
		Setup: rt.providers.setup, Scheduler: rt.scheduler,
		CustomProviders: rt.providers.custom, SecretKey: secret,
		ConfigDir: rt.paths.Config, DataDir: rt.paths.Data, StateDir: rt.paths.State,
		Version: buildVersion(), Logger: rt.log,
		ACP: acphttp.Guard(nil, acpHandler),
	})
	return goosed{srv, acpHandler}, cert, nil
}

// startHTTPAlongside serves the goosed API next to ACP for --http ADDR. It
// never writes to stdout (that is the ACP channel) and keeps serving when
// stdin closes... until the process exits.
func startHTTPAlongside(env *environment, rt *runtime) (func(), error) {
	addr := env.opts.httpAddr
	if addr == "" {
		return func() {}, nil
	}
	if err := checkLoopback("--http", addr, env.opts.allowRemote); err != nil {
		return nil, err
	}
	secret := env.getenv("GOOSE_SERVER__SECRET_KEY")
	if secret == "" {
		var err error
		if secret, err = writeSecretFile(rt.paths.State); err != nil {
			return nil, err
		}
	}
	sched, stopSched, err := startScheduler(env.ctx, rt, false)
	if err != nil {
		return nil, err
	}
	rt.scheduler = sched
	srv, cert, err := rt.httpServer(env, secret, env.opts.tls)
	if err != nil {
		stopSched()
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		stopSched()
		return nil, fmt.Errorf("--http %s: %w", addr, err)
	}
	if cert != nil {
		rt.log.Info("goosed API listening", "addr", ln.Addr().String(), "tls", true, "fingerprint", fingerprintOf(cert))
	} else {
		rt.log.Info("goosed API listening", "addr", ln.Addr().String(), "tls", false)
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(env.ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := httpapi.Serve(ctx, ln, srv.Handler(), cert); err != nil && !errors.Is(err, http.ErrServerClosed) {
			rt.log.Error("goosed API stopped", "err", err)
		}
	}()
	return func() { cancel(); <-done; srv.Close(); stopSched() }, nil
}

// checkLoopback refuses a non-loopback listen address unless allowed, and
// a bare ":port" (which would listen on every interface). what names where
// the address came from ("--http", "GOOSE_HOST", "--host").
func checkLoopback(what, addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s %q: %w", what, addr, err)
	}
	if allowRemote {
		return nil
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%s %q is not a loopback address; pass --allow-remote (or set GOOSE_ALLOW_REMOTE=true) to serve beyond this machine (the secret key is still required)", what, addr)
}

// writeSecretFile creates a random secret and stores it (mode 0600) where
// the user can read it, rather than printing it.
func writeSecretFile(stateDir string) (string, error) {
	secret := randomSecret()
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return "", err
	}
	path := filepath.Join(stateDir, "http-secret-key")
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return secret, nil
}

func randomSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func fingerprintOf(cert *tls.Certificate) string {
	if len(cert.Certificate) == 0 {
		return ""
	}
	return httpapi.Fingerprint(cert.Certificate[0])
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

func isTrue(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "yes", "on":
		return true
	}
	return false
}

func isFalse(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "false", "0", "no", "off":
		return true
	}
	return false
}
