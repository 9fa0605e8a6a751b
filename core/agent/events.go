package agent

import (
	"encoding/json"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
)

// Event is one item of a reply stream (goose's AgentEvent, plus usage and
// title updates the adapters need).
type Event interface{ isEvent() }

// MessageEvent carries a message: streamed assistant chunks (chunks of one
// reply share the message id), tool responses, tool confirmations
// (actionRequired/toolConfirmation), frontend tool requests, elicitations
// and system notifications.
type MessageEvent struct{ Message conversation.Message }

// NotificationEvent is an MCP notification received while the tool call
// RequestID was running (notifications/progress, notifications/message).
type NotificationEvent struct {
	RequestID string
	Extension string
	Method    string
	Params    json.RawMessage
}

// ModelChangeEvent reports a model switch (goose: lead/worker).
type ModelChangeEvent struct{ Model, Mode string }

// HistoryReplacedEvent carries the whole new conversation after compaction
// or /clear.
type HistoryReplacedEvent struct{ Conversation []conversation.Message }

// UsageEvent reports provider usage for one call and the session's
// updated counters (ACP usage_update, goosed token state).
type UsageEvent struct {
	Usage        provider.ProviderUsage
	TotalTokens  int
	ContextLimit int
	// Accumulated are the session's counters after this call.
	Accumulated session.TokenCounts
	// MessageID is the reply message the call produced ("" when the
	// usage came before any of it); Elapsed and TimeToFirstToken time
	// the call (zero when unknown).
	MessageID                 string
	Elapsed, TimeToFirstToken time.Duration
}

// TitleEvent reports a generated session name (ACP session_info_update).
// Naming runs in the background: a name ready while the turn still runs
// arrives as this event; one ready later goes to the session's holders
// (Holder.SessionEvent).
type TitleEvent struct{ Title string }

// ToolProgressEvent is progress an in-process tool reports while it runs
// (it started, shell output, its terminal, an edit's locations and diff).
// During a turn it comes in order with the turn's other events; outside
// one (a face's direct tool call) it goes to the session's holders.
type ToolProgressEvent struct{ extension.ToolProgress }

// ProviderRetryEvent reports that the provider is rate limited and the
// turn sends its request again after Delay (Attempt of Max). It comes
// before the wait, from the turn.
type ProviderRetryEvent struct {
	Provider     string
	Attempt, Max int
	Delay        time.Duration
	Err          error
}

// ElicitationCompleteEvent: the URL-mode elicitation ElicitationID that
// the user was sent to has ended (the server's
// notifications/elicitation/complete); clients close what they showed.
type ElicitationCompleteEvent struct{ ElicitationID string }

// SubagentEvent reports a subagent (summon's delegate) the session's turn
// runs as a child session: Start once the child exists, then Event for
// each of the child's own events, then End with how it stopped. The
// child's requests for the user (approvals, elicitations) also reach the
// turn as they are, right after the SubagentEvent carrying them, so a face
// that does not show subagents answers them as its own turn's.
type SubagentEvent struct {
	// SessionID is the child's; CallID the parent's delegate tool call.
	SessionID, CallID string
	Start             *SubagentStart
	Event             Event
	End               *Outcome
}

// SubagentStart describes a starting subagent: its recipe's title, its
// task (the message it starts from) and its working dir.
type SubagentStart struct{ Title, Task, WorkingDir string }

// ProgressEvent is a transient note for the user about what the turn is
// waiting for (extensions still starting); it is not part of the
// conversation.
type ProgressEvent struct{ Text string }

func (MessageEvent) isEvent()             {}
func (ProgressEvent) isEvent()            {}
func (NotificationEvent) isEvent()        {}
func (ModelChangeEvent) isEvent()         {}
func (HistoryReplacedEvent) isEvent()     {}
func (UsageEvent) isEvent()               {}
func (TitleEvent) isEvent()               {}
func (ProviderRetryEvent) isEvent()       {}
func (ToolProgressEvent) isEvent()        {}
func (ElicitationCompleteEvent) isEvent() {}
func (SubagentEvent) isEvent()            {}

// StopReason says how a turn ended.
type StopReason string

const (
	EndTurn   StopReason = "end_turn"
	Cancelled StopReason = "cancelled"
	MaxTurns  StopReason = "max_turn_requests"
	MaxTokens StopReason = "max_tokens"
	Refusal   StopReason = "refusal"
	// Error: the turn ended on a provider or compaction error; the error
	// text was emitted as an assistant message.
	Error StopReason = "error"
)

// Outcome is how Reply ended.
type Outcome struct {
	StopReason StopReason
	// Err is the provider/compaction error behind StopReason Error.
	Err error
	// RetriesExhausted: the recipe's success checks still failed after
	// its max_retries (the turn ended on goose's "Maximum retry attempts"
	// text).
	RetriesExhausted bool
}
