package providertest

import (
	"sync"
	"time"
)

// ToolCall is a scripted tool call. Arguments is raw JSON text and may be
// deliberately invalid; servers split it into several fragments.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Usage is scripted token usage, sent where the wire format sends it.
type Usage struct {
	Input, Output         int
	CacheRead, CacheWrite int
}

// Turn is one scripted model response (one HTTP request's answer).
type Turn struct {
	// Text chunks, streamed in order.
	Text []string
	// Thinking chunks and the signature sent after them (Anthropic);
	// OpenAI-style servers send them as reasoning_content.
	Thinking          []string
	ThinkingSignature string
	RedactedThinking  string
	ToolCalls         []ToolCall
	Usage             *Usage
	// StopReason overrides the wire's finish reason (e.g. "length",
	// "max_tokens", "refusal"); empty picks the natural one.
	StopReason string
	// Status, when non-zero, answers with this HTTP status and ErrorBody
	// instead of a stream; RetryAfter sets the Retry-After header.
	Status     int
	ErrorBody  string
	RetryAfter string
	// CutAfter > 0 closes the connection after that many stream events,
	// simulating a stream cut mid-way.
	CutAfter int
	// Delay is slept before each stream event; Hang blocks after the first
	// event (for OpenAI, the first after the role preamble) until the
	// request is cancelled (for idle-timeout and cancel tests).
	Delay time.Duration
	Hang  bool
	// OmitToolCallIndex leaves "index" out of streamed tool-call deltas, as
	// some OpenAI-compatible servers do (OpenAI format only).
	OmitToolCallIndex bool
}

// Script is an ordered list of turns. Each request to the server consumes
// the next turn; requests past the end get a 500 naming the problem.
type Script struct {
	mu       sync.Mutex
	turns    []Turn
	next     int
	requests [][]byte
	models   []string
}

// NewScript returns a script serving turns in order.
func NewScript(turns ...Turn) *Script { return &Script{turns: turns} }

// Append adds turns to the end of the script.
func (s *Script) Append(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

// take records the request body and returns the next turn.
func (s *Script) take(body []byte) (Turn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, body)
	if s.next >= len(s.turns) {
		return Turn{}, false
	}
	t := s.turns[s.next]
	s.next++
	return t, true
}

// Requests returns copies of the request bodies received so far.
func (s *Script) Requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([][]byte, len(s.requests))
	copy(out, s.requests)
	return out
}

// Remaining returns how many turns have not been served.
func (s *Script) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) - s.next
}

// SetModels sets the model names the server lists for FetchModels.
func (s *Script) SetModels(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), names...)
}

// Models returns the model names the server lists.
func (s *Script) Models() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.models...)
}
