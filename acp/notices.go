package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// ClientSessionCapabilities are the client's session/* opt-ins
// (clientCapabilities.session): {} advertises compaction_update and notice
// updates; absent or null means the client does not understand them.
type ClientSessionCapabilities struct {
	Compaction *json.RawMessage `json:"compaction,omitempty"`
	Notices    *json.RawMessage `json:"notices,omitempty"`
}

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

func (s *Server) wantsNotices() bool {
	return s.clientCaps().Session != nil && isObject(s.clientCaps().Session.Notices)
}

func (s *Server) wantsCompaction() bool {
	return s.clientCaps().Session != nil && isObject(s.clientCaps().Session.Compaction)
}

func isObject(raw *json.RawMessage) bool {
	return raw != nil && len(*raw) > 0 && (*raw)[0] == '{'
}

// sendNotice tells a client that opted in about a recoverable problem
// (an extension that did not start); others only get the log line.
func (s *Server) sendNotice(ctx context.Context, sessionID, severity, title, description string) {
	s.gooseStatus(ctx, sessionID, "notice", title)
	if !s.wantsNotices() {
		return
	}
	u := SessionUpdate{SessionUpdate: UpdateNotice, Severity: severity, Title: &title}
	if description != "" {
		u.Description = &description
	}
	s.notify(ctx, sessionID, u)
}

// retryNotices makes a turn's provider retries a warning notice.
func (s *Server) retryNotices(ctx context.Context, as *acpSession) context.Context {
	if !s.wantsNotices() && !s.gooseCapability("customNotifications") {
		return ctx
	}
	return provider.WithRetryObserver(ctx, func(n provider.RetryNotice) {
		title := fmt.Sprintf("%s is rate limited; retrying in %s (attempt %d of %d)", n.Provider, n.Delay.Round(time.Second), n.Attempt, n.Max)
		s.sendNotice(context.WithoutCancel(ctx), as.id, NoticeWarning, title, n.Err.Error())
	})
}

// extensionNotices sends a warning notice per extension that failed to
// start.
func (s *Server) extensionNotices(ctx context.Context, sessionID string, results []extensionResult) {
	for _, r := range results {
		if !r.Success {
			s.sendNotice(ctx, sessionID, NoticeWarning, fmt.Sprintf("Extension %s failed to start", r.Name), r.Error)
		}
	}
}

// runningCompactions maps an *acpSession to the id of the compaction its
// turn is running; an entry lives only from the compaction's start to its
// end (at the latest, the end of the turn).
var (
	runningCompactions sync.Map
	compactionSeq      atomic.Uint64
)

// trackCompaction starts a compaction_update when goose announces it is
// compacting (its "goose is compacting the conversation..." thinking
// notification), for clients that opted in.
func (s *Server) trackCompaction(ctx context.Context, as *acpSession, m conversation.Message) {
	if !s.wantsCompaction() {
		return
	}
	for _, c := range m.Content {
		sn := c.SystemNotification
		if sn == nil || sn.NotificationType != conversation.NotificationThinking || sn.Msg != agent.CompactionThinkingText {
			continue
		}
		id := fmt.Sprintf("compaction-%d", compactionSeq.Add(1))
		runningCompactions.Store(as, id)
		s.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateCompaction, CompactionID: id, Status: CompactionInProgress})
	}
}

// endCompaction closes the running compaction: completed when the history
// was replaced, failed when the turn ended without it.
func (s *Server) endCompaction(ctx context.Context, as *acpSession, status string) {
	v, ok := runningCompactions.LoadAndDelete(as)
	if !ok {
		return
	}
	id := v.(string)
	s.notify(context.WithoutCancel(ctx), as.id, SessionUpdate{SessionUpdate: UpdateCompaction, CompactionID: id, Status: status})
}
