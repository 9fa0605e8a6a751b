package httpapi

import (
	"net/http"
)

// ownBodyLimit mounts a route whose handler bounds its own body (/acp).
const ownBodyLimit = -1

// route is one mounted operation.
type route struct {
	method, path string
	limit        int64
	handler      http.Handler
}

type handlerFunc func(w http.ResponseWriter, r *http.Request)

func (s *Server) routes() []route {
	rs := []route{
		// status
		{"GET", "/status", 0, http.HandlerFunc(s.status)},
		{"GET", "/features", 0, noInput(s, s.features)},
		{"GET", "/system_info", 0, noInput(s, s.systemInfo)},
		{"GET", "/diagnostics/{session_id}", 0, http.HandlerFunc(s.diagnostics)},
		{"POST", "/telemetry/event", 0, withBody(s, s.telemetryEvent)},
		{"GET", "/acp", ownBodyLimit, http.HandlerFunc(s.acp)},
		{"POST", "/acp", ownBodyLimit, http.HandlerFunc(s.acp)},
		{"DELETE", "/acp", ownBodyLimit, http.HandlerFunc(s.acp)},
	}
	for _, group := range [][]route{s.sessionRoutes(), s.chatRoutes(), s.agentRoutes(), s.configRoutes(),
		s.providerRoutes(), s.recipeRoutes(), s.scheduleRoutes(), s.promptRoutes()} {
		rs = append(rs, group...)
	}
	for i := range rs {
		if rs[i].limit == 0 {
			rs[i].limit = DefaultBodyLimit
		}
	}
	for _, u := range Unavailable {
		rs = append(rs, route{u.Method, u.Path, DefaultBodyLimit, unavailableRoute(u.Feature)})
	}
	return rs
}

func (s *Server) sessionRoutes() []route {
	return []route{
		{"GET", "/sessions", 0, noInput(s, s.listSessions)},
		{"GET", "/sessions/search", 0, noInput(s, s.searchSessions)},
		{"GET", "/sessions/insights", 0, noInput(s, s.sessionInsights)},
		{"POST", "/sessions/import", ImportBodyLimit, withBody(s, s.importSession)},
		{"GET", "/sessions/{session_id}", 0, noInput(s, s.getSession)},
		{"DELETE", "/sessions/{session_id}", 0, noInput(s, s.deleteSession)},
		{"GET", "/sessions/{session_id}/export", 0, noInput(s, s.exportSession)},
		{"PUT", "/sessions/{session_id}/name", 0, withBody(s, s.renameSession)},
		{"POST", "/sessions/{session_id}/fork", 0, withBody(s, s.forkSession)},
		{"GET", "/sessions/{session_id}/extensions", 0, noInput(s, s.sessionExtensions)},
		{"PUT", "/sessions/{session_id}/user_recipe_values", 0, withBody(s, s.userRecipeValues)},
	}
}

func (s *Server) chatRoutes() []route {
	return []route{
		{"POST", "/reply", ReplyBodyLimit, streamBody(s, s.legacyReply)},
		{"POST", "/sessions/{id}/reply", ReplyBodyLimit, withBody(s, s.sessionReply)},
		{"GET", "/sessions/{id}/events", 0, http.HandlerFunc(s.sessionEvents)},
		{"POST", "/sessions/{id}/cancel", 0, withBody(s, s.sessionCancel)},
		{"POST", "/action-required/tool-confirmation", 0, withBody(s, s.toolConfirmation)},
	}
}

func (s *Server) agentRoutes() []route {
	return []route{
		{"POST", "/agent/start", 0, withBody(s, s.agentStart)},
		{"POST", "/agent/resume", 0, withBody(s, s.agentResume)},
		{"POST", "/agent/restart", 0, withBody(s, s.agentRestart)},
		{"POST", "/agent/stop", 0, withBody(s, s.agentStop)},
		{"GET", "/agent/tools", 0, noInput(s, s.agentTools)},
		{"POST", "/agent/add_extension", 0, withBody(s, s.agentAddExtension)},
		{"POST", "/agent/remove_extension", 0, withBody(s, s.agentRemoveExtension)},
		{"POST", "/agent/update_provider", 0, withBody(s, s.agentUpdateProvider)},
		{"POST", "/agent/update_session", 0, withBody(s, s.agentUpdateSession)},
		{"POST", "/agent/update_from_session", 0, withBody(s, s.agentUpdateFromSession)},
		{"POST", "/agent/update_working_dir", 0, withBody(s, s.agentUpdateWorkingDir)},
		{"POST", "/agent/call_tool", 0, withBody(s, s.agentCallTool)},
		{"POST", "/agent/read_resource", 0, withBody(s, s.agentReadResource)},
		{"GET", "/agent/list_apps", 0, noInput(s, s.agentListApps)},
	}
}

func (s *Server) configRoutes() []route {
	permissions := s.need(func() bool { return s.opts.Permissions != nil },
		errorf(http.StatusServiceUnavailable, "permissions are not available in this goose-acp server"),
		withBody(s, s.upsertPermissions))
	return []route{
		{"GET", "/config", 0, s.needConfig(noInput(s, s.readAllConfig))},
		{"POST", "/config/read", 0, s.needConfig(withBody(s, s.readConfig))},
		{"POST", "/config/upsert", 0, s.needConfig(withBody(s, s.upsertConfig))},
		{"POST", "/config/remove", 0, s.needConfig(withBody(s, s.removeConfig))},
		{"GET", "/config/validate", 0, s.needConfig(noInput(s, s.validateConfig))},
		{"GET", "/config/extensions", 0, s.needConfig(noInput(s, s.getExtensions))},
		{"POST", "/config/extensions", 0, s.needConfig(withBody(s, s.addExtension))},
		{"DELETE", "/config/extensions/{name}", 0, s.needConfig(noInput(s, s.removeExtension))},
		{"POST", "/config/permissions", 0, permissions},
		{"GET", "/config/slash_commands", 0, noInput(s, s.slashCommands)},
	}
}

func (s *Server) providerRoutes() []route {
	return []route{
		{"GET", "/config/providers", 0, noInput(s, s.providers)},
		{"GET", "/config/providers/{name}/models", 0, noInput(s, s.providerModels)},
		{"POST", "/config/set_provider", 0, s.needConfig(withBody(s, s.setProvider))},
		{"POST", "/config/check_provider", 0, withBody(s, s.checkProvider)},
		{"POST", "/config/providers/{name}/cleanup", 0, noInput(s, s.cleanupProvider)},
		{"POST", "/config/custom-providers", 0, s.needConfig(withBody(s, s.createCustomProvider))},
		{"GET", "/config/custom-providers/{id}", 0, noInput(s, s.getCustomProvider)},
		{"PUT", "/config/custom-providers/{id}", 0, s.needConfig(withBody(s, s.updateCustomProvider))},
		{"DELETE", "/config/custom-providers/{id}", 0, noInput(s, s.removeCustomProvider)},
	}
}

// recipeRoutes are /recipes/* (on core/recipe and its Library).
func (s *Server) recipeRoutes() []route {
	return []route{
		{"GET", "/recipes/list", 0, noInput(s, s.listRecipes)},
		{"POST", "/recipes/parse", 0, withBody(s, s.parseRecipe)},
		{"POST", "/recipes/encode", 0, withBody(s, s.encodeRecipe)},
		{"POST", "/recipes/decode", 0, withBody(s, s.decodeRecipe)},
		{"POST", "/recipes/to-yaml", 0, withBody(s, s.recipeToYAML)},
		{"POST", "/recipes/scan", 0, withBody(s, s.scanRecipe)},
		{"POST", "/recipes/save", 0, withBody(s, s.saveRecipe)},
		{"POST", "/recipes/delete", 0, withBody(s, s.deleteRecipe)},
		{"POST", "/recipes/schedule", 0, withBody(s, s.scheduleRecipe)},
		{"POST", "/recipes/slash-command", 0, withBody(s, s.recipeSlashCommand)},
	}
}
