package acp

// ContentBlock is an ACP content block: text, image, audio, resource_link or
// resource. Only the fields of Type are set.
type ContentBlock struct {
	Type        string            `json:"type"`
	Text        string            `json:"text,omitempty"`
	Data        string            `json:"data,omitempty"`
	MimeType    string            `json:"mimeType,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Name        string            `json:"name,omitempty"`
	Title       string            `json:"title,omitempty"`
	Description string            `json:"description,omitempty"`
	Size        *int64            `json:"size,omitempty"`
	Resource    *EmbeddedResource `json:"resource,omitempty"`
	Annotations *Annotations      `json:"annotations,omitempty"`
	Meta        Meta              `json:"_meta,omitempty"`
}

// MarshalJSON keeps "text" on text blocks even when empty.
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	type plain ContentBlock
	if b.Type == "text" {
		return marshalWithText(plain(b), b.Text)
	}
	return jsonMarshal(plain(b))
}

type EmbeddedResource struct {
	URI      string  `json:"uri"`
	MimeType string  `json:"mimeType,omitempty"`
	Text     *string `json:"text,omitempty"`
	Blob     *string `json:"blob,omitempty"`
}

type Annotations struct {
	Audience     []string `json:"audience,omitempty"`
	Priority     *float64 `json:"priority,omitempty"`
	LastModified string   `json:"lastModified,omitempty"`
}

// SessionNotification is session/update's params.
type SessionNotification struct {
	SessionID string        `json:"sessionId"`
	Update    SessionUpdate `json:"update"`
}

// SessionUpdate is one update, discriminated by SessionUpdate; only the
// fields of that kind are set.
type SessionUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	// message and thought chunks
	Content   *ContentBlock `json:"content,omitempty"`
	MessageID string        `json:"messageId,omitempty"`
	// tool_call and tool_call_update
	ToolCallID  string             `json:"toolCallId,omitempty"`
	Title       *string            `json:"title,omitempty"`
	Kind        string             `json:"kind,omitempty"`
	Status      string             `json:"status,omitempty"`
	ToolContent []ToolCallContent  `json:"-"`
	Locations   []ToolCallLocation `json:"locations,omitempty"`
	RawInput    any                `json:"rawInput,omitempty"`
	RawOutput   any                `json:"rawOutput,omitempty"`
	// plan
	Entries []PlanEntry `json:"entries,omitempty"`
	// available_commands_update
	AvailableCommands []AvailableCommand `json:"availableCommands,omitempty"`
	// current_mode_update
	CurrentModeID string `json:"currentModeId,omitempty"`
	// config_option_update
	ConfigOptions []ConfigOption `json:"configOptions,omitempty"`
	// usage_update
	Used *int  `json:"used,omitempty"`
	Size *int  `json:"size,omitempty"`
	Cost *Cost `json:"cost,omitempty"`
	// notice (with Title)
	Severity    string  `json:"severity,omitempty"`
	Description *string `json:"description,omitempty"`
	// compaction_update (with Status)
	CompactionID string `json:"compactionId,omitempty"`
	// session_info_update
	UpdatedAt string `json:"updatedAt,omitempty"`
	// subagent_update (with Title, Description): the child session, its
	// state, what the client may do to it, its working dir
	ChildSessionID string             `json:"sessionId,omitempty"`
	State          *SubagentState     `json:"state,omitempty"`
	Capabilities   *SubagentAllowance `json:"capabilities,omitempty"`
	CWD            string             `json:"cwd,omitempty"`
	// session_message (with MessageID): between two sessions, its content
	// written as "content" (an array)
	SenderSessionID    string         `json:"senderSessionId,omitempty"`
	RecipientSessionID string         `json:"recipientSessionId,omitempty"`
	Blocks             []ContentBlock `json:"-"`
	Meta               Meta           `json:"_meta,omitempty"`
}

// SubagentState is a child session's foreground work: running,
// requires_action, or idle with the stop reason (error with the error).
type SubagentState struct {
	State      string    `json:"state"`
	StopReason string    `json:"stopReason,omitempty"`
	Error      *RPCError `json:"error,omitempty"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// SubagentAllowance is what the client may do to one child session
// (cancel: {} allows session/cancel with its id).
type SubagentAllowance struct {
	Cancel *struct{} `json:"cancel,omitempty"`
}

// Update kinds.
const (
	UpdateUserMessageChunk  = "user_message_chunk"
	UpdateAgentMessageChunk = "agent_message_chunk"
	UpdateAgentThoughtChunk = "agent_thought_chunk"
	UpdateToolCall          = "tool_call"
	UpdateToolCallUpdate    = "tool_call_update"
	UpdatePlan              = "plan"
	UpdateAvailableCommands = "available_commands_update"
	UpdateCurrentMode       = "current_mode_update"
	UpdateConfigOption      = "config_option_update"
	UpdateUsage             = "usage_update"
	UpdateSessionInfo       = "session_info_update"
	UpdateNotice            = "notice"
	UpdateCompaction        = "compaction_update"
	UpdateSubagent          = "subagent_update"
	UpdateSessionMessage    = "session_message"
)

// ToolCallContent is {type:"content",content}, {type:"diff",path,oldText,newText}
// or {type:"terminal",terminalId}.
type ToolCallContent struct {
	Type       string        `json:"type"`
	Content    *ContentBlock `json:"content,omitempty"`
	Path       string        `json:"path,omitempty"`
	OldText    *string       `json:"oldText,omitempty"`
	NewText    *string       `json:"newText,omitempty"`
	TerminalID string        `json:"terminalId,omitempty"`
}

type ToolCallLocation struct {
	Path string `json:"path"`
	Line *int   `json:"line,omitempty"`
}

type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

type AvailableCommand struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Input       *CommandInput `json:"input,omitempty"`
	// Meta is goose's {commandType, sourcePath} (Desktop's "/" menu).
	Meta map[string]string `json:"_meta,omitempty"`
}

type CommandInput struct {
	Hint string `json:"hint"`
}

// --- agent → client requests ---

// ToolCallUpdate is the toolCall inside session/request_permission.
type ToolCallUpdate struct {
	ToolCallID string             `json:"toolCallId"`
	Title      *string            `json:"title,omitempty"`
	Kind       string             `json:"kind,omitempty"`
	Status     string             `json:"status,omitempty"`
	Content    []ToolCallContent  `json:"content,omitempty"`
	Locations  []ToolCallLocation `json:"locations,omitempty"`
	RawInput   any                `json:"rawInput,omitempty"`
}

type RequestPermissionRequest struct {
	SessionID string             `json:"sessionId"`
	ToolCall  ToolCallUpdate     `json:"toolCall"`
	Options   []PermissionOption `json:"options"`
	Meta      Meta               `json:"_meta,omitempty"`
}

type PermissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

type RequestPermissionResponse struct {
	Outcome struct {
		Outcome  string `json:"outcome"`
		OptionID string `json:"optionId,omitempty"`
	} `json:"outcome"`
}

type ReadTextFileRequest struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
	Line      *int   `json:"line,omitempty"`
	Limit     *int   `json:"limit,omitempty"`
}

type ReadTextFileResponse struct {
	Content string `json:"content"`
}

type WriteTextFileRequest struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
	Content   string `json:"content"`
}

type CreateTerminalRequest struct {
	SessionID       string        `json:"sessionId"`
	Command         string        `json:"command"`
	Args            []string      `json:"args,omitempty"`
	Env             []EnvVariable `json:"env,omitempty"`
	CWD             string        `json:"cwd,omitempty"`
	OutputByteLimit *int          `json:"outputByteLimit,omitempty"`
}

type CreateTerminalResponse struct {
	TerminalID string `json:"terminalId"`
}

type TerminalRequest struct {
	SessionID  string `json:"sessionId"`
	TerminalID string `json:"terminalId"`
}

type TerminalExitStatus struct {
	ExitCode *int    `json:"exitCode,omitempty"`
	Signal   *string `json:"signal,omitempty"`
}

type TerminalOutputResponse struct {
	Output     string              `json:"output"`
	Truncated  bool                `json:"truncated"`
	ExitStatus *TerminalExitStatus `json:"exitStatus,omitempty"`
}

type ElicitationRequest struct {
	SessionID  string `json:"sessionId"`
	ToolCallID string `json:"toolCallId,omitempty"`
	Mode       string `json:"mode"`
	Message    string `json:"message"`
	// RequestedSchema is a form's; URL and ElicitationID a URL-mode one's.
	RequestedSchema any    `json:"requestedSchema,omitempty"`
	URL             string `json:"url,omitempty"`
	ElicitationID   string `json:"elicitationId,omitempty"`
	Meta            Meta   `json:"_meta,omitempty"`
}

type ElicitationResponse struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}
