package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/goose-acp/goose-acp/cmd/goose-acp/internal/earlystore"
	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/plugins"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/sqlite"
	"github.com/goose-acp/goose-acp/developer"
	"github.com/goose-acp/goose-acp/internal/cliconfig"
)

// runtime is the one core both adapters share: configuration, the session
// store, providers and the agent.
type runtime struct {
	log       *slog.Logger
	paths     config.Paths
	cfg       *config.Config
	store     *sqlite.Store
	perms     *config.Permissions
	scheduler *schedule.Scheduler
	// extensionsFirst: ACP session/new and load wait for the session's
	// extensions (goose serve for Goose Desktop).
	extensionsFirst bool
	providers       *providerSet
	agent           *agent.Agent
	// early is the session database opening since the process started
	// (earlystore); nil when it opens on the first request.
	early *earlystore.Store
	// pending is the early open handed over before it finished (ACP on
	// stdio; store is nil then).
	pending *earlystore.Pending
	// plugins finds plugins and records the user's consent.
	plugins *plugins.Env
}

// openRuntime loads configuration once and builds the core. Nothing here
// contacts a provider: that happens on the first turn.
func openRuntime(ctx context.Context, env *environment, log *slog.Logger) (*runtime, error) {
	rt, err := openConfig(env, log)
	if err != nil {
		return nil, err
	}
	if err := rt.openSessions(ctx, env); err != nil {
		return nil, err
	}
	return rt, nil
}

// openStoreEarly is the open of env's existing sessions.db that started
// with the process (earlystore.AtStart), else one started now; nil when
// there is no sessions.db yet.
func openStoreEarly(env *environment) *earlystore.Store {
	_, paths, err := cliconfig.ResolvePaths(env.getenv)
	if err != nil {
		earlystore.DiscardAtStart()
		return nil // openConfig reports it
	}
	if e := earlystore.AtStart(paths.SessionsDB()); e != nil {
		return e
	}
	return earlystore.Start(env.ctx, paths.SessionsDB())
}

// openConfig is the first, cheap half of openRuntime: paths, config.yaml
// and permission.yaml, so a broken file still fails the command at once.
func openConfig(env *environment, log *slog.Logger) (*runtime, error) {
	o, err := cliconfig.Open(env.getenv, log)
	if err != nil {
		return nil, err
	}
	rt := &runtime{log: log, paths: o.Paths, cfg: o.Config, perms: o.Permissions}
	rt.plugins = &plugins.Env{Home: o.Home, ConfigDir: o.Paths.Config, Config: pluginConfig{configReader{o.Config}}, Getenv: env.getenv, Logger: log}
	if root := env.getenv("GOOSE_PATH_ROOT"); filepath.IsAbs(root) {
		rt.plugins.PathRoot = root
	}
	rt.providers = newProviderSet(o.Config, env.getenv, o.Paths, log)
	return rt, nil
}

// openSessions is the second half: the session database and the agent.
// The ACP server runs it while it already answers initialize.
func (rt *runtime) openSessions(ctx context.Context, env *environment) error {
	if err := os.MkdirAll(filepath.Dir(rt.paths.SessionsDB()), 0o755); err != nil {
		return fmt.Errorf("create sessions directory: %w", err)
	}
	store, err := rt.early.Take(rt.paths.SessionsDB())
	if store == nil && err == nil {
		store, err = sqlite.Open(ctx, rt.paths.SessionsDB(), sqlite.Options{Logger: rt.log})
	}
	if err != nil {
		return err
	}
	rt.store = store
	rt.newAgent(store, env)
	return nil
}

// openSessionsBeside is openSessions for the ACP server on stdio: an early
// open still running is handed over as it is (earlystore.Pending), and the
// agent is built on it at once. An editor's first session/new then does
// its work up to the new session's INSERT while SQLite opens on the other
// core; an open that fails is each store call's error.
func (rt *runtime) openSessionsBeside(ctx context.Context, env *environment) error {
	if p := rt.early.Pending(rt.paths.SessionsDB()); p != nil {
		rt.pending = p
		rt.newAgent(p, env)
		return nil
	}
	return rt.openSessions(ctx, env)
}

// newAgent builds the agent on store.
func (rt *runtime) newAgent(store session.Store, env *environment) {
	rt.agent = agent.New(agent.Options{
		Store:         store,
		Providers:     rt.providers.create,
		Config:        configReader{rt.cfg},
		Permissions:   permission.FromConfig(rt.perms),
		Builtins:      map[string]extension.BuiltinFactory{"developer": localDeveloper, "analyze": localAnalyze},
		Logger:        rt.log,
		DataDir:       rt.paths.Data,
		ConfigDir:     rt.paths.Config,
		Getenv:        env.getenv,
		ClientVersion: buildVersion(),
		Plugins:       rt.plugins,
	})
}

// Close stops every session's extensions, closes the store and removes the
// developer tools' saved shell outputs. It is safe on a runtime whose
// sessions half never opened.
func (rt *runtime) Close() error {
	var errs []error
	if rt.agent != nil {
		errs = append(errs, rt.agent.Close())
		rt.agent.Wait()
	}
	if rt.store != nil {
		errs = append(errs, rt.store.Close())
	}
	if rt.pending != nil {
		errs = append(errs, rt.pending.Close())
	}
	return errors.Join(append(errs, developer.Cleanup())...)
}

// localDeveloper is the developer extension on local disk and processes.
func localDeveloper(_ context.Context, env extension.Env) (extension.Server, error) {
	return extension.Direct(developer.NewDirect(developer.Options{Surface: developer.Editor, WorkingDir: env.WorkingDir, Logger: env.Logger, Config: env.Config,
		FileIO: env.Checkpoints.Wrap(developer.LocalFileIO{})})), nil
}

// pluginConfig adapts config.Config to plugins.Store.
type pluginConfig struct{ configReader }

func (c pluginConfig) Set(key string, value any) error { return c.cfg.Set(key, value) }

// localAnalyze is the analyze extension (tree-sitter) on local disk.
func localAnalyze(_ context.Context, env extension.Env) (extension.Server, error) {
	return extension.Direct(developer.NewDirect(developer.Options{Surface: developer.Analyze, WorkingDir: env.WorkingDir, Logger: env.Logger, Config: env.Config})), nil
}

// configReader adapts config.Config to agent.ConfigReader.
type configReader struct{ cfg *config.Config }

func (c configReader) Get(key string) (any, bool) { return c.cfg.Lookup(key) }

func (c configReader) Secret(key string) (string, bool) {
	v, err := c.cfg.GetSecret(key)
	if err != nil || v == nil {
		return "", false
	}
	s, ok := v.(string)
	if !ok {
		s = fmt.Sprint(v)
	}
	return s, s != ""
}

// stringSetting reads a string config value (env override included).
func (rt *runtime) stringSetting(key string) string {
	v, err := rt.cfg.GetString(key)
	if err != nil {
		return ""
	}
	return v
}

// withRuntime is the shared start of the long-running commands: it builds
// the logger and the runtime, runs body, then closes both. Setup failures
// are reported on stderr: 2 for a bad log setting, 1 otherwise. With
// sessionsLater, the session database and agent are left for body to open
// (see runtime.openSessions).
func withRuntime(env *environment, body func(rt *runtime) int) int {
	return withRuntimeMode(env, false, nil, body)
}

// withRuntimeMode is withRuntime with the session database opened later
// (sessionsLater) and a logger of the command's own (nil: newLogger).
func withRuntimeMode(env *environment, sessionsLater bool, newLog func(*environment) (*slog.Logger, func() error, error), body func(rt *runtime) int) int {
	if newLog == nil {
		newLog = func(env *environment) (*slog.Logger, func() error, error) {
			return cliconfig.NewLogger(env.opts.logLevel, env.opts.logFile, env.stderr, env.getenv)
		}
	}
	var early *earlystore.Store
	if sessionsLater {
		early = openStoreEarly(env)
		defer early.CloseUnused()
	}
	log, closeLog, err := newLog(env)
	if err != nil {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 2
	}
	defer closeLog()
	early.LogTo(log)
	rt, err := openConfig(env, log)
	if err == nil {
		rt.early = early
		if !sessionsLater {
			err = rt.openSessions(env.ctx, env)
		}
	}
	if err != nil {
		fmt.Fprintln(env.stderr, "goose-acp:", err)
		return 1
	}
	defer rt.Close()
	return body(rt)
}
