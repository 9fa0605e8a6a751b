package httpapi

import (
	"net/http"

	"github.com/goose-acp/goose-acp/core/unavailable"
)

// UnavailableRoute is a goosed route goose-acp answers with a clear error
// because the feature behind it is not part of goose-acp (core/unavailable
// names it for every face).
type UnavailableRoute struct {
	Method, Path string
	Feature      unavailable.Feature
}

// Unavailable lists those routes (docs/status.md lists them too). Each answers
// 501 {"message": "<feature> is not available in goose-acp: <why>"}.
var Unavailable = []UnavailableRoute{
	{"POST", "/tunnel/start", unavailable.Tunnel},
	{"POST", "/tunnel/stop", unavailable.Tunnel},
	{"GET", "/tunnel/status", unavailable.Tunnel},
	{"GET", "/dictation/config", unavailable.Dictation},
	{"GET", "/dictation/models", unavailable.Dictation},
	{"DELETE", "/dictation/models/{model_id}", unavailable.Dictation},
	{"GET", "/dictation/models/{model_id}/download", unavailable.Dictation},
	{"POST", "/dictation/models/{model_id}/download", unavailable.Dictation},
	{"DELETE", "/dictation/models/{model_id}/download", unavailable.Dictation},
	{"POST", "/dictation/transcribe", unavailable.Dictation},
	{"POST", "/local-inference/download", unavailable.LocalInference},
	{"GET", "/local-inference/models", unavailable.LocalInference},
	{"DELETE", "/local-inference/models/{model_id}", unavailable.LocalInference},
	{"GET", "/local-inference/models/{model_id}/download", unavailable.LocalInference},
	{"DELETE", "/local-inference/models/{model_id}/download", unavailable.LocalInference},
	{"GET", "/local-inference/models/{model_id}/settings", unavailable.LocalInference},
	{"PUT", "/local-inference/models/{model_id}/settings", unavailable.LocalInference},
	{"GET", "/local-inference/repo/{author}/{repo}/files", unavailable.LocalInference},
	{"GET", "/local-inference/search", unavailable.LocalInference},
	{"POST", "/local-inference/sync-featured", unavailable.LocalInference},
	{"POST", "/gateway/pair", unavailable.ChatGateways},
	{"DELETE", "/gateway/pair/{platform}/{user_id}", unavailable.ChatGateways},
	{"POST", "/gateway/remove", unavailable.ChatGateways},
	{"POST", "/gateway/restart", unavailable.ChatGateways},
	{"POST", "/gateway/start", unavailable.ChatGateways},
	{"GET", "/gateway/status", unavailable.ChatGateways},
	{"POST", "/gateway/stop", unavailable.ChatGateways},
	{"POST", "/handle_openrouter", unavailable.OpenRouter},
	{"POST", "/handle_tetrate", unavailable.Tetrate},
	{"POST", "/handle_nanogpt", unavailable.NanoGPT},
	{"POST", "/config/providers/{name}/oauth", unavailable.ProviderOAuth},
	{"POST", "/agent/import_app", unavailable.MCPApps},
	{"GET", "/agent/export_app/{name}", unavailable.MCPApps},
	{"GET", "/mcp-ui-proxy", unavailable.MCPUIProxy},
	{"GET", "/mcp-app-proxy", unavailable.MCPApps},
	{"GET", "/mcp-app-guest", unavailable.MCPApps},
	{"POST", "/mcp-app-guest", unavailable.MCPApps},
	{"POST", "/agent/set_container", unavailable.Containers},
	{"POST", "/sessions/{session_id}/sampling/message", unavailable.HTTPSampling},
}

func unavailableRoute(f unavailable.Feature) http.Handler {
	msg := f.Message()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotImplemented, map[string]string{"message": msg})
	})
}
