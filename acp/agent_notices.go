package acp

import (
	"context"
	"log/slog"

	"github.com/goose-acp/goose-acp/core/agent"
)

// What core tells the user beside the conversation — project plugins
// waiting for consent, SessionStart banners, hooks that failed, a Stop
// hook that blocked — reaches clients that opted in to notices as
// notices, and others as a line of the agent's message.

// agentNotices sends them to one connection.
type agentNotices struct {
	plugins agent.PluginService
	notes   *notifier
	log     *slog.Logger
}

// start sends the notices of a session's start (agent.PluginService.StartNotices waits
// for its SessionStart hooks).
func (n agentNotices) start(ctx context.Context, sessionID string) {
	notes, err := n.plugins.StartNotices(ctx, sessionID)
	if err != nil {
		n.log.Debug("no start notices", "session", sessionID, "err", err)
		return
	}
	for _, note := range notes {
		n.send(ctx, sessionID, note.Severity, note.Title, note.Detail, note.Text())
	}
}

// event sends a turn's NoticeEvent.
func (n agentNotices) event(ctx context.Context, sessionID string, e agent.NoticeEvent) {
	n.send(ctx, sessionID, e.Severity, e.Title, e.Detail, e.Text())
}

// send is a notice, or for a client without notices a line of the
// agent's message.
func (n agentNotices) send(ctx context.Context, sessionID, severity, title, detail, line string) {
	notes := n.notes
	if notes.wantsNotices() {
		notes.sendNotice(ctx, sessionID, severity, title, detail)
		return
	}
	notes.gooseStatus(ctx, sessionID, "notice", title)
	notes.notify(ctx, sessionID, chunk(UpdateAgentMessageChunk, "", textBlock("\n"+line+"\n\n")))
}
