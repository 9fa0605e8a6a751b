package sqlite

import "context"

// Warm prepares, on the store's connection, the statements a new
// session's first turn runs (warmSQL), one at a time, until they are all
// prepared or stop reports true (asked before each). goose-acp's editor
// process warms the store it opened at start (earlystore) while the rest
// of the binary initialises, and stops as soon as the editor's first
// request wants the store.
//
// SQLite parses and plans a statement once per connection: warmed, a first
// turn only runs them. It then touches SQLite's executor, not its parser
// and code generator, after the process has given its start-up pages back
// (internal/startpages), and spends that CPU before the editor's prompt
// instead of inside it.
func (s *Store) Warm(ctx context.Context, stop func() bool) {
	for _, q := range s.warmSQL() {
		if stop() {
			return
		}
		if err := s.stmts.prepareNow(ctx, q); err != nil {
			return // the statement reports it when it runs
		}
	}
}

// warmSQL is what a new session's first turn runs after Create (whose
// INSERT Open prepares), in that order: the agent reads the session row
// and saves the session's extensions, provider, model and mode; each
// message touches the session and is inserted; the session gets its name;
// the provider call's usage goes to the ledger (the session checked, the
// ledger carried forward, the row) and to the session's token counts.
func (s *Store) warmSQL() []string {
	return []string{
		s.rowSQL(false),
		updateSQL("extension_data", "provider_name", "model_config_json", "goose_mode"),
		touchSQL,
		insertMessageSQL,
		updateSQL("name"),
		requireSessionSQL,
		carryForwardSQL,
		insertUsageSQL,
		updateSQL("total_tokens", "input_tokens", "output_tokens",
			"accumulated_total_tokens", "accumulated_input_tokens", "accumulated_output_tokens"),
	}
}
