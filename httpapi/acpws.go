package httpapi

import (
	"net/http"
)

// acp is goosed's /acp: the ACP transport cmd gives in Options.ACP
// (WebSocket and the streamable-HTTP POST/GET/DELETE form, with goose
// serve's Origin rule), after this server's secret check (X-Secret-Key or
// ?secret=).
func (s *Server) acp(w http.ResponseWriter, r *http.Request) {
	if s.opts.ACP == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "ACP over WebSocket is not enabled on this server"})
		return
	}
	s.opts.ACP.ServeHTTP(w, r)
}
