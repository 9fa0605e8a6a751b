package handshake

import "encoding/json"

// ProtocolVersion is the ACP version initialize negotiates here (v1; the
// v2 draft is acp's).
const ProtocolVersion = 1

// Meta is the _meta extension object every ACP type may carry.
type Meta map[string]any

type InitializeRequest struct {
	ProtocolVersion    int                `json:"protocolVersion"`
	ClientCapabilities ClientCapabilities `json:"clientCapabilities"`
	ClientInfo         *Implementation    `json:"clientInfo,omitempty"`
	Meta               Meta               `json:"_meta,omitempty"`
}

type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

type ClientCapabilities struct {
	FS          FSCapabilities   `json:"fs"`
	Terminal    bool             `json:"terminal"`
	Elicitation *json.RawMessage `json:"elicitation,omitempty"`
	Auth        AuthCapabilities `json:"auth,omitzero"`
	// Session holds the session/* opt-ins (compaction, notices).
	Session *ClientSessionCapabilities `json:"session,omitempty"`
	// Subagents ({}: supported) is the unstable opt-in to subagents shown
	// as child sessions (acp/subagents.go).
	Subagents *json.RawMessage `json:"subagents,omitempty"`
	Meta      Meta             `json:"_meta,omitempty"`
}

type FSCapabilities struct {
	ReadTextFile  bool `json:"readTextFile"`
	WriteTextFile bool `json:"writeTextFile"`
}

// AuthCapabilities is clientCapabilities.auth: terminal means the client
// can run a terminal auth method.
type AuthCapabilities struct {
	Terminal bool `json:"terminal,omitempty"`
	Meta     Meta `json:"_meta,omitempty"`
}

// ClientSessionCapabilities are the client's session/* opt-ins
// (clientCapabilities.session): {} advertises compaction_update and notice
// updates; absent or null means the client does not understand them.
type ClientSessionCapabilities struct {
	Compaction *json.RawMessage `json:"compaction,omitempty"`
	Notices    *json.RawMessage `json:"notices,omitempty"`
	// ConfigOptions.Boolean ({}) takes boolean config options.
	ConfigOptions *struct {
		Boolean *json.RawMessage `json:"boolean,omitempty"`
	} `json:"configOptions,omitempty"`
}

type InitializeResponse struct {
	ProtocolVersion   int               `json:"protocolVersion"`
	AgentCapabilities AgentCapabilities `json:"agentCapabilities"`
	AuthMethods       []AuthMethod      `json:"authMethods"`
	AgentInfo         *Implementation   `json:"agentInfo,omitempty"`
	// Meta carries the extensions peers advertise beside the capabilities
	// (steering.supported: _session/steering, acp/steering.go).
	Meta Meta `json:"_meta,omitempty"`
}

type AgentCapabilities struct {
	LoadSession         bool                `json:"loadSession"`
	PromptCapabilities  PromptCapabilities  `json:"promptCapabilities"`
	MCPCapabilities     MCPCapabilities     `json:"mcpCapabilities"`
	SessionCapabilities SessionCapabilities `json:"sessionCapabilities"`
	// Meta carries goose's feature flags (_meta.goose), which Goose Desktop
	// checks before using the feature.
	Meta Meta `json:"_meta,omitempty"`
}

type PromptCapabilities struct {
	Image           bool `json:"image"`
	Audio           bool `json:"audio"`
	EmbeddedContext bool `json:"embeddedContext"`
}

type MCPCapabilities struct {
	HTTP bool `json:"http"`
	SSE  bool `json:"sse"`
}

// SessionCapabilities: {} means supported, absent means unsupported.
type SessionCapabilities struct {
	List                  *struct{} `json:"list,omitempty"`
	Resume                *struct{} `json:"resume,omitempty"`
	Close                 *struct{} `json:"close,omitempty"`
	Delete                *struct{} `json:"delete,omitempty"`
	Fork                  *struct{} `json:"fork,omitempty"`
	AdditionalDirectories *struct{} `json:"additionalDirectories,omitempty"`
	// Title and Archive are unstable: session/set_title, and
	// session/archive|unarchive with session/list's archived filter.
	Title   *struct{} `json:"title,omitempty"`
	Archive *struct{} `json:"archive,omitempty"`
}

// AuthMethod is an agent method (no type) or, with Type "terminal", a
// command the client runs in a terminal (Args appended to the agent's own
// command); see Answer.
type AuthMethod struct {
	Type        string            `json:"type,omitempty"`
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description string            `json:"description,omitempty"`
	Args        []string          `json:"args,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	Meta        Meta              `json:"_meta,omitempty"`
}
