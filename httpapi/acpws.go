package httpapi

import (
	"net/http"

	"github.com/goose-acp/goose-acp/acp/acphttp"
)

// acpWebSocket is goosed's /acp: the same transport as `goose-acp serve`'s
// (acp/acphttp: WebSocket, and the streamable-HTTP POST/GET/DELETE form)
// with the same Origin rule. The secret comes as X-Secret-Key or ?secret=
// (checked by auth).
func (s *Server) acpWebSocket(w http.ResponseWriter, r *http.Request) {
	if s.acp == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "ACP over WebSocket is not enabled on this server"})
		return
	}
	acphttp.Guard(nil, s.acp).ServeHTTP(w, r)
}
