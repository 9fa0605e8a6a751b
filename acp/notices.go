package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"log/slog"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
)

// Notice severities.
const (
	NoticeInfo    = "info"
	NoticeWarning = "warning"
	NoticeError   = "error"
)

// Compaction statuses of compaction_update.
const (
	CompactionInProgress = "in_progress"
	CompactionCompleted  = "completed"
	CompactionFailed     = "failed"
)

// notifier sends what a client opted in to beside the standard updates:
// notices and compaction_update (clientCapabilities.session), usage_update,
// and goose's own session notifications (unstable_session_notify.go) for
// clients whose initialize set _meta.goose.customNotifications.
type notifier struct {
	caps   func() ClientCapabilities
	notify func(ctx context.Context, sessionID string, u SessionUpdate)
	// send sends any other notification to the client.
	send func(ctx context.Context, method string, params any) error
	log  *slog.Logger
	// compactions maps an *acpSession to the id of the compaction its
	// turn is running, from the compaction's start to its end (at the
	// latest, the end of the turn).
	compactions sync.Map
	seq         atomic.Uint64
}

func (n *notifier) wantsNotices() bool {
	c := n.caps()
	return c.Session != nil && isObject(c.Session.Notices)
}

func (n *notifier) wantsCompaction() bool {
	c := n.caps()
	return c.Session != nil && isObject(c.Session.Compaction)
}

func isObject(raw *json.RawMessage) bool {
	return raw != nil && len(*raw) > 0 && (*raw)[0] == '{'
}

// sendNotice tells a client that opted in about a recoverable problem
// (an extension that did not start); others only get the log line.
func (n *notifier) sendNotice(ctx context.Context, sessionID, severity, title, description string) {
	n.gooseStatus(ctx, sessionID, "notice", title)
	if !n.wantsNotices() {
		return
	}
	u := SessionUpdate{SessionUpdate: UpdateNotice, Severity: severity, Title: &title}
	if description != "" {
		u.Description = &description
	}
	n.notify(ctx, sessionID, u)
}

// retryNotice makes a provider retry of the turn a warning notice.
func (n *notifier) retryNotice(ctx context.Context, sessionID string, r agent.ProviderRetryEvent) {
	if !n.wantsNotices() && !n.custom() {
		return
	}
	title := fmt.Sprintf("%s is rate limited; retrying in %s (attempt %d of %d)", r.Provider, r.Delay.Round(time.Second), r.Attempt, r.Max)
	detail := ""
	if r.Err != nil {
		detail = r.Err.Error()
	}
	n.sendNotice(ctx, sessionID, NoticeWarning, title, detail)
}

// extensionNotices sends a warning notice per extension that failed to
// start.
func (n *notifier) extensionNotices(ctx context.Context, sessionID string, results []extensionResult) {
	for _, r := range results {
		if !r.Success {
			n.sendNotice(ctx, sessionID, NoticeWarning, fmt.Sprintf("Extension %s failed to start", r.Name), r.Error)
		}
	}
}

// trackCompaction starts a compaction_update when goose announces it is
// compacting (its "goose is compacting the conversation..." thinking
// notification), for clients that opted in.
func (n *notifier) trackCompaction(ctx context.Context, as *acpSession, m conversation.Message) {
	if !n.wantsCompaction() {
		return
	}
	for _, c := range m.Content {
		sn := c.SystemNotification
		if sn == nil || sn.NotificationType != conversation.NotificationThinking || sn.Msg != agent.CompactionThinkingText {
			continue
		}
		id := fmt.Sprintf("compaction-%d", n.seq.Add(1))
		n.compactions.Store(as, id)
		n.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateCompaction, CompactionID: id, Status: CompactionInProgress})
	}
}

// endCompaction closes the running compaction: completed when the history
// was replaced, failed when the turn ended without it.
func (n *notifier) endCompaction(ctx context.Context, as *acpSession, status string) {
	v, ok := n.compactions.LoadAndDelete(as)
	if !ok {
		return
	}
	id := v.(string)
	n.notify(context.WithoutCancel(ctx), as.id, SessionUpdate{SessionUpdate: UpdateCompaction, CompactionID: id, Status: status})
}
