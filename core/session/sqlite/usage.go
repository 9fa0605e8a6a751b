package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/goose-acp/goose-acp/core/session"
)

// carryForwardSQL is goose's record_usage_metrics reconciliation: before
// the first ledger row of a session whose counters predate the ledger
// (spend recorded before v15), one 'carried_forward' row holds what the
// accumulated columns have and the ledger does not. It runs before the
// session's counters change, as in goose.
const carryForwardSQL = `INSERT INTO usage_ledger (
	session_id, created_timestamp,
	input_tokens, output_tokens, total_tokens,
	cache_read_tokens, cache_write_tokens,
	cost, cost_source
)
SELECT s.id, ?1,
	MAX(COALESCE(s.accumulated_input_tokens, 0) - l.input_sum, 0),
	MAX(COALESCE(s.accumulated_output_tokens, 0) - l.output_sum, 0),
	MAX(COALESCE(s.accumulated_total_tokens, 0) - l.total_sum, 0),
	MAX(COALESCE(s.accumulated_cache_read_tokens, 0) - l.cache_read_sum, 0),
	MAX(COALESCE(s.accumulated_cache_write_tokens, 0) - l.cache_write_sum, 0),
	CASE WHEN s.accumulated_cost IS NULL OR s.accumulated_cost <= l.cost_sum THEN NULL
		ELSE s.accumulated_cost - l.cost_sum END,
	'carried_forward'
FROM sessions s,
	(SELECT COALESCE(SUM(input_tokens), 0) AS input_sum,
		COALESCE(SUM(output_tokens), 0) AS output_sum,
		COALESCE(SUM(total_tokens), 0) AS total_sum,
		COALESCE(SUM(cache_read_tokens), 0) AS cache_read_sum,
		COALESCE(SUM(cache_write_tokens), 0) AS cache_write_sum,
		COALESCE(SUM(cost), 0.0) AS cost_sum
	FROM usage_ledger WHERE session_id = ?2) l
WHERE s.id = ?2
	AND (COALESCE(s.accumulated_input_tokens, 0) > l.input_sum
		OR COALESCE(s.accumulated_output_tokens, 0) > l.output_sum
		OR COALESCE(s.accumulated_total_tokens, 0) > l.total_sum
		OR COALESCE(s.accumulated_cost, 0.0) > l.cost_sum + 1e-9)`

// insertUsageSQL is goose's insert_usage_ledger_row.
const insertUsageSQL = `INSERT INTO usage_ledger (
	session_id, created_timestamp, model,
	input_tokens, output_tokens, total_tokens,
	cache_read_tokens, cache_write_tokens,
	cost, cost_source, is_compaction
) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// recordUsage writes one provider call's ledger row (after any carried
// forward row) inside the caller's transaction, before the session's
// counters are updated.
func (s *Store) recordUsage(ctx context.Context, tx dbq, id string, u session.UsageRecord) error {
	now := s.now().Unix()
	if _, err := tx.ExecContext(ctx, carryForwardSQL, now, id); err != nil {
		return fmt.Errorf("usage ledger: %w", err)
	}
	var model, source any
	if u.Model != "" {
		model = u.Model
	}
	if u.CostSource != "" {
		source = string(u.CostSource)
	}
	compaction := 0
	if u.IsCompaction {
		compaction = 1
	}
	_, err := tx.ExecContext(ctx, insertUsageSQL, id, now, model, intArg(u.Input), intArg(u.Output), intArg(u.Total),
		intArg(u.CacheRead), intArg(u.CacheWrite), floatArg(u.Cost), source, compaction)
	if err != nil {
		return fmt.Errorf("usage ledger: %w", err)
	}
	return nil
}

func intArg(p *int) any {
	if p == nil {
		return nil
	}
	return int64(*p)
}

func floatArg(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

var _ session.UsageTotaler = (*Store)(nil)

// usageTreeSQL is goose's get_session_usage_totals query: the session and
// its subagents (recursively), each with its accumulated columns and its
// ledger sums.
const usageTreeSQL = `WITH RECURSIVE tree(id) AS (
	SELECT id FROM sessions WHERE id = ?
	UNION
	SELECT s.id FROM sessions s JOIN tree ON s.parent_session_id = tree.id
)
SELECT
	s.accumulated_input_tokens, s.accumulated_output_tokens, s.accumulated_total_tokens,
	s.accumulated_cache_read_tokens, s.accumulated_cache_write_tokens, s.accumulated_cost,
	SUM(u.input_tokens), SUM(u.output_tokens), SUM(u.total_tokens),
	SUM(u.cache_read_tokens), SUM(u.cache_write_tokens), SUM(u.cost)
FROM sessions s
LEFT JOIN usage_ledger u ON u.session_id = s.id
WHERE s.id IN (SELECT id FROM tree)
GROUP BY s.id`

// UsageTotals sums the usage of a session and its subagent tree.
func (s *Store) UsageTotals(ctx context.Context, id string) (session.UsageTotals, error) {
	rows, err := s.db.QueryContext(ctx, usageTreeSQL, id)
	if err != nil {
		return session.UsageTotals{}, fmt.Errorf("usage totals: %w", err)
	}
	defer rows.Close()
	var members []session.SessionUsage
	for rows.Next() {
		var acc, led [5]sql.NullInt64
		var accCost, ledCost sql.NullFloat64
		dest := []any{&acc[0], &acc[1], &acc[2], &acc[3], &acc[4], &accCost,
			&led[0], &led[1], &led[2], &led[3], &led[4], &ledCost}
		if err := rows.Scan(dest...); err != nil {
			return session.UsageTotals{}, fmt.Errorf("usage totals: %w", err)
		}
		var m session.SessionUsage
		for i := range acc {
			m.Accumulated[i], m.Ledger[i] = int(acc[i].Int64), int(led[i].Int64)
		}
		m.AccumulatedCost, m.LedgerCost = nullFloat(accCost), nullFloat(ledCost)
		members = append(members, m)
	}
	if err := rows.Err(); err != nil {
		return session.UsageTotals{}, fmt.Errorf("usage totals: %w", err)
	}
	if len(members) == 0 {
		return session.UsageTotals{}, fmt.Errorf("usage totals: %w", notFound(id))
	}
	return session.SumUsage(members), nil
}

func nullFloat(v sql.NullFloat64) *float64 {
	if !v.Valid {
		return nil
	}
	return &v.Float64
}
