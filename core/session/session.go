package session

import (
	"encoding/json"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
)

// Type is goose's session_type.
type Type string

const (
	TypeUser      Type = "user"
	TypeScheduled Type = "scheduled"
	TypeSubAgent  Type = "sub_agent"
	TypeHidden    Type = "hidden"
	TypeTerminal  Type = "terminal"
	TypeGateway   Type = "gateway"
	TypeACP       Type = "acp"
)

// Session is goose's Session JSON (snake_case, no renames). Conversation is
// filled only by Get with messages, /agent/resume and export.
type Session struct {
	ID                      string                 `json:"id"`
	WorkingDir              string                 `json:"working_dir"`
	Name                    string                 `json:"name"`
	UserSetName             bool                   `json:"user_set_name"`
	SessionType             Type                   `json:"session_type"`
	CreatedAt               time.Time              `json:"created_at"`
	UpdatedAt               time.Time              `json:"updated_at"`
	ExtensionData           ExtensionData          `json:"extension_data"`
	TotalTokens             *int                   `json:"total_tokens"`
	InputTokens             *int                   `json:"input_tokens"`
	OutputTokens            *int                   `json:"output_tokens"`
	AccumulatedTotalTokens  *int                   `json:"accumulated_total_tokens"`
	AccumulatedInputTokens  *int                   `json:"accumulated_input_tokens"`
	AccumulatedOutputTokens *int                   `json:"accumulated_output_tokens"`
	ScheduleID              *string                `json:"schedule_id"`
	Recipe                  json.RawMessage        `json:"recipe"`
	UserRecipeValues        map[string]string      `json:"user_recipe_values"`
	Conversation            []conversation.Message `json:"conversation"`
	// MessageCount counts the user-visible messages, as goose 1.54 does.
	MessageCount int           `json:"message_count"`
	ProviderName *string       `json:"provider_name"`
	ModelConfig  *model.Config `json:"model_config"`
	GooseMode    string        `json:"goose_mode"`
	// ThreadID is goosed 1.33's thread_id (schema v10); a sessions.db
	// created at v17 has no such column and reads it as null.
	ThreadID *string `json:"thread_id"`

	// The fields below come from schema v12..v17 (goose 1.54). goosed 1.33's
	// Session JSON has none of them, so they are omitted while unset and
	// the REST face keeps its shape.

	// CacheReadTokens and CacheWriteTokens are the latest call's prompt-cache
	// counts (v14); the Accumulated forms are their running sums.
	CacheReadTokens             *int `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens            *int `json:"cache_write_tokens,omitempty"`
	AccumulatedCacheReadTokens  *int `json:"accumulated_cache_read_tokens,omitempty"`
	AccumulatedCacheWriteTokens *int `json:"accumulated_cache_write_tokens,omitempty"`
	// AccumulatedCost is the session's running cost in dollars (v13).
	AccumulatedCost *float64 `json:"accumulated_cost,omitempty"`
	// LastMessageAt is not a column: the newest message's created time
	// (milliseconds read as seconds), nil without messages.
	LastMessageAt *time.Time `json:"last_message_at,omitempty"`
	// LastMessageSnippet is not a column: the newest user-visible message
	// text as one line of at most 128 characters (filled by a List asked
	// for Snippets).
	LastMessageSnippet string `json:"-"`
	// ArchivedAt is when the session was archived (v12); nil if it is not.
	ArchivedAt *time.Time `json:"archived_at,omitempty"`
	// ProjectID groups sessions under a Desktop project (v12).
	ProjectID *string `json:"project_id,omitempty"`
	// ParentSessionID is the delegating session of a sub_agent (v15).
	ParentSessionID *string `json:"parent_session_id,omitempty"`
}

// ExtensionData maps "<extension>.<version>" keys (e.g. "todo.v0",
// "enabled_extensions.v0") to that extension's JSON state.
type ExtensionData map[string]json.RawMessage

// TokenCounts are the session's usage counters; nil leaves a counter as is.
type TokenCounts struct {
	Total, Input, Output                                  *int
	AccumulatedTotal, AccumulatedInput, AccumulatedOutput *int
	// Prompt-cache counters (schema v14).
	CacheRead, CacheWrite                       *int
	AccumulatedCacheRead, AccumulatedCacheWrite *int
}

// CostSource says where a usage record's cost came from (usage_ledger's
// cost_source).
type CostSource string

const (
	CostProviderReported CostSource = "provider_reported"
	CostEstimated        CostSource = "estimated"
)

// UsageRecord is one provider call's usage: a usage_ledger row (v15).
type UsageRecord struct {
	Model                 string
	Input, Output, Total  *int
	CacheRead, CacheWrite *int
	Cost                  *float64
	CostSource            CostSource
	// IsCompaction marks a compaction (summary) call.
	IsCompaction bool
}

// Update is a partial update of a session's metadata; nil fields are left
// unchanged.
type Update struct {
	Name             *string
	UserSetName      *bool
	WorkingDir       *string
	SessionType      *Type
	ProviderName     *string
	ModelConfig      *model.Config
	GooseMode        *string
	Tokens           *TokenCounts
	ScheduleID       *string
	Recipe           json.RawMessage
	UserRecipeValues map[string]string
	// ExtensionData replaces the whole map when non-nil.
	ExtensionData ExtensionData
	// AccumulatedCost sets accumulated_cost.
	AccumulatedCost *float64
	// ArchivedAt archives the session at that time; a zero time unarchives.
	ArchivedAt *time.Time
	// ProjectID sets project_id; "" clears it.
	ProjectID *string
	// ParentSessionID sets parent_session_id; "" clears it.
	ParentSessionID *string
	// Usage, when set, appends one usage_ledger row in the same
	// transaction, as goose's record_usage_metrics does per provider call
	// (first carrying forward accumulated usage the ledger does not hold
	// yet). It changes no sessions column by itself.
	Usage *UsageRecord
}

// NewSession is what Create needs. GooseMode (empty: goose's "auto"),
// ProviderName and ModelConfig are stored with the new row, in the same
// write: an agent that has chosen them before it creates the session
// needs no second write.
type NewSession struct {
	WorkingDir   string
	Name         string
	SessionType  Type
	GooseMode    string
	ProviderName *string
	ModelConfig  *model.Config
}

// ListOptions filters and pages List. Types defaults to user+scheduled, as
// goose's list does. Cursor is an opaque value from a previous page.
type ListOptions struct {
	Types  []Type
	Limit  int
	Cursor string
	// WorkingDir, when set, keeps only sessions with that working dir.
	WorkingDir string
	// Query keeps the sessions whose name or message text contains any of
	// its words, case-insensitively (goose's keyword filter, which also
	// matches names here); blank is no filter.
	Query string
	// Archived says whether archived sessions are listed.
	Archived ArchiveFilter
	// Snippets fills each listed session's LastMessageSnippet.
	Snippets bool
}

// ArchiveFilter chooses sessions by their archive state.
type ArchiveFilter int

const (
	// ArchivedIncluded lists archived sessions with the others.
	ArchivedIncluded ArchiveFilter = iota
	// ArchivedHidden leaves archived sessions out.
	ArchivedHidden
	// ArchivedOnly lists only archived sessions.
	ArchivedOnly
)

// Page is one page of sessions; NextCursor is empty on the last page.
type Page struct {
	Sessions   []Session
	NextCursor string
}

// SearchHit is a session whose messages matched a text search.
type SearchHit struct {
	Session Session
	// Snippets are the matching message texts, shortest context first.
	Snippets []string
}

// Insights are goose's SessionInsights.
type Insights struct {
	TotalSessions int `json:"totalSessions"`
	TotalTokens   int `json:"totalTokens"`
}
