package acp

import (
	"context"
	"encoding/json"
	"maps"
)

// The methods are answered by one handler type per area, each holding only
// the core services its methods call (never the Server). The areas are
// allocated with the method table, so the table can name their methods
// before Options.Open has built those services, and bound to them by bind
// once it has: every handler but the handshake waits for that
// (afterOpen), so none runs on an unbound area.
type areas struct {
	prompt       *promptAPI
	sessions     *sessionsAPI
	options      *optionsAPI
	providers    *providersAPI
	config       *configAPI
	prompts      *promptsAPI
	defaults     *defaultsAPI
	recipes      *recipesAPI
	schedules    *schedulesAPI
	sources      *sourcesAPI
	menus        *menusAPI
	sessionTools *sessionToolsAPI
	sessionOps   *sessionOpsAPI
	onboarding   *onboardingAPI
	titles       *sessionTitlesAPI
}

func newAreas() *areas {
	return &areas{prompt: &promptAPI{}, sessions: &sessionsAPI{}, options: &optionsAPI{}, providers: &providersAPI{}, config: &configAPI{}, prompts: &promptsAPI{}, defaults: &defaultsAPI{},
		recipes: &recipesAPI{}, schedules: &schedulesAPI{}, sources: &sourcesAPI{}, menus: &menusAPI{},
		sessionTools: &sessionToolsAPI{}, sessionOps: &sessionOpsAPI{}, onboarding: &onboardingAPI{}, titles: &sessionTitlesAPI{}}
}

// methods are every area's methods.
func (a *areas) methods() map[string]RequestHandler {
	all := []map[string]RequestHandler{a.prompt.methods(), a.sessions.methods(), a.options.methods(), a.providers.methods(), a.config.methods(), a.prompts.methods(),
		a.defaults.methods(), a.recipes.methods(), a.schedules.methods(), a.sources.methods(), a.menus.methods(),
		a.sessionTools.methods(), a.sessionOps.methods(), a.onboarding.methods(), a.titles.methods()}
	n := 0
	for _, m := range all {
		n += len(m)
	}
	// Sized for the areas' methods and the connection's own (requestTable
	// fills this map further): no rehashing as a connection starts.
	table := make(map[string]RequestHandler, n+len(UnstableUnavailable)+16)
	for _, m := range all {
		maps.Copy(table, m)
	}
	return table
}

// bind gives each area its services from the completed options and its
// part of the connection s: the loaded sessions, notify, sessionConn.
func (a *areas) bind(o Options, s *Server) {
	loaded, version := s.loaded, s.version
	*a.prompt = promptAPI{agent: o.Agent, store: o.Store, loaded: loaded, options: a.options, notes: s.notes,
		caps: s.clientCaps, notify: s.notify, peer: s.peer, local: o.LocalFiles, authFail: s.turnAuthError, log: o.Logger}
	*a.options = optionsAPI{sessions: o.Agent.Sessions(), extensions: o.Agent.Extensions(), caps: s.clientCaps, loaded: loaded, providers: o.Providers,
		notify: s.notify}
	*a.sessions = sessionsAPI{agent: o.Agent, sessions: o.Agent.Sessions(), recipes: o.Agent.Recipes(), store: o.Store, loaded: loaded, options: a.options,
		library: recipeLibrary(o), builtins: o.Builtins, extensionsFirst: o.ExtensionsFirst, conn: s, tools: a.prompt.builtins, notes: s.notes, caps: s.clientCaps, log: o.Logger}
	st := o.Settings
	if st.Config != nil {
		*a.providers = providersAPI{setup: st.Setup, custom: st.CustomProviders}
		*a.config = configAPI{cfg: st.Config}
		*a.prompts = promptsAPI{configDir: st.configDir()}
		*a.defaults = defaultsAPI{setup: st.Setup, cfg: st.Config}
	}
	*a.recipes = recipesAPI{library: recipeLibrary(o), scheduler: o.Scheduler}
	*a.schedules = schedulesAPI{scheduler: o.Scheduler, store: o.Store}
	*a.sources = sourcesAPI{sources: o.Agent.Sources()}
	*a.menus = menusAPI{agent: o.Agent, sources: o.Agent.Sources(), store: o.Store, loaded: loaded}
	*a.sessionTools = sessionToolsAPI{sessions: o.Agent.Sessions(), extensions: o.Agent.Extensions(), loaded: loaded}
	*a.sessionOps = sessionOpsAPI{agent: o.Agent, sessions: o.Agent.Sessions(), store: o.Store, loaded: loaded}
	*a.onboarding = onboardingAPI{settings: st, store: o.Store, version: version}
	*a.titles = sessionTitlesAPI{sessions: o.Agent.Sessions(), loaded: loaded}
	s.v2.agent = o.Agent
	if o.Agent != nil {
		a.onboarding.home = a.sources.sources.Store().Home
	}
}

// bind gives the areas their services once the options are complete, and
// makes the connection's notifier.
func (s *Server) bind() {
	s.notes = &notifier{caps: s.clientCaps, notify: s.notify, log: s.log,
		send: func(ctx context.Context, method string, params any) error { return s.peer.Notify(ctx, method, params) }}
	s.areas.bind(s.opts, s)
}

// gated makes every handler of table answer check's error, when it has
// one, instead of running: an area whose service this server was built
// without (no config, no scheduler).
func gated(check func() error, table map[string]RequestHandler) map[string]RequestHandler {
	for method, h := range table {
		table[method] = func(ctx context.Context, raw json.RawMessage) (any, error) {
			if err := check(); err != nil {
				return nil, err
			}
			return h(ctx, raw)
		}
	}
	return table
}
