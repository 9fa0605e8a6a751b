package ollama

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// chatResponse is one /api/chat NDJSON line.
type chatResponse struct {
	Model   string `json:"model"`
	Message struct {
		Content   string         `json:"content"`
		Thinking  string         `json:"thinking"`
		ToolCalls []chatToolCall `json:"tool_calls"`
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount *int   `json:"prompt_eval_count"`
	EvalCount       *int   `json:"eval_count"`
	Error           string `json:"error"`
}

// maxLine bounds one NDJSON line (a large tool call's arguments).
const maxLine = 16 << 20

// readStream yields a chunk per thinking, text and tool-call delta, and the
// usage from the final "done" line.
func (p *Provider) readStream(ctx context.Context, body io.Reader, yield func(provider.Chunk, error) bool) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	s := streamState{p: p, id: p.opts.NewID(), created: p.opts.Now().Unix()}
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		chunks, done, err := s.line(line)
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
		if err != nil {
			yield(provider.Chunk{}, err)
			return
		}
		if done {
			return
		}
	}
	if err := sc.Err(); err != nil {
		yield(provider.Chunk{}, p.transportError(ctx, err))
		return
	}
	if ctx.Err() != nil {
		yield(provider.Chunk{}, p.transportError(ctx, ctx.Err()))
		return
	}
	yield(provider.Chunk{}, p.errorf(provider.KindNetwork, errors.New("stream ended before the final done message")))
}

type streamState struct {
	p       *Provider
	id      string
	created int64
	think   thinkSplitter
	xml     xmlFallback
}

// line handles one NDJSON object; done reports the final line.
func (s *streamState) line(line []byte) ([]provider.Chunk, bool, error) {
	var r chatResponse
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, false, s.p.errorf(provider.KindServer, fmt.Errorf("invalid stream line %.200q: %w", line, err))
	}
	if r.Error != "" {
		return nil, false, provider.ClassifyStreamError(s.p.opts.Name, normalizeErrorBody(line))
	}
	var out []provider.Chunk
	inlineThought, content := s.think.split(r.Message.Content)
	if r.Done {
		th, tx := s.think.flush()
		inlineThought, content = inlineThought+th, content+tx
	}
	if thought := r.Message.Thinking + inlineThought; thought != "" {
		out = append(out, s.chunk(conversation.Thinking(thought, "")))
	}
	if visible := s.xml.add(content); visible != "" {
		out = append(out, s.chunk(conversation.Text(visible)))
	}
	for _, tc := range r.Message.ToolCalls {
		out = append(out, s.chunk(s.toolRequest(tc)))
	}
	if !r.Done {
		return out, false, nil
	}
	for _, c := range s.xml.finish(s.p.opts.NewID) {
		out = append(out, s.chunk(c))
	}
	out = append(out, provider.Chunk{Usage: &provider.ProviderUsage{Model: r.Model, Usage: usage(r)}})
	return out, true, nil
}

// toolRequest accepts arguments as a JSON object or as a JSON string
// holding one; unparsable arguments become an error the model can read.
func (s *streamState) toolRequest(tc chatToolCall) conversation.Content {
	id := tc.ID
	if id == "" {
		id = s.p.opts.NewID()
	}
	raw := string(tc.Function.Arguments)
	var str string
	if json.Unmarshal(tc.Function.Arguments, &str) == nil {
		raw = str
	}
	return provider.ToolRequest(id, tc.Function.Name, raw)
}

// chunk wraps one item in a partial assistant message; the id pointer is
// shared by the stream's chunks (ids are never mutated).
func (s *streamState) chunk(c conversation.Content) provider.Chunk {
	return provider.Chunk{Message: &conversation.Message{ID: &s.id, Role: conversation.RoleAssistant, Created: s.created,
		Content: []conversation.Content{c}, Metadata: conversation.VisibleToAll()}}
}

// usage reads prompt_eval_count / eval_count; a missing count stays nil.
func usage(r chatResponse) provider.Usage {
	u := provider.Usage{InputTokens: r.PromptEvalCount, OutputTokens: r.EvalCount}
	if u.InputTokens != nil && u.OutputTokens != nil {
		u.TotalTokens = provider.Int(*u.InputTokens + *u.OutputTokens)
	}
	return u
}
