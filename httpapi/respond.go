package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/schedule"
	"github.com/goose-acp/goose-acp/core/session"
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

func badRequest(format string, args ...any) *apiError {
	return errorf(http.StatusBadRequest, format, args...)
}

func notFound(format string, args ...any) *apiError {
	return errorf(http.StatusNotFound, format, args...)
}

// statusOf maps core errors to goosed's status codes.
func statusOf(err error) int {
	var ae *apiError
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &ae):
		return ae.status
	case errors.As(err, &mb):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, session.ErrNotFound), errors.Is(err, config.ErrNotFound), errors.Is(err, schedule.ErrJobNotFound),
		errors.Is(err, recipe.ErrNotFound), errors.Is(err, agent.ErrNoRecipe):
		return http.StatusNotFound
	case errors.Is(err, session.ErrInvalidImport), errors.Is(err, session.ErrInvalidUpdate),
		errors.Is(err, session.ErrInvalidMessage), errors.Is(err, agent.ErrSessionBusy),
		errors.Is(err, agent.ErrInvalidSessionName), errors.Is(err, schedule.ErrInvalidID):
		return http.StatusBadRequest
	case errors.Is(err, schedule.ErrJobExists):
		return http.StatusConflict
	case errors.Is(err, schedule.ErrInvalidCron), errors.Is(err, schedule.ErrNotRunning), errors.Is(err, schedule.ErrJobRunning):
		return http.StatusBadRequest
	case errors.Is(err, agent.ErrSessionNotLoaded), errors.Is(err, agent.ErrNoProvider), errors.Is(err, agent.ErrUnknownExtension):
		return http.StatusFailedDependency
	}
	return http.StatusInternalServerError
}

// writeError is the one error writer: goosed's ErrorResponse
// {"message": …} with statusOf's status (text/plain for a textError).
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status := statusOf(err)
	if status >= 500 {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "error", err)
	}
	var ae *apiError
	if errors.As(err, &ae) && ae.text {
		writeText(w, status, ae.msg)
		return
	}
	writeJSON(w, status, map[string]string{"message": err.Error()})
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
