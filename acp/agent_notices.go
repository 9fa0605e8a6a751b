package acp

import (
	"context"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// What core tells the user beside the conversation — project plugins
// waiting for consent, SessionStart banners, hooks that failed, a Stop
// hook that blocked — reaches clients that opted in to notices as
// notices, and others as a line of the agent's message.

// startNotices sends the notices of a session's start (agent.StartNotices
// waits for its SessionStart hooks).
func (s *Server) startNotices(ctx context.Context, sessionID string) {
	notes, err := s.opts.Agent.StartNotices(ctx, sessionID)
	if err != nil {
		s.log.Debug("no start notices", "session", sessionID, "err", err)
		return
	}
	for _, n := range notes {
		s.userNotice(ctx, sessionID, n.Severity, n.Title, n.Detail, n.Text())
	}
}

// inlineNotices sends a turn's inline system notifications (goose's
// InlineMessage: a Stop hook that blocked, a hook that failed).
func (s *Server) inlineNotices(ctx context.Context, sessionID string, m conversation.Message) {
	for _, c := range m.Content {
		if n := c.SystemNotification; n != nil && n.NotificationType == conversation.NotificationInline {
			s.userNotice(ctx, sessionID, NoticeWarning, n.Msg, "", n.Msg)
		}
	}
}

// userNotice is a notice, or for a client without notices a line of the
// agent's message.
func (s *Server) userNotice(ctx context.Context, sessionID, severity, title, detail, line string) {
	if s.wantsNotices() {
		s.sendNotice(ctx, sessionID, severity, title, detail)
		return
	}
	s.gooseStatus(ctx, sessionID, "notice", title)
	s.notify(ctx, sessionID, chunk(UpdateAgentMessageChunk, "", textBlock("\n"+line+"\n\n")))
}
