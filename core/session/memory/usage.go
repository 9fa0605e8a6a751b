package memory

import (
	"context"
	"fmt"

	"github.com/goose-acp/goose-acp/core/session"
)

// carriedForward is the cost_source of goose's reconciliation row.
const carriedForward session.CostSource = "carried_forward"

// ledgerRow is one usage_ledger row.
type ledgerRow struct {
	created int64
	session.UsageRecord
}

// recordUsage appends u to the ledger, first carrying forward what the
// session's accumulated counters hold beyond the ledger's sums, as the
// sessions.db store (and goose's record_usage_metrics) do. Callers hold mu
// and call it before the counters change.
func (rec *record) recordUsage(now int64, u session.UsageRecord) {
	var in, out, total, cr, cw int
	var cost float64
	for _, r := range rec.ledger {
		in, out, total = in+deref(r.Input), out+deref(r.Output), total+deref(r.Total)
		cr, cw = cr+deref(r.CacheRead), cw+deref(r.CacheWrite)
		if r.Cost != nil {
			cost += *r.Cost
		}
	}
	m := rec.meta
	accCost := 0.0
	if m.AccumulatedCost != nil {
		accCost = *m.AccumulatedCost
	}
	if deref(m.AccumulatedInputTokens) > in || deref(m.AccumulatedOutputTokens) > out ||
		deref(m.AccumulatedTotalTokens) > total || accCost > cost+1e-9 {
		cf := session.UsageRecord{
			Input: excess(m.AccumulatedInputTokens, in), Output: excess(m.AccumulatedOutputTokens, out),
			Total: excess(m.AccumulatedTotalTokens, total), CacheRead: excess(m.AccumulatedCacheReadTokens, cr),
			CacheWrite: excess(m.AccumulatedCacheWriteTokens, cw), CostSource: carriedForward,
		}
		if m.AccumulatedCost != nil && accCost > cost {
			v := accCost - cost
			cf.Cost = &v
		}
		rec.ledger = append(rec.ledger, ledgerRow{created: now, UsageRecord: cf})
	}
	rec.ledger = append(rec.ledger, ledgerRow{created: now, UsageRecord: u})
}

func excess(acc *int, sum int) *int {
	v := max(deref(acc)-sum, 0)
	return &v
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

var _ session.UsageTotaler = (*Store)(nil)

// UsageTotals sums the usage of a session and its subagent tree, as the
// sessions.db store does.
func (s *Store) UsageTotals(_ context.Context, id string) (session.UsageTotals, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.sessions[id]; !ok {
		return session.UsageTotals{}, fmt.Errorf("usage totals: %w", notFound(id))
	}
	tree := map[string]bool{id: true}
	for grown := true; grown; { // until no session joins the tree
		grown = false
		for sid, rec := range s.sessions {
			if p := rec.meta.ParentSessionID; !tree[sid] && p != nil && tree[*p] {
				tree[sid], grown = true, true
			}
		}
	}
	var members []session.SessionUsage
	for sid := range tree {
		members = append(members, s.sessions[sid].usage())
	}
	return session.SumUsage(members), nil
}

// usage is the record's accumulated columns and ledger sums.
func (rec *record) usage() session.SessionUsage {
	m := rec.meta
	out := session.SessionUsage{
		Accumulated: [5]int{deref(m.AccumulatedInputTokens), deref(m.AccumulatedOutputTokens),
			deref(m.AccumulatedTotalTokens), deref(m.AccumulatedCacheReadTokens), deref(m.AccumulatedCacheWriteTokens)},
		AccumulatedCost: m.AccumulatedCost,
	}
	for _, r := range rec.ledger {
		for i, v := range []*int{r.Input, r.Output, r.Total, r.CacheRead, r.CacheWrite} {
			out.Ledger[i] += deref(v)
		}
		if r.Cost != nil {
			c := deref64(out.LedgerCost) + *r.Cost
			out.LedgerCost = &c
		}
	}
	return out
}

func deref64(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
