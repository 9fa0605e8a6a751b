package acp

import (
	"context"
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// Goose's own session notifications (_goose/unstable/session/update),
// sent only to clients whose initialize set
// _meta.goose.customNotifications (Goose Desktop does): usage_update
// drives Desktop's context meter, message_usage its per-reply usage,
// status_message shows live status (the notices goose-acp gives: provider
// retries, extensions that failed to start) and is never history.

// GooseSessionUpdateMethod is the notification's method.
const GooseSessionUpdateMethod = "_goose/unstable/session/update"

// gooseCapability reads a boolean of the client's _meta.goose.
func (s *Server) gooseCapability(name string) bool { return gooseCapability(s.clientCaps(), name) }

func gooseCapability(c ClientCapabilities, name string) bool {
	goose, _ := c.Meta["goose"].(map[string]any)
	on, _ := goose[name].(bool)
	return on
}

// custom: the client takes goose's own session notifications.
func (n *notifier) custom() bool { return gooseCapability(n.caps(), "customNotifications") }

type gooseSessionNotification struct {
	SessionID string `json:"sessionId"`
	Update    any    `json:"update"`
}

type gooseUsageUpdate struct {
	SessionUpdate           string   `json:"sessionUpdate"`
	Used                    int      `json:"used"`
	ContextLimit            int      `json:"contextLimit"`
	AccumulatedInputTokens  int      `json:"accumulatedInputTokens"`
	AccumulatedOutputTokens int      `json:"accumulatedOutputTokens"`
	AccumulatedCost         *float64 `json:"accumulatedCost,omitempty"`
}

type gooseMessageUsage struct {
	SessionUpdate string           `json:"sessionUpdate"`
	MessageID     *string          `json:"messageId"`
	Usage         messageUsageData `json:"usage"`
}

type messageUsageData struct {
	InputTokens        *int   `json:"inputTokens"`
	OutputTokens       *int   `json:"outputTokens"`
	TotalTokens        *int   `json:"totalTokens"`
	ElapsedMs          *int64 `json:"elapsedMs,omitempty"`
	TimeToFirstTokenMs *int64 `json:"timeToFirstTokenMs,omitempty"`
	IsCompaction       bool   `json:"isCompaction"`
}

// gooseUsage sends one provider call's usage as Desktop reads it.
func (n *notifier) gooseUsage(ctx context.Context, sessionID string, e agent.UsageEvent) {
	if !n.custom() {
		return
	}
	deref := func(p *int) int {
		if p == nil || *p < 0 {
			return 0
		}
		return *p
	}
	n.gooseNotify(ctx, sessionID, gooseUsageUpdate{SessionUpdate: "usage_update", Used: max(e.TotalTokens, 0),
		ContextLimit: max(e.ContextLimit, 0), AccumulatedInputTokens: deref(e.Accumulated.AccumulatedInput),
		AccumulatedOutputTokens: deref(e.Accumulated.AccumulatedOutput)})
	mu := gooseMessageUsage{SessionUpdate: "message_usage", Usage: messageUsageData{InputTokens: e.Usage.Usage.InputTokens,
		OutputTokens: e.Usage.Usage.OutputTokens, TotalTokens: e.Usage.Usage.TotalTokens}}
	if e.MessageID != "" {
		id := e.MessageID
		mu.MessageID = &id
	}
	if e.Elapsed > 0 {
		ms := e.Elapsed.Milliseconds()
		mu.Usage.ElapsedMs = &ms
	}
	if e.TimeToFirstToken > 0 {
		ms := e.TimeToFirstToken.Milliseconds()
		mu.Usage.TimeToFirstTokenMs = &ms
	}
	n.gooseNotify(ctx, sessionID, mu)
}

func (n *notifier) gooseNotify(ctx context.Context, sessionID string, update any) {
	if err := n.send(ctx, GooseSessionUpdateMethod, gooseSessionNotification{SessionID: sessionID, Update: update}); err != nil {
		n.log.Debug("goose session update not sent", "session", sessionID, "err", err)
	}
}

type gooseStatusUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	Status        struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"status"`
}

// gooseStatus sends a status_message ("notice" or "progress").
func (n *notifier) gooseStatus(ctx context.Context, sessionID, kind, message string) {
	if !n.custom() || message == "" {
		return
	}
	u := gooseStatusUpdate{SessionUpdate: "status_message"}
	u.Status.Type, u.Status.Message = kind, message
	n.gooseNotify(ctx, sessionID, u)
}

// gooseSessionUsage sends a session's stored usage as goose does right
// after session/new and session/load, so Desktop's token meter is filled
// before the first reply (and after a reconnect).
func (n *notifier) gooseSessionUsage(ctx context.Context, sess *session.Session) {
	if !n.custom() {
		return
	}
	deref := func(p *int) int {
		if p == nil || *p < 0 {
			return 0
		}
		return *p
	}
	n.gooseNotify(ctx, sess.ID, gooseUsageUpdate{SessionUpdate: "usage_update", Used: deref(sess.TotalTokens),
		ContextLimit: contextSize(sess), AccumulatedInputTokens: deref(sess.AccumulatedInputTokens),
		AccumulatedOutputTokens: deref(sess.AccumulatedOutputTokens), AccumulatedCost: sess.AccumulatedCost})
}

// messageUsageFrame is a replayed reply's stored usage as goose sends it on
// session/load: message_usage after the message's frames (written in the
// same buffered stream), so Desktop shows per-reply usage in a reopened
// chat; false for a message without usage.
func messageUsageFrame(sessionID string, m conversation.Message) ([]byte, bool) {
	u := m.Metadata.Usage
	if u == nil {
		return nil, false
	}
	mu := gooseMessageUsage{SessionUpdate: "message_usage", Usage: messageUsageData{InputTokens: u.InputTokens,
		OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens, ElapsedMs: u.ElapsedMs, TimeToFirstTokenMs: u.TimeToFirstTokenMs,
		IsCompaction: u.IsCompaction}}
	if id := m.IDOrEmpty(); id != "" {
		mu.MessageID = &id
	}
	frame, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": GooseSessionUpdateMethod,
		"params": gooseSessionNotification{SessionID: sessionID, Update: mu}})
	return frame, err == nil
}
