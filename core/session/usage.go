package session

import "context"

// UsageTotals are goose's SessionUsageTotals: the accumulated usage and
// cost of a session and every subagent below it (parent_session_id tree).
// Each session counts the larger of its accumulated columns and its ledger
// sums, so spend recorded before the ledger existed is not lost. Cost is
// nil when no session in the tree has one.
type UsageTotals struct {
	Input, Output, Total  int
	CacheRead, CacheWrite int
	Cost                  *float64
}

// UsageTotaler is a Store that keeps goose's usage ledger (both stores here
// do).
type UsageTotaler interface {
	// UsageTotals sums the session's subagent tree; an unknown id gives
	// ErrNotFound.
	UsageTotals(ctx context.Context, id string) (UsageTotals, error)
}

// SessionUsage is one tree member's accumulated columns and ledger sums.
type SessionUsage struct {
	Accumulated, Ledger [5]int // input, output, total, cache read, cache write
	AccumulatedCost     *float64
	LedgerCost          *float64
}

// SumUsage combines a tree's members as goose's get_session_usage_totals.
func SumUsage(members []SessionUsage) UsageTotals {
	var sums [5]int
	var out UsageTotals
	for _, m := range members {
		for i := range sums {
			sums[i] += max(m.Accumulated[i], m.Ledger[i])
		}
		if m.AccumulatedCost != nil || m.LedgerCost != nil {
			c := max(deref(m.AccumulatedCost), deref(m.LedgerCost))
			if out.Cost == nil {
				out.Cost = new(float64)
			}
			*out.Cost += c
		}
	}
	out.Input, out.Output, out.Total, out.CacheRead, out.CacheWrite = sums[0], sums[1], sums[2], sums[3], sums[4]
	return out
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
