package agent

import (
	"context"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
)

// refreshTools rebuilds the tool list and system prompt when the
// extensions changed (and persists the new extension list), and the
// system prompt alone when the subdirectory hints changed.
func (t *turn) refreshTools() {
	v, hv := t.s.mgr.Version(), t.s.subHints.version()+t.s.prompt.version()
	if v == t.toolsVersion {
		if hv != t.hintsVersion {
			t.hintsVersion = hv
			t.system = t.a.systemPrompt(t.ctx, t.s, t.mode, t.wd)
		}
		return
	}
	t.hintsVersion = hv
	first := t.toolsVersion < 0
	t.toolsVersion = v
	t.tools = t.s.mgr.Tools(t.ctx)
	t.tools = append(t.tools, t.s.subRecipeInfos()...)
	if t.s.final != nil {
		t.tools = append(t.tools, finalOutputToolInfo(t.s.final))
	}
	t.toolIndex = make(map[string]extension.Tool, len(t.tools))
	for _, tool := range t.tools {
		t.toolIndex[tool.Name] = tool
	}
	t.system = t.a.systemPrompt(t.ctx, t.s, t.mode, t.wd)
	if !first {
		if err := t.a.saveSessionState(context.WithoutCancel(t.ctx), t.s); err != nil {
			t.a.log.Warn("saving extension state failed", "session", t.s.id, "error", err)
		}
	}
}

func (t *turn) providerTools() []provider.Tool {
	out := make([]provider.Tool, len(t.tools))
	for i, tool := range t.tools {
		out[i] = tool.ProviderTool()
	}
	return out
}

// request builds the provider request: the repaired agent-visible
// conversation (its <turn-context> blocks stored in it).
func (t *turn) request() provider.Request {
	msgs := conversation.Conversation(t.conv).AgentVisible()
	msgs, issues := conversation.Fix(msgs)
	if len(issues) > 0 {
		t.a.log.Debug("conversation repaired", "session", t.s.id, "issues", issues)
	}
	return provider.Request{System: t.system, Messages: msgs, Tools: t.providerTools()}
}

// stream runs one provider call, emitting chunks as they arrive. It
// returns the merged reply messages (also on error: the partial reply).
func (t *turn) stream() ([]conversation.Message, error) {
	var reply conversation.Conversation
	streamID := ""
	timing := callTiming{start: t.a.now()}
	var usage *conversation.MessageUsage
	for chunk, err := range t.prov.Stream(t.ctx, t.request()) {
		if err != nil {
			return reply, err
		}
		if chunk.Usage != nil {
			done := timing.done(t.a.now())
			t.recordUsage(*chunk.Usage, streamMessageID(reply, streamID), done)
			usage = messageUsage(*chunk.Usage, done)
		}
		if chunk.Message == nil {
			continue
		}
		timing.first(t.a.now())
		m := *chunk.Message
		if m.ID == nil {
			if streamID == "" {
				streamID = t.a.msgID()
			}
			m = m.WithID(streamID)
		}
		reply.Push(m)
		if shown := t.withoutFrontendRequests(m); len(shown.Content) > 0 {
			t.emit(MessageEvent{Message: shown})
		}
	}
	if err := t.ctx.Err(); err != nil {
		return reply, err
	}
	// The reply keeps its call's usage (goose's metadata.usage), so a
	// reopened chat shows it per reply.
	if usage != nil && len(reply) > 0 {
		reply[len(reply)-1].Metadata.Usage = usage
	}
	return reply, nil
}

// messageUsage is a provider call's usage as stored on its reply.
func messageUsage(u provider.ProviderUsage, timing callTiming) *conversation.MessageUsage {
	mu := &conversation.MessageUsage{InputTokens: u.Usage.InputTokens, OutputTokens: u.Usage.OutputTokens, TotalTokens: u.Usage.TotalTokens}
	if timing.elapsed > 0 {
		ms := timing.elapsed.Milliseconds()
		mu.ElapsedMs = &ms
	}
	if timing.ttft > 0 {
		ms := timing.ttft.Milliseconds()
		mu.TimeToFirstTokenMs = &ms
	}
	return mu
}

// withoutFrontendRequests drops frontend tool requests from a streamed
// chunk: the client sees them as frontendToolRequest instead.
func (t *turn) withoutFrontendRequests(m conversation.Message) conversation.Message {
	keep := m.Content[:0:0]
	for _, c := range m.Content {
		if c.ToolRequest != nil && c.ToolRequest.ToolCall.IsOK() && t.frontend(c.ToolRequest.ToolCall.Value.Name) {
			continue
		}
		keep = append(keep, c)
	}
	if len(keep) == len(m.Content) {
		return m
	}
	m.Content = keep
	return m
}

// recordUsage updates the session counters as goose does: current =
// the latest call, accumulated = running sums, and one usage_ledger row
// per provider call.
func (t *turn) recordUsage(u provider.ProviderUsage, messageID string, timing callTiming) {
	t.modelChange(u)
	s := t.s
	s.mu.Lock()
	tok := s.tokens
	tok.Total, tok.Input, tok.Output = u.Usage.TotalTokens, u.Usage.InputTokens, u.Usage.OutputTokens
	tok.AccumulatedTotal = addInt(tok.AccumulatedTotal, u.Usage.TotalTokens)
	tok.AccumulatedInput = addInt(tok.AccumulatedInput, u.Usage.InputTokens)
	tok.AccumulatedOutput = addInt(tok.AccumulatedOutput, u.Usage.OutputTokens)
	s.tokens = tok
	limit := s.model.Limit()
	s.mu.Unlock()
	ledger := &session.UsageRecord{Model: u.Model, Input: u.Usage.InputTokens, Output: u.Usage.OutputTokens, Total: u.Usage.TotalTokens}
	if err := t.a.opts.Store.Update(context.WithoutCancel(t.ctx), s.id, session.Update{Tokens: &tok, Usage: ledger}); err != nil {
		t.a.log.Warn("saving token counts failed", "session", s.id, "error", err)
	}
	total := 0
	if tok.Total != nil {
		total = *tok.Total
	}
	t.emit(UsageEvent{Usage: u, TotalTokens: total, ContextLimit: limit, Accumulated: tok, MessageID: messageID,
		Elapsed: timing.elapsed, TimeToFirstToken: timing.ttft})
}

func addInt(a, b *int) *int {
	switch {
	case b == nil:
		return a
	case a == nil:
		v := *b
		return &v
	}
	v := *a + *b
	return &v
}
