package httpapi

import (
	"net/http"
)

// Every route is decode → core → encode. A route's endpoint receives its
// decoded (and checked) request and answers a reply or an error; the
// adapters own the decoding, and the Server writes the reply or the error
// (respond.go), so no endpoint writes to the ResponseWriter itself
// (streams excepted: they are plain http.Handlers).

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

// endpoint is a route's decode → core → encode: a reply or an error.
type endpoint func(r *http.Request) (reply, error)

// withBody adapts a handler of a JSON body Q: axum's Json extractor
// (415 without a JSON content type, 413 past the limit, 400 for bad JSON,
// 422 for the wrong shape or Q's check()), then h.
func withBody[Q any](h func(r *http.Request, q Q) (reply, error)) endpoint {
	return func(r *http.Request) (reply, error) {
		var q Q
		if err := decodeJSON(r, &q); err != nil {
			return reply{}, err
		}
		return h(r, q)
	}
}

// noInput adapts a handler that reads only the path and query.
func noInput(h func(r *http.Request) (reply, error)) endpoint { return h }

// streamBody adapts a streaming handler of a JSON body Q: decoding errors
// are answered before the stream starts; h writes the stream itself.
func streamBody[Q any](out writer, h func(w http.ResponseWriter, r *http.Request, q Q)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q Q
		if err := decodeJSON(r, &q); err != nil {
			out.error(w, r, err)
			return
		}
		h(w, r, q)
	})
}

// refuse makes every endpoint of routes answer err: an area whose core
// service this server was built without (no config, no scheduler).
func refuse(err error, routes []route) []route {
	for i := range routes {
		routes[i].endpoint = func(*http.Request) (reply, error) { return reply{}, err }
		routes[i].handler = nil
	}
	return routes
}

// needs answers err instead of running e when the server lacks what e
// needs (have is false).
func needs(have bool, err error, e endpoint) endpoint {
	if have {
		return e
	}
	return func(*http.Request) (reply, error) { return reply{}, err }
}
