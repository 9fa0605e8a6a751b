package agent

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/provider"
)

// DefaultElicitationTimeout is how long a server's elicitation waits for
// the user (goose: 300 s); Options.ElicitationTimeout overrides it.
const DefaultElicitationTimeout = 300 * time.Second

// ErrElicitationTimeout is goose's "Timeout waiting for user response".
var ErrElicitationTimeout = errkind.New(errkind.Timeout, "Timeout waiting for user response")

// SamplingSystemPrompt is goose's default system prompt for sampling.
const SamplingSystemPrompt = "You are a general-purpose AI agent called goose"

func (s *sessionState) hooks() extension.Hooks {
	return extension.Hooks{
		Notify: func(callID string, n extension.Notification) {
			s.outOfBand(NotificationEvent{RequestID: callID, Extension: n.Extension, Method: n.Method, Params: n.Params})
		},
		Elicit:         s.elicit,
		ElicitComplete: s.elicitComplete,
		Sample:         s.sample,
		Progress: func(p extension.ToolProgress) {
			if ev := (ToolProgressEvent{p}); !s.outOfBand(ev) {
				s.toHolders(ev)
			}
		},
	}
}

// outOfBand hands an event to the running turn, which emits it from the
// reply goroutine. Without a running turn the event is dropped.
func (s *sessionState) outOfBand(ev Event) bool {
	s.mu.Lock()
	t := s.turn
	s.mu.Unlock()
	if t == nil {
		return false
	}
	return t.post(ev)
}

func (s *sessionState) elicit(ctx context.Context, req extension.ElicitRequest) (extension.ElicitResponse, error) {
	id := s.a.opts.NewID()
	ch := s.elicits.add(id)
	ask := conversation.Elicitation(id, req.Message, req.Schema)
	if req.Mode == conversation.ElicitURLMode {
		ask = conversation.URLElicitation(id, req.Message, req.URL, req.ElicitationID)
		s.mu.Lock()
		if s.urlFlows == nil {
			s.urlFlows = map[string]bool{}
		}
		s.urlFlows[req.ElicitationID] = true
		s.mu.Unlock()
	}
	msg := conversation.NewMessage(conversation.RoleAssistant, s.a.now().Unix()).
		WithID(s.a.msgID()).With(ask)
	msg.Metadata = conversation.Metadata{UserVisible: true, AgentVisible: false}
	if !s.outOfBand(MessageEvent{Message: msg}) {
		s.elicits.remove(id)
		return extension.ElicitResponse{}, fmt.Errorf("%w: no turn is running to ask the user", ErrElicitationFailed)
	}
	wctx, cancel := context.WithTimeoutCause(ctx, s.a.opts.ElicitationTimeout, ErrElicitationTimeout)
	defer cancel()
	resp, err := wait(wctx, &s.elicits, id, ch)
	if err != nil {
		if errors.Is(context.Cause(wctx), ErrElicitationTimeout) {
			return resp, ErrElicitationTimeout
		}
		return resp, err
	}
	return resp, nil
}

// elicitComplete reports the end of a URL-mode flow this session's user
// was sent to (ElicitationCompleteEvent), once; other flows on a shared
// connection are not this session's.
func (s *sessionState) elicitComplete(_, elicitationID string) {
	s.mu.Lock()
	mine := s.urlFlows[elicitationID]
	delete(s.urlFlows, elicitationID)
	s.mu.Unlock()
	if mine {
		s.outOfBand(ElicitationCompleteEvent{ElicitationID: elicitationID})
	}
}

func (s *sessionState) sample(ctx context.Context, _ string, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	prov, perr, _, _ := s.snapshot()
	if prov == nil {
		return nil, perr
	}
	req := provider.Request{System: p.SystemPrompt}
	if req.System == "" {
		req.System = SamplingSystemPrompt
	}
	now := s.a.now().Unix()
	for _, m := range p.Messages {
		role := conversation.RoleUser
		if m.Role == "assistant" {
			role = conversation.RoleAssistant
		}
		msg := conversation.NewMessage(role, now)
		switch c := m.Content.(type) {
		case *mcp.TextContent:
			msg = msg.WithText(c.Text)
		case *mcp.ImageContent:
			msg = msg.With(conversation.Image(base64.StdEncoding.EncodeToString(c.Data), c.MIMEType))
		default:
			continue
		}
		req.Messages = append(req.Messages, msg)
	}
	reply, usage, err := prov.Complete(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("sampling: %w", err)
	}
	modelName := usage.Model
	if modelName == "" {
		modelName = prov.ModelConfig().ModelName
	}
	return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: reply.AsText()}, Model: modelName, Role: "assistant", StopReason: "endTurn"}, nil
}
