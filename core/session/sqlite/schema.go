package sqlite

// SchemaVersion is goose's CURRENT_SCHEMA_VERSION this store writes (goose
// 1.54, session_manager.rs at 017176d).
const SchemaVersion = 17

// idFloorTable is goose-acp's one table of its own in sessions.db: per day,
// the highest session number deleted, so a deleted id is never handed out
// again (goose computes MAX+1 over the remaining rows and so reuses the
// newest id after a delete, goose#11654). goose ignores tables it does not
// know, and it is created with IF NOT EXISTS on every open, beside goose's
// schema rather than in a migration, so the schema version stays goose's.
const idFloorTable = "goose_acp_session_id_floor"

const idFloorDDL = `CREATE TABLE IF NOT EXISTS ` + idFloorTable + ` (
    day TEXT PRIMARY KEY,
    last INTEGER NOT NULL
)`

// schemaVersionDDL and freshVersionRow open goose's create_schema: the
// version table, then its one row, before any other table.
const schemaVersionDDL = `CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
)`

// freshSchema is the rest of goose's v17 create_schema, in the order goose
// runs it. SQLite keeps each statement's text in sqlite_master, so the text
// is goose's own. v17 no longer creates sessions.thread_id, threads or
// thread_messages (migration 10 still adds them to older files).
var freshSchema = []string{
	`CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cache_read_tokens INTEGER,
    cache_write_tokens INTEGER,
    accumulated_total_tokens INTEGER,
    accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER,
    accumulated_cache_read_tokens INTEGER,
    accumulated_cache_write_tokens INTEGER,
    accumulated_cost REAL,
    schedule_id TEXT,
    recipe_json TEXT,
    user_recipe_values_json TEXT,
    provider_name TEXT,
    model_config_json TEXT,
    goose_mode TEXT NOT NULL DEFAULT 'auto',
    archived_at TIMESTAMP,
    project_id TEXT,
    parent_session_id TEXT,
    parent_delegation TEXT
)`,
	`CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT
)`,
	usageLedgerDDL,
	`CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id)`,
	`CREATE INDEX IF NOT EXISTS idx_messages_timestamp ON messages(timestamp)`,
	`CREATE INDEX IF NOT EXISTS idx_messages_message_id ON messages(message_id)`,
	messagesSessionCreatedIndex,
	`CREATE INDEX IF NOT EXISTS idx_sessions_updated ON sessions(updated_at DESC)`,
	`CREATE INDEX IF NOT EXISTS idx_sessions_type ON sessions(session_type)`,
	sessionsParentIndex,
	usageLedgerIndex,
	ifNotExists(inventoryEntriesDDL),
	ifNotExists(inventoryModelsDDL),
	ifNotExists(inventoryIndexDDL),
}

// usageLedgerDDL is the per-provider-call usage and cost ledger (v15).
const usageLedgerDDL = `CREATE TABLE IF NOT EXISTS usage_ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    created_timestamp INTEGER NOT NULL,
    model TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    total_tokens INTEGER,
    cache_read_tokens INTEGER,
    cache_write_tokens INTEGER,
    cost REAL,
    cost_source TEXT,
    is_compaction INTEGER DEFAULT 0
)`

const (
	usageLedgerIndex            = `CREATE INDEX IF NOT EXISTS idx_usage_ledger_session ON usage_ledger(session_id)`
	sessionsParentIndex         = `CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id)`
	messagesSessionCreatedIndex = `CREATE INDEX IF NOT EXISTS idx_messages_session_created ON messages(session_id, created_timestamp, id)`
)

// threadsDDL and threadMessagesDDL are migration 10's tables (schema
// v10..v11 also created them fresh).
const threadsDDL = `CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT 'New Chat',
    user_set_name BOOLEAN DEFAULT FALSE,
    working_dir TEXT,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    archived_at TIMESTAMP,
    metadata_json TEXT DEFAULT '{}'
)`

const threadMessagesDDL = `CREATE TABLE thread_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id TEXT NOT NULL REFERENCES threads(id),
    session_id TEXT,
    message_id TEXT,
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    metadata_json TEXT DEFAULT '{}'
)`

// The provider inventory tables come from goose's
// providers/inventory/mod.rs (migration 11).
const inventoryEntriesDDL = `CREATE TABLE provider_inventory_entries (
    inventory_key TEXT PRIMARY KEY,
    provider_id TEXT NOT NULL,
    provider_family TEXT NOT NULL,
    last_updated_at TEXT,
    last_refresh_attempt_at TEXT,
    last_refresh_error TEXT,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP
)`

const inventoryModelsDDL = `CREATE TABLE provider_inventory_models (
    inventory_key TEXT NOT NULL REFERENCES provider_inventory_entries(inventory_key) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    model_id TEXT NOT NULL,
    name TEXT NOT NULL,
    family TEXT,
    context_limit INTEGER,
    reasoning BOOLEAN,
    recommended BOOLEAN,
    PRIMARY KEY (inventory_key, ordinal)
)`

const inventoryIndexDDL = `CREATE INDEX idx_provider_inventory_provider_id ON provider_inventory_entries(provider_id)`
