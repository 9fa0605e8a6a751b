package acp

import (
	"context"
	"sync"

	"github.com/goose-acp/goose-acp/core/session"
)

// Cost is usage_update's cost: the session's accumulated spend.
type Cost struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency"`
}

// usageState is the last usage_update sent for a session, so the closing
// one of a turn is not a copy of the one the last model call just sent.
type usageState struct {
	mu   sync.Mutex
	sent bool
	last usageFrame
}

type usageFrame struct {
	used, size int
	cost       float64
	hasCost    bool
}

// reset starts a turn: its closing usage_update is compared only with
// the frames of the same turn, so every prompt result gets one.
func (u *usageState) reset() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.sent = false
}

// next records f and reports whether it differs from the last frame. A
// frame from a model call (which knows no cost) keeps the last known cost.
func (u *usageState) next(f usageFrame) (usageFrame, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !f.hasCost && u.last.hasCost {
		f.cost, f.hasCost = u.last.cost, true
	}
	if u.sent && u.last == f {
		return f, false
	}
	u.sent, u.last = true, f
	return f, true
}

// sendUsageFrame sends a usage_update unless it repeats the last one.
// goose keeps accumulated cost in USD (its pricing tables are in USD);
// cost is sent only when the session has one.
func (n *notifier) sendUsageFrame(ctx context.Context, as *acpSession, f usageFrame) {
	f, changed := as.usage.next(f)
	if !changed {
		return
	}
	used, size := f.used, f.size
	u := SessionUpdate{SessionUpdate: UpdateUsage, Used: &used, Size: &size}
	if f.hasCost {
		u.Cost = &Cost{Amount: f.cost, Currency: "USD"}
	}
	n.notify(ctx, as.id, u)
}

// sendUsage sends the session's stored usage: its context use, the
// model's context size and its accumulated cost when known.
func (n *notifier) sendUsage(ctx context.Context, as *acpSession, sess *session.Session) {
	f := usageFrame{size: contextSize(sess)}
	if sess.TotalTokens != nil {
		f.used = *sess.TotalTokens
	}
	if sess.AccumulatedCost != nil {
		f.cost, f.hasCost = *sess.AccumulatedCost, true
	}
	n.sendUsageFrame(ctx, as, f)
}
