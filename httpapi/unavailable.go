package httpapi

import (
	"net/http"
)

// UnavailableRoute is a goosed route goose-acp answers with a clear error
// because the feature behind it is not part of goose-acp.
type UnavailableRoute struct {
	Method, Path, Feature string
}

// Unavailable lists those routes (the README lists them too). Each answers
// 501 {"message": "<feature> is not available in goose-acp"}.
var Unavailable = []UnavailableRoute{
	{"POST", "/tunnel/start", "Remote-access tunnel"},
	{"POST", "/tunnel/stop", "Remote-access tunnel"},
	{"GET", "/tunnel/status", "Remote-access tunnel"},
	{"GET", "/dictation/config", "Dictation"},
	{"GET", "/dictation/models", "Dictation"},
	{"DELETE", "/dictation/models/{model_id}", "Dictation"},
	{"GET", "/dictation/models/{model_id}/download", "Dictation"},
	{"POST", "/dictation/models/{model_id}/download", "Dictation"},
	{"DELETE", "/dictation/models/{model_id}/download", "Dictation"},
	{"POST", "/dictation/transcribe", "Dictation"},
	{"POST", "/local-inference/download", "Local inference"},
	{"GET", "/local-inference/models", "Local inference"},
	{"DELETE", "/local-inference/models/{model_id}", "Local inference"},
	{"GET", "/local-inference/models/{model_id}/download", "Local inference"},
	{"DELETE", "/local-inference/models/{model_id}/download", "Local inference"},
	{"GET", "/local-inference/models/{model_id}/settings", "Local inference"},
	{"PUT", "/local-inference/models/{model_id}/settings", "Local inference"},
	{"GET", "/local-inference/repo/{author}/{repo}/files", "Local inference"},
	{"GET", "/local-inference/search", "Local inference"},
	{"POST", "/local-inference/sync-featured", "Local inference"},
	{"POST", "/gateway/pair", "Chat gateways"},
	{"DELETE", "/gateway/pair/{platform}/{user_id}", "Chat gateways"},
	{"POST", "/gateway/remove", "Chat gateways"},
	{"POST", "/gateway/restart", "Chat gateways"},
	{"POST", "/gateway/start", "Chat gateways"},
	{"GET", "/gateway/status", "Chat gateways"},
	{"POST", "/gateway/stop", "Chat gateways"},
	{"POST", "/handle_openrouter", "OpenRouter setup flow"},
	{"POST", "/handle_tetrate", "Tetrate setup flow"},
	{"POST", "/handle_nanogpt", "NanoGPT setup flow"},
	{"POST", "/config/providers/{name}/oauth", "Provider OAuth setup"},
	{"GET", "/config/provider-catalog", "Provider catalog (models.dev)"},
	{"GET", "/config/provider-catalog/{id}", "Provider catalog (models.dev)"},
	{"POST", "/config/canonical-model-info", "Canonical model info (models.dev)"},
	{"POST", "/agent/import_app", "MCP Apps"},
	{"GET", "/agent/export_app/{name}", "MCP Apps"},
	{"GET", "/mcp-ui-proxy", "MCP-UI proxy"},
	{"GET", "/mcp-app-proxy", "MCP Apps"},
	{"GET", "/mcp-app-guest", "MCP Apps"},
	{"POST", "/mcp-app-guest", "MCP Apps"},
	{"POST", "/agent/set_container", "Containers"},
	{"POST", "/sessions/{session_id}/sampling/message", "MCP sampling over HTTP"},
}

func unavailable(feature string) http.Handler {
	msg := feature + " is not available in goose-acp"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotImplemented, map[string]string{"message": msg})
	})
}
