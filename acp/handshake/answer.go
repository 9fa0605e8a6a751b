package handshake

// Auth method ids.
const (
	// AuthMethodAgent keeps goose's id: authenticate re-checks the stored
	// configuration.
	AuthMethodAgent = "goose-provider"
	// AuthMethodTerminal runs `goose-acp configure` in the client's
	// terminal.
	AuthMethodTerminal = "goose-acp-configure"
)

// ConfigureArgs are the terminal auth method's arguments.
var ConfigureArgs = []string{"configure"}

// Agent is what initialize's answer says about this agent.
type Agent struct {
	// Version is agentInfo.version (internal/buildinfo).
	Version string
	// Command is the absolute path of this binary, for the terminal auth
	// method that runs `goose-acp configure` (Zed's _meta form).
	Command string
}

// Answer is goose-acp's answer to a v1 initialize request.
func Answer(req InitializeRequest, a Agent) InitializeResponse {
	version := req.ProtocolVersion
	if version <= 0 || version > ProtocolVersion {
		version = ProtocolVersion
	}
	supported := &struct{}{}
	return InitializeResponse{
		ProtocolVersion: version,
		AgentCapabilities: AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: PromptCapabilities{Image: true, Audio: false, EmbeddedContext: true},
			MCPCapabilities:    MCPCapabilities{HTTP: true, SSE: true},
			SessionCapabilities: SessionCapabilities{
				List: supported, Resume: supported, Close: supported, Delete: supported,
				Fork: supported, AdditionalDirectories: supported, Title: supported, Archive: supported,
			},
			Meta: GooseFeatures(),
		},
		AuthMethods: AuthMethods(req.ClientCapabilities, a.Command),
		AgentInfo:   &Implementation{Name: "goose-acp", Title: "goose", Version: a.Version},
		Meta:        Meta{"steering": map[string]any{"supported": true}},
	}
}

// GooseFeatures are initialize's agentCapabilities._meta.goose: the goose
// features Desktop 1.5x checks for before using them (acp/capabilities.ts)
// — recipe parameters scoped to a deep link (session/new's
// _meta.recipeParameterScopeId) and a new chat with no extensions
// (_meta.enabledExtensions: []). Local inference is not offered.
func GooseFeatures() Meta {
	return Meta{"goose": map[string]any{
		"recipeParameterScopes":   map[string]any{},
		"emptyExtensionSelection": map[string]any{},
	}}
}

// AuthMethods is initialize's authMethods for these client capabilities.
// The agent method is always offered. The terminal method only when the
// client says it can run one (auth.terminal, as the schema requires) or
// sets Zed's _meta["terminal-auth"]; for the latter it also carries the
// {command, args, label} Zed launches (command: this binary's path, when
// known). The schema this adapter is checked against
// (@agentclientprotocol/sdk 2.4.0) has no env_var method type, so the
// keys an editor may pass in the environment are named in the agent
// method's description instead.
func AuthMethods(caps ClientCapabilities, command string) []AuthMethod {
	methods := []AuthMethod{{
		ID: AuthMethodAgent, Name: "Configure Provider",
		Description: "Run `goose-acp configure` in a terminal to choose a provider, API key and model, " +
			"or start goose-acp with OPENAI_API_KEY, ANTHROPIC_API_KEY or GOOGLE_API_KEY set; then authenticate re-checks.",
	}}
	zedMeta := caps.Meta["terminal-auth"] == true
	if !caps.Auth.Terminal && !zedMeta {
		return methods
	}
	term := AuthMethod{Type: "terminal", ID: AuthMethodTerminal, Name: "Configure in terminal",
		Description: "Runs `goose-acp configure`: pick a provider, enter its API key and choose a model.",
		Args:        ConfigureArgs}
	if zedMeta && command != "" {
		term.Meta = Meta{"terminal-auth": map[string]any{
			"command": command, "args": ConfigureArgs, "label": "goose-acp configure",
		}}
	}
	return append(methods, term)
}
