package httpapi

import "net/http"

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
		{"GET", "/status", 0, hf(s.status)},
		{"GET", "/features", 0, hf(s.features)},
		{"GET", "/system_info", 0, hf(s.systemInfo)},
		{"GET", "/diagnostics/{session_id}", 0, hf(s.diagnostics)},
		// sessions
		{"GET", "/sessions", 0, hf(s.listSessions)},
		{"GET", "/sessions/search", 0, hf(s.searchSessions)},
		{"GET", "/sessions/insights", 0, hf(s.sessionInsights)},
		{"POST", "/sessions/import", ImportBodyLimit, hf(s.importSession)},
		{"GET", "/sessions/{session_id}", 0, hf(s.getSession)},
		{"DELETE", "/sessions/{session_id}", 0, hf(s.deleteSession)},
		{"GET", "/sessions/{session_id}/export", 0, hf(s.exportSession)},
		{"PUT", "/sessions/{session_id}/name", 0, hf(s.renameSession)},
		{"POST", "/sessions/{session_id}/fork", 0, hf(s.forkSession)},
		{"GET", "/sessions/{session_id}/extensions", 0, hf(s.sessionExtensions)},
		{"PUT", "/sessions/{session_id}/user_recipe_values", 0, hf(s.userRecipeValues)},
		// chat
		{"POST", "/reply", ReplyBodyLimit, hf(s.legacyReply)},
		{"POST", "/sessions/{id}/reply", ReplyBodyLimit, hf(s.sessionReply)},
		{"GET", "/sessions/{id}/events", 0, hf(s.sessionEvents)},
		{"POST", "/sessions/{id}/cancel", 0, hf(s.sessionCancel)},
		{"POST", "/action-required/tool-confirmation", 0, hf(s.toolConfirmation)},
		// agent
		{"POST", "/agent/start", 0, hf(s.agentStart)},
		{"POST", "/agent/resume", 0, hf(s.agentResume)},
		{"POST", "/agent/restart", 0, hf(s.agentRestart)},
		{"POST", "/agent/stop", 0, hf(s.agentStop)},
		{"GET", "/agent/tools", 0, hf(s.agentTools)},
		{"POST", "/agent/add_extension", 0, hf(s.agentAddExtension)},
		{"POST", "/agent/remove_extension", 0, hf(s.agentRemoveExtension)},
		{"POST", "/agent/update_provider", 0, hf(s.agentUpdateProvider)},
		{"POST", "/agent/update_session", 0, hf(s.agentUpdateSession)},
		{"POST", "/agent/update_from_session", 0, hf(s.agentUpdateFromSession)},
		{"POST", "/agent/update_working_dir", 0, hf(s.agentUpdateWorkingDir)},
		{"POST", "/agent/call_tool", 0, hf(s.agentCallTool)},
		{"POST", "/agent/read_resource", 0, hf(s.agentReadResource)},
		{"GET", "/agent/list_apps", 0, hf(s.agentListApps)},
		// config
		{"GET", "/config", 0, hf(s.readAllConfig)},
		{"POST", "/config/read", 0, hf(s.readConfig)},
		{"POST", "/config/upsert", 0, hf(s.upsertConfig)},
		{"POST", "/config/remove", 0, hf(s.removeConfig)},
		{"GET", "/config/validate", 0, hf(s.validateConfig)},
		{"GET", "/config/extensions", 0, hf(s.getExtensions)},
		{"POST", "/config/extensions", 0, hf(s.addExtension)},
		{"DELETE", "/config/extensions/{name}", 0, hf(s.removeExtension)},
		{"POST", "/config/permissions", 0, hf(s.upsertPermissions)},
		{"GET", "/config/slash_commands", 0, hf(s.slashCommands)},
		{"GET", "/config/providers", 0, hf(s.providers)},
		{"GET", "/config/providers/{name}/models", 0, hf(s.providerModels)},
		{"POST", "/config/set_provider", 0, hf(s.setProvider)},
		{"POST", "/config/check_provider", 0, hf(s.checkProvider)},
		{"POST", "/config/providers/{name}/cleanup", 0, hf(s.cleanupProvider)},
		{"POST", "/config/custom-providers", 0, hf(s.createCustomProvider)},
		{"GET", "/config/custom-providers/{id}", 0, hf(s.getCustomProvider)},
		{"PUT", "/config/custom-providers/{id}", 0, hf(s.updateCustomProvider)},
		{"DELETE", "/config/custom-providers/{id}", 0, hf(s.removeCustomProvider)},
		{"POST", "/telemetry/event", 0, hf(s.telemetryEvent)},
		{"GET", "/acp", 0, hf(s.acpWebSocket)},
	}
	rs = append(rs, s.recipeRoutes()...)
	rs = append(rs, s.scheduleRoutes()...)
	rs = append(rs, s.promptRoutes()...)
	for i := range rs {
		if rs[i].limit == 0 {
			rs[i].limit = DefaultBodyLimit
		}
	}
	for _, u := range Unavailable {
		rs = append(rs, route{u.Method, u.Path, DefaultBodyLimit, unavailable(u.Feature)})
	}
	return rs
}

func hf(f handlerFunc) http.Handler { return http.HandlerFunc(f) }

// recipeRoutes are /recipes/* (on core/recipe) and /schedule/* (on
// core/schedule).
func (s *Server) recipeRoutes() []route {
	return []route{
		{"GET", "/recipes/list", 0, hf(s.listRecipes)},
		{"POST", "/recipes/parse", 0, hf(s.parseRecipe)},
		{"POST", "/recipes/encode", 0, hf(s.encodeRecipe)},
		{"POST", "/recipes/decode", 0, hf(s.decodeRecipe)},
		{"POST", "/recipes/to-yaml", 0, hf(s.recipeToYAML)},
		{"POST", "/recipes/scan", 0, hf(s.scanRecipe)},
		{"POST", "/recipes/save", 0, hf(s.saveRecipe)},
		{"POST", "/recipes/delete", 0, hf(s.deleteRecipe)},
		{"POST", "/recipes/schedule", 0, hf(s.scheduleRecipe)},
		{"POST", "/recipes/slash-command", 0, hf(s.recipeSlashCommandRoute)},
	}
}
