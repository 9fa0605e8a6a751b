package httpapi

import (
	"net/http"
)

// ownBodyLimit mounts a route whose handler bounds its own body (/acp).
const ownBodyLimit = -1

// route is one mounted operation: an endpoint (written by the Server's
// writer) or, for streams, a plain handler.
type route struct {
	method, path string
	limit        int64
	endpoint     endpoint
	handler      http.Handler
}

// routes are every area's routes (one handler type per area, each holding
// only the core services its routes call), then goosed's routes of
// features goose-acp does not ship.
func (s *Server) routes() []route {
	o := s.opts
	out := writer{log: s.log}
	hold := &restHold{}
	providers := &providersAPI{setup: o.Setup, custom: o.CustomProviders}
	areas := [][]route{
		(&statusAPI{version: o.Version, cfg: o.Config, store: o.Store, stateDir: o.StateDir, out: out}).routes(),
		{
			{"GET", "/acp", ownBodyLimit, nil, http.HandlerFunc(s.acp)},
			{"POST", "/acp", ownBodyLimit, nil, http.HandlerFunc(s.acp)},
			{"DELETE", "/acp", ownBodyLimit, nil, http.HandlerFunc(s.acp)},
		},
		(&sessionsAPI{sessions: o.Agent.Sessions(), recipes: o.Agent.Recipes(), store: o.Store, cfg: o.Config, buses: s.buses}).routes(),
		(&chatAPI{agent: o.Agent, sessions: o.Agent.Sessions(), hold: hold, store: o.Store, buses: s.buses, ctx: s.ctx, turns: &s.turns, ping: o.PingInterval, out: out}).routes(),
		(&agentAPI{agent: o.Agent, sessions: o.Agent.Sessions(), hold: hold, extensions: o.Agent.Extensions(), store: o.Store, cfg: o.Config, setup: o.Setup,
			library: o.Recipes, buses: s.buses}).routes(),
		(&configAPI{cfg: o.Config, extensions: o.Agent.Extensions(), library: o.Recipes}).routes(),
		providers.routes(),
		providers.catalogRoutes(),
		(&recipesAPI{library: o.Recipes, scheduler: o.Scheduler, hasConfig: o.Config != nil, recipes: o.Agent.Recipes(), log: s.log}).routes(),
		(&schedulesAPI{scheduler: o.Scheduler, store: o.Store, clock: o.Clock}).routes(),
		(&promptsAPI{configDir: o.ConfigDir}).routes(),
	}
	var rs []route
	for _, area := range areas {
		rs = append(rs, area...)
	}
	for i := range rs {
		if rs[i].limit == 0 {
			rs[i].limit = DefaultBodyLimit
		}
		if rs[i].endpoint != nil {
			rs[i].handler = out.serve(rs[i].endpoint)
		}
	}
	for _, u := range Unavailable {
		rs = append(rs, route{u.Method, u.Path, DefaultBodyLimit, nil, unavailableRoute(u.Feature)})
	}
	return rs
}
