package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"os"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/unavailable"
)

// apiError is an error with the HTTP status goosed answers for it; the body
// is goosed's ErrorResponse {"message": …}.
type apiError struct {
	status int
	msg    string
	err    error
	// text answers msg as text/plain (goosed's String errors).
	text bool
}

func (e *apiError) Error() string { return e.msg }
func (e *apiError) Unwrap() error { return e.err }

func errorf(status int, format string, args ...any) *apiError {
	err := fmt.Errorf(format, args...)
	return &apiError{status: status, msg: err.Error(), err: errors.Unwrap(err)}
}

// textError is an error goosed answers as a text/plain body.
func textError(status int, format string, args ...any) *apiError {
	e := errorf(status, format, args...)
	e.text = true
	return e
}

// withStatus gives err the status goosed answers it with on one route,
// keeping core's detail as the message.
func withStatus(status int, err error) error {
	return &apiError{status: status, msg: errkind.Detail(err), err: err}
}

func badRequest(format string, args ...any) *apiError {
	return errorf(http.StatusBadRequest, format, args...)
}

func notFound(format string, args ...any) *apiError {
	return errorf(http.StatusNotFound, format, args...)
}

// statuses is the one table from core's error kinds to goosed's statuses:
// bad input and a busy session or job are 400 (goosed answers "already
// has an active request" with 400), a conflict 409, something that must be
// loaded or configured first 424, a service this server runs without 503;
// the rest 500. Routes that answer otherwise do so by goosed's contract
// for that route (apiError), and request decoding has its own (decodeJSON).
var statuses = map[errkind.Kind]int{
	errkind.Invalid:      http.StatusBadRequest,
	errkind.Busy:         http.StatusBadRequest,
	errkind.NotFound:     http.StatusNotFound,
	errkind.Conflict:     http.StatusConflict,
	errkind.NotReady:     http.StatusFailedDependency,
	errkind.AuthRequired: http.StatusFailedDependency,
	errkind.Unavailable:  http.StatusServiceUnavailable,
}

// statusOf is err's status: a route's own, 413 past a body limit, 501 for
// a feature goose-acp does not ship, else its kind's.
func statusOf(err error) int {
	var ae *apiError
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
		return ae.status
	case errors.As(err, &mb):
		return http.StatusRequestEntityTooLarge
	}
	if _, ok := unavailable.FeatureOf(err); ok {
		return http.StatusNotImplemented
	}
	if st, ok := statuses[errkind.Of(err)]; ok {
		return st
	}
	return http.StatusInternalServerError
}

// Services this server may run without.
var (
	errNoConfig             = errkind.New(errkind.Unavailable, "configuration is not available in this goose-acp server")
	errSchedulerUnavailable = errkind.New(errkind.Unavailable, "Scheduling is not available in this goose-acp server")
)

// writer writes replies and errors; it logs every 5xx.
type writer struct {
	log *slog.Logger
}

// serve mounts an endpoint: its reply or its error.
func (o writer) serve(e endpoint) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rep, err := e(r)
		if err != nil {
			o.error(w, r, err)
			return
		}
		if rep.empty {
			w.WriteHeader(rep.status)
			return
		}
		writeJSON(w, rep.status, rep.body)
	})
}

// error is the one error writer: goosed's ErrorResponse {"message": …}
// with statusOf's status (text/plain for a textError); the message is the
// route's own words or core's human detail.
func (o writer) error(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	if status >= 500 {
		o.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "error", err)
	}
	var ae *apiError
	if errors.As(err, &ae) {
		if ae.text {
			writeText(w, status, ae.msg)
			return
		}
		writeJSON(w, status, map[string]string{"message": ae.msg})
		return
	}
	msg := errkind.Detail(err)
	if f, ok := unavailable.FeatureOf(err); ok {
		msg = f.Message()
	}
	writeJSON(w, status, map[string]string{"message": msg})
}

// writeJSON writes v as JSON (without HTML escaping, like serde_json).
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, `{"message":%q}`, "encoding response: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// writeText writes a text/plain body.
func writeText(w http.ResponseWriter, status int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(text))
}

// decodeJSON reads the body like axum's Json extractor: 415 without a JSON
// content type, 413 past the body limit, 400 for malformed JSON, 422 for
// JSON of the wrong shape.
func decodeJSON(r *http.Request, v any) error {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return errorf(http.StatusUnsupportedMediaType, "Expected request with `Content-Type: application/json`")
	}
	err := bodyOverLimit(r)
	var buf bytes.Buffer
	if err == nil {
		if r.ContentLength > 0 {
			// One allocation of the body's size (ReadFrom wants MinRead
			// spare bytes to see the end).
			buf.Grow(int(r.ContentLength) + bytes.MinRead)
		}
		_, err = buf.ReadFrom(r.Body)
	}
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return &apiError{status: http.StatusRequestEntityTooLarge, msg: "Failed to buffer the request body: length limit exceeded", err: err}
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return &apiError{status: http.StatusRequestTimeout, msg: "Failed to buffer the request body: it did not arrive in time", err: err}
		}
		return badRequest("Failed to buffer the request body: %w", err)
	}
	if !json.Valid(buf.Bytes()) {
		return badRequest("Failed to parse the request body as JSON")
	}
	if err := json.Unmarshal(buf.Bytes(), v); err != nil {
		return errorf(http.StatusUnprocessableEntity, "Failed to deserialize the JSON body into the target type: %w", err)
	}
	if c, ok := v.(interface{ check() error }); ok {
		if err := c.check(); err != nil {
			return errorf(http.StatusUnprocessableEntity, "Failed to deserialize the JSON body into the target type: %w", err)
		}
	}
	return nil
}

// required reports the first empty required string field (name, value
// pairs), as serde's "missing field" error.
func required(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			return fmt.Errorf("missing field `%s`", pairs[i])
		}
	}
	return nil
}
