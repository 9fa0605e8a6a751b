package schedule

import (
	"context"
	"fmt"
	"sort"

	"github.com/goose-acp/goose-acp/core/session"
)

// SessionName is the name goose gives a scheduled run's session.
func SessionName(jobID string) string { return "Scheduled job: " + jobID }

// Lister lists sessions (session.Store fits).
type Lister interface {
	List(ctx context.Context, opts session.ListOptions) (session.Page, error)
}

// Sessions returns up to limit sessions created by the job (schedule_id ==
// jobID), newest first, as goose's Scheduler::sessions does.
func Sessions(ctx context.Context, store Lister, jobID string, limit int) ([]session.Session, error) {
	var out []session.Session
	opts := session.ListOptions{Types: []session.Type{session.TypeScheduled, session.TypeUser}, Limit: 200}
	for {
		page, err := store.List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("Storage error: %w", err)
		}
		for _, s := range page.Sessions {
			if s.ScheduleID != nil && *s.ScheduleID == jobID {
				out = append(out, s)
			}
		}
		if page.NextCursor == "" {
			break
		}
		opts.Cursor = page.NextCursor
	}
	sort.SliceStable(out, func(i, k int) bool { return out[i].CreatedAt.After(out[k].CreatedAt) })
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
