package acp

import (
	"encoding/json"
	"strings"

	"github.com/goose-acp/goose-acp/acp/handshake"
)

// ProtocolVersion is the ACP version we implement.
const ProtocolVersion = handshake.ProtocolVersion

// Meta is the _meta extension object every ACP type may carry.
type Meta = handshake.Meta

// --- initialize (acp/handshake: a fresh process answers it before this
// package has initialised; these are the same types) ---

type (
	InitializeRequest         = handshake.InitializeRequest
	Implementation            = handshake.Implementation
	ClientCapabilities        = handshake.ClientCapabilities
	FSCapabilities            = handshake.FSCapabilities
	AuthCapabilities          = handshake.AuthCapabilities
	ClientSessionCapabilities = handshake.ClientSessionCapabilities
	InitializeResponse        = handshake.InitializeResponse
	AgentCapabilities         = handshake.AgentCapabilities
	PromptCapabilities        = handshake.PromptCapabilities
	MCPCapabilities           = handshake.MCPCapabilities
	SessionCapabilities       = handshake.SessionCapabilities
	AuthMethod                = handshake.AuthMethod
)

// --- sessions ---

// MCPServer is a client-provided MCP server: stdio (no type), http or sse.
type MCPServer struct {
	Type    string         `json:"type,omitempty"`
	Name    string         `json:"name"`
	Command string         `json:"command,omitempty"`
	Args    []string       `json:"args,omitempty"`
	Env     []EnvVariable  `json:"env,omitempty"`
	URL     string         `json:"url,omitempty"`
	Headers []HTTPHeader   `json:"headers,omitempty"`
	Meta    map[string]any `json:"_meta,omitempty"`
}

// MCPServers is the client's MCP server list. An empty JSON object is read
// as an empty list: Lua clients (codecompanion.nvim) encode an empty table
// as {}.
type MCPServers []MCPServer

func (l *MCPServers) UnmarshalJSON(b []byte) error {
	trimmed := strings.TrimSpace(string(b))
	if trimmed == "null" || strings.ReplaceAll(trimmed, " ", "") == "{}" {
		*l = nil
		return nil
	}
	return json.Unmarshal(b, (*[]MCPServer)(l))
}

type EnvVariable struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type HTTPHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type NewSessionRequest struct {
	CWD                   string     `json:"cwd"`
	MCPServers            MCPServers `json:"mcpServers"`
	AdditionalDirectories []string   `json:"additionalDirectories,omitempty"`
	Meta                  Meta       `json:"_meta,omitempty"`
}

type NewSessionResponse struct {
	SessionID     string         `json:"sessionId"`
	Modes         *ModeState     `json:"modes,omitempty"`
	Models        *ModelState    `json:"models,omitempty"`
	ConfigOptions []ConfigOption `json:"configOptions,omitempty"`
	Meta          Meta           `json:"_meta,omitempty"`
}

type LoadSessionRequest struct {
	SessionID             string     `json:"sessionId"`
	CWD                   string     `json:"cwd"`
	MCPServers            MCPServers `json:"mcpServers"`
	AdditionalDirectories []string   `json:"additionalDirectories,omitempty"`
	Meta                  Meta       `json:"_meta,omitempty"`
}

// SessionSetupResponse answers session/load, session/resume and the
// fork/new variants without an id.
type SessionSetupResponse struct {
	Modes         *ModeState     `json:"modes,omitempty"`
	Models        *ModelState    `json:"models,omitempty"`
	ConfigOptions []ConfigOption `json:"configOptions,omitempty"`
	Meta          Meta           `json:"_meta,omitempty"`
}

type ModeState struct {
	CurrentModeID  string        `json:"currentModeId"`
	AvailableModes []SessionMode `json:"availableModes"`
}

type SessionMode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// ModelState is the legacy (session/set_model) model list.
type ModelState struct {
	CurrentModelID  string      `json:"currentModelId"`
	AvailableModels []ModelInfo `json:"availableModels"`
}

type ModelInfo struct {
	ModelID     string `json:"modelId"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type ConfigOption struct {
	ID           string              `json:"id"`
	Name         string              `json:"name"`
	Description  string              `json:"description,omitempty"`
	Category     string              `json:"category,omitempty"`
	Type         string              `json:"type"`
	CurrentValue string              `json:"currentValue"`
	Options      []ConfigOptionValue `json:"options"`
	// Bool is a boolean option's value (type "boolean"; config_switches.go).
	Bool *bool `json:"-"`
}

type ConfigOptionValue struct {
	Value       string `json:"value"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type SessionIDRequest struct {
	SessionID string `json:"sessionId"`
}

type ListSessionsRequest struct {
	CWD    string `json:"cwd,omitempty"`
	Cursor string `json:"cursor,omitempty"`
	// Archived is the unstable archive filter (exclude, include, only).
	Archived *string `json:"archived,omitempty"`
	Meta     Meta    `json:"_meta,omitempty"`
}

type ListSessionsResponse struct {
	Sessions   []SessionInfo `json:"sessions"`
	NextCursor string        `json:"nextCursor,omitempty"`
}

type SessionInfo struct {
	SessionID string `json:"sessionId"`
	CWD       string `json:"cwd"`
	Title     string `json:"title,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"`
	// Archived is the unstable archive state, on every listed session.
	Archived *bool `json:"archived,omitempty"`
	Meta     Meta  `json:"_meta,omitempty"`
}

type PromptRequest struct {
	SessionID string         `json:"sessionId"`
	Prompt    []ContentBlock `json:"prompt"`
	Meta      Meta           `json:"_meta,omitempty"`
}

type PromptResponse struct {
	StopReason string `json:"stopReason"`
	Usage      *Usage `json:"usage,omitempty"`
}

type Usage struct {
	TotalTokens  int `json:"totalTokens"`
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
}

// Stop reasons.
const (
	StopEndTurn         = "end_turn"
	StopMaxTokens       = "max_tokens"
	StopMaxTurnRequests = "max_turn_requests"
	StopRefusal         = "refusal"
	StopCancelled       = "cancelled"
)

type SetModeRequest struct {
	SessionID string `json:"sessionId"`
	ModeID    string `json:"modeId"`
}

type SetModelRequest struct {
	SessionID string `json:"sessionId"`
	ModelID   string `json:"modelId"`
}

type SetConfigOptionRequest struct {
	SessionID string          `json:"sessionId"`
	ConfigID  string          `json:"configId"`
	Value     json.RawMessage `json:"value"`
}

type SetConfigOptionResponse struct {
	ConfigOptions []ConfigOption `json:"configOptions"`
}
