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
	MessageCount            int                    `json:"message_count"`
	ProviderName            *string                `json:"provider_name"`
	ModelConfig             *model.Config          `json:"model_config"`
	GooseMode               string                 `json:"goose_mode"`
	ThreadID                *string                `json:"thread_id"`
}

// ExtensionData maps "<extension>.<version>" keys (e.g. "todo.v0",
// "enabled_extensions.v0") to that extension's JSON state.
type ExtensionData map[string]json.RawMessage

// TokenCounts are the session's usage counters; nil leaves a counter as is.
type TokenCounts struct {
	Total, Input, Output                                  *int
	AccumulatedTotal, AccumulatedInput, AccumulatedOutput *int
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
}

// NewSession is what Create needs.
type NewSession struct {
	WorkingDir  string
	Name        string
	SessionType Type
}

// ListOptions filters and pages List. Types defaults to user+scheduled, as
// goose's list does. Cursor is an opaque value from a previous page.
type ListOptions struct {
	Types  []Type
	Limit  int
	Cursor string
	// WorkingDir, when set, keeps only sessions with that working dir.
	WorkingDir string
}

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
