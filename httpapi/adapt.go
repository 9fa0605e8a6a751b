package httpapi

import (
	"net/http"
)

// Every route is decode → core → encode. A handler receives its decoded
// (and checked) request and answers a reply or an error; the adapters own
// the decoding, the one error writer and the encoding, so no handler writes
// to the ResponseWriter itself (streams excepted).

// reply is a handler's answer: a status and a JSON body, or no body.
type reply struct {
	status int
	body   any
	empty  bool
}

// ok answers 200 with v as JSON.
func ok(v any) reply { return reply{status: http.StatusOK, body: v} }

// jsonStatus answers status with v as JSON (goosed answers some 204s with
// a body).
func jsonStatus(status int, v any) reply { return reply{status: status, body: v} }

// noBody answers a bare status (goosed's StatusCode).
func noBody(status int) reply { return reply{status: status, empty: true} }

func (s *Server) write(w http.ResponseWriter, rep reply) {
	if rep.empty {
		w.WriteHeader(rep.status)
		return
	}
	writeJSON(w, rep.status, rep.body)
}

// withBody adapts a handler of a JSON body Q: axum's Json extractor
// (415 without a JSON content type, 413 past the limit, 400 for bad JSON,
// 422 for the wrong shape or Q's check()), then h, then the reply or
// writeError.
func withBody[Q any](s *Server, h func(r *http.Request, q Q) (reply, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q Q
		if err := decodeJSON(r, &q); err != nil {
			s.writeError(w, r, err)
			return
		}
		rep, err := h(r, q)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.write(w, rep)
	})
}

// noInput adapts a handler that reads only the path and query.
func noInput(s *Server, h func(r *http.Request) (reply, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rep, err := h(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.write(w, rep)
	})
}

// streamBody adapts a streaming handler of a JSON body Q: decoding errors
// are answered before the stream starts; h writes the stream itself.
func streamBody[Q any](s *Server, h func(w http.ResponseWriter, r *http.Request, q Q)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q Q
		if err := decodeJSON(r, &q); err != nil {
			s.writeError(w, r, err)
			return
		}
		h(w, r, q)
	})
}

// needConfig answers 503 before anything else when the server runs without
// config.yaml access.
func (s *Server) needConfig(h http.Handler) http.Handler {
	return s.need(func() bool { return s.opts.Config != nil }, errNoConfig, h)
}

// needScheduler answers 503 when the server runs without a scheduler.
func (s *Server) needScheduler(h http.Handler) http.Handler {
	return s.need(func() bool { return s.opts.Scheduler != nil }, errSchedulerUnavailable, h)
}

func (s *Server) need(ok func() bool, err error, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !ok() {
			s.writeError(w, r, err)
			return
		}
		h.ServeHTTP(w, r)
	})
}

var (
	errNoConfig             = errorf(http.StatusServiceUnavailable, "configuration is not available in this goose-acp server")
	errSchedulerUnavailable = errorf(http.StatusServiceUnavailable, "Scheduling is not available in this goose-acp server")
)
