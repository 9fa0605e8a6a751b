package sqlite

// Warm has the statements a new session's first turn runs (warmSQL)
// prepared in the background, and returns a channel closed once they are
// (or the store closed). They are prepared one at a time on an idle
// connection, holding the store's write slot, as any statement due for
// preparation (stmtcache.go): a write meanwhile waits for one statement,
// and no connection is opened for them. goose-acp's editor process warms
// the store it opens at start (earlystore) and releases its start-up
// pages after (cmd/goose-acp).
//
// SQLite parses and plans a statement once per connection: warmed, a first
// turn only runs them. It then touches SQLite's executor, not its parser
// and code generator, after the process has given its start-up pages back
// (internal/startpages), and spends that CPU before the editor's prompt
// instead of inside it.
func (s *Store) Warm() <-chan struct{} {
	return s.stmts.queue(s.warmSQL())
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
