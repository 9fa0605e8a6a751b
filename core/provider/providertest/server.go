package providertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"
)

// Format is a provider wire format the server speaks.
type Format int

const (
	OpenAI Format = iota + 1
	Anthropic
	Google
	Ollama
	OpenAIResponses
)

func (f Format) String() string {
	switch f {
	case OpenAI:
		return "openai"
	case Anthropic:
		return "anthropic"
	case Google:
		return "google"
	case Ollama:
		return "ollama"
	case OpenAIResponses:
		return "openai-responses"
	}
	return "format(" + strconv.Itoa(int(f)) + ")"
}

// turnHandler streams one scripted turn in a format. It runs only for
// turns that are neither error answers (Status) nor missing; the common
// server handles those.
type turnHandler func(w http.ResponseWriter, r *http.Request, t Turn)

// modelsHandler answers a model-listing request (GET) in a format.
type modelsHandler func(w http.ResponseWriter, r *http.Request, models []string)

// handlers and modelLists are filled by each format's file in init.
var (
	handlers   = map[Format]turnHandler{}
	modelLists = map[Format]modelsHandler{}
)

// Request is one HTTP request the server received.
type Request struct {
	Method string
	Path   string
	Query  string
	Header http.Header
	Body   []byte
}

// Server is a local HTTP server replaying a Script in one wire format. It
// needs no testing.T, so e2e tests can point a spawned binary at URL.
type Server struct {
	URL    string
	Script *Script
	Format Format

	srv      *httptest.Server
	mu       sync.Mutex
	requests []Request
}

// Start serves script in format on a fresh local port. It panics if no
// handler is registered for format (a programming error in the test).
func Start(format Format, script *Script) *Server {
	h, ok := handlers[format]
	if !ok {
		panic(fmt.Sprintf("providertest: no handler registered for %s", format))
	}
	if script == nil {
		script = NewScript()
	}
	s := &Server{Script: script, Format: format}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serve(w, r, h)
	}))
	s.URL = s.srv.URL
	return s
}

// Close shuts the server down, cutting any open streams.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Requests returns every request received so far, model listings included.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Client returns an HTTP client for the server.
func (s *Server) Client() *http.Client { return s.srv.Client() }

func (s *Server) serve(w http.ResponseWriter, r *http.Request, h turnHandler) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "providertest: reading request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.mu.Lock()
	s.requests = append(s.requests, Request{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
	s.mu.Unlock()

	if r.Method == http.MethodGet {
		s.serveModels(w, r)
		return
	}
	t, ok := s.Script.take(body)
	if !ok {
		writeJSONError(w, http.StatusInternalServerError,
			fmt.Sprintf("providertest: script exhausted: request %d to %s has no scripted turn", len(s.Script.Requests()), r.URL.Path))
		return
	}
	if t.Status != 0 {
		writeScriptedError(w, t)
		return
	}
	h(w, r, t)
}

func (s *Server) serveModels(w http.ResponseWriter, r *http.Request) {
	m, ok := modelLists[s.Format]
	if !ok {
		writeJSONError(w, http.StatusNotFound, fmt.Sprintf("providertest: %s has no model listing", s.Format))
		return
	}
	m(w, r, s.Script.Models())
}

// writeScriptedError answers with the turn's status, body and Retry-After.
func writeScriptedError(w http.ResponseWriter, t Turn) {
	if t.RetryAfter != "" {
		w.Header().Set("Retry-After", t.RetryAfter)
	}
	if json.Valid([]byte(t.ErrorBody)) {
		w.Header().Set("Content-Type", "application/json")
	} else {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.WriteHeader(t.Status)
	_, _ = io.WriteString(w, t.ErrorBody)
}

// writeJSONError writes an OpenAI-style error object, which every client
// here surfaces readably.
func writeJSONError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "server_error"}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// eventWriter writes stream events with the turn's Delay, CutAfter and
// Hang behaviour. Each write method reports false once the stream must end
// (cut, hung until cancel, or client gone); the handler then returns.
type eventWriter struct {
	w    http.ResponseWriter
	r    *http.Request
	rc   *http.ResponseController
	t    Turn
	sent int
	done bool
	// hangAfter is how many events go out before Hang blocks (1 unless a
	// format sends a content-free preamble first).
	hangAfter int
}

func newEventWriter(w http.ResponseWriter, r *http.Request, t Turn, contentType string) *eventWriter {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{})
	_ = rc.Flush()
	return &eventWriter{w: w, r: r, rc: rc, t: t, hangAfter: 1}
}

// sse writes one Server-Sent Event; event may be empty (data-only).
func (e *eventWriter) sse(event string, data []byte) bool {
	var b bytes.Buffer
	if event != "" {
		b.WriteString("event: ")
		b.WriteString(event)
		b.WriteByte('\n')
	}
	b.WriteString("data: ")
	b.Write(data)
	b.WriteString("\n\n")
	return e.raw(b.Bytes())
}

// line writes one NDJSON line.
func (e *eventWriter) line(data []byte) bool {
	return e.raw(append(append([]byte(nil), data...), '\n'))
}

// json marshals v and writes it as a data-only SSE event.
func (e *eventWriter) json(v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("providertest: marshal event: %v", err))
	}
	return e.sse("", b)
}

func (e *eventWriter) raw(p []byte) bool {
	if e.done {
		return false
	}
	if e.t.CutAfter > 0 && e.sent >= e.t.CutAfter {
		e.cut()
		return false
	}
	if e.t.Delay > 0 {
		select {
		case <-time.After(e.t.Delay):
		case <-e.r.Context().Done():
			e.done = true
			return false
		}
	}
	if _, err := e.w.Write(p); err != nil {
		e.done = true
		return false
	}
	if err := e.rc.Flush(); err != nil {
		e.done = true
		return false
	}
	e.sent++
	if e.t.Hang && e.sent >= e.hangAfter {
		<-e.r.Context().Done()
		e.done = true
		return false
	}
	return true
}

// cut drops the connection without finishing the chunked body, so the
// client sees an unexpected EOF, as with a real mid-stream network failure.
func (e *eventWriter) cut() {
	e.done = true
	conn, _, err := e.rc.Hijack()
	if err != nil {
		panic(fmt.Sprintf("providertest: cannot cut stream: %v", err))
	}
	_ = conn.Close()
}

// TestAPIKey is the credential Env hands to a process under test.
const TestAPIKey = "providertest-key"

// Env returns the environment that points goose-acp at this server
// (GOOSE_PROVIDER, GOOSE_MODEL, the format's host and API key), for e2e
// tests that spawn the binary: cmd.Env = append(os.Environ(), s.Env()...).
func (s *Server) Env() []string {
	switch s.Format {
	case OpenAI:
		return []string{"GOOSE_PROVIDER=openai", "GOOSE_MODEL=gpt-4o", "OPENAI_HOST=" + s.URL, "OPENAI_API_KEY=" + TestAPIKey}
	case Anthropic:
		return []string{"GOOSE_PROVIDER=anthropic", "GOOSE_MODEL=claude-sonnet-4-5", "ANTHROPIC_HOST=" + s.URL, "ANTHROPIC_API_KEY=" + TestAPIKey}
	case Google:
		return []string{"GOOSE_PROVIDER=google", "GOOSE_MODEL=gemini-2.5-pro", "GOOGLE_HOST=" + s.URL, "GOOGLE_API_KEY=" + TestAPIKey}
	case Ollama:
		return []string{"GOOSE_PROVIDER=ollama", "GOOSE_MODEL=qwen3", "OLLAMA_HOST=" + s.URL}
	case OpenAIResponses:
		// goose routes gpt-5 codex models to the Responses API.
		return []string{"GOOSE_PROVIDER=openai", "GOOSE_MODEL=gpt-5-codex", "OPENAI_HOST=" + s.URL, "OPENAI_API_KEY=" + TestAPIKey}
	}
	return nil
}
