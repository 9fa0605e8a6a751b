package platform

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
	"github.com/goose-acp/goose-acp/core/session"
)

// Deps are what the platform extensions need from the agent.
type Deps struct {
	Store session.Store
	// SessionType is the session's type when the agent knows it (summon
	// offers no delegate to a subagent); empty: looked up in Store.
	SessionType session.Type
	Clock       func() time.Time
	Getenv      func(string) string
	// Catalog lists the extensions a user could enable (config.yaml).
	Catalog func() []config.ExtensionConfig
	// OnChange runs after manage_extensions changed the session's
	// extensions, so the agent can persist them.
	OnChange func()
	// Home and ConfigDir locate the global skills, agents and recipes;
	// Config reads config.yaml keys (plugins, GOOSE_SUBAGENT_*).
	Home, ConfigDir string
	Config          func(key string) (any, bool)
	// PluginSkills lists the skill directories of the plugins found for a
	// working dir: the project's, then the user's.
	PluginSkills func(workingDir string) (project, user []string)
	// Agent runs delegated subagents and one-shot completions (summon,
	// summarize); nil leaves those tools answering an error.
	Agent AgentHooks
}

// Names of the platform extensions.
const (
	Todo             = "todo"
	ExtensionManager = "extensionmanager"
	ChatRecall       = "chatrecall"
)

// Defaults returns the platform extension factories by key.
func Defaults(d Deps) map[string]extension.PlatformFactory {
	if d.Clock == nil {
		d.Clock = time.Now
	}
	if d.Getenv == nil {
		d.Getenv = func(string) string { return "" }
	}
	return map[string]extension.PlatformFactory{
		Todo:             d.todo,
		ExtensionManager: d.extensionManager,
		ChatRecall:       d.chatRecall,
		Tom:              d.tom,
		Skills:           d.skills,
		Summon:           d.summon,
		Summarize:        d.summarize,
		Apps:             appsFactory,
		CodeExecution:    codeExecutionFactory,
	}
}

// Known describes the platform extensions as goose lists them, for the
// extension catalog (search_available_extensions, goosed's extension list).
func Known() []config.ExtensionConfig {
	return []config.ExtensionConfig{
		{Type: config.ExtensionPlatform, Name: Todo, DisplayName: "Todo", Description: "Enable a todo list for goose so it can keep track of what it is doing"},
		{Type: config.ExtensionPlatform, Name: ChatRecall, DisplayName: "Chat Recall", Description: "Search past conversations and load session summaries for contextual memory"},
		{Type: config.ExtensionPlatform, Name: ExtensionManager, DisplayName: "Extension Manager", Description: "Enable extension management tools for discovering, enabling, and disabling extensions"},
		{Type: config.ExtensionPlatform, Name: Tom, DisplayName: "Top Of Mind", Description: "Inject custom context into every turn via GOOSE_MOIM_MESSAGE_TEXT and GOOSE_MOIM_MESSAGE_FILE environment variables"},
		{Type: config.ExtensionPlatform, Name: Skills, DisplayName: "Skills", Description: "Discover and provide skill instructions from filesystem and builtins"},
		{Type: config.ExtensionPlatform, Name: Summon, DisplayName: "Summon", Description: "Load knowledge and delegate tasks to subagents"},
		{Type: config.ExtensionPlatform, Name: Summarize, DisplayName: "Summarize", Description: "Load files/directories and get an LLM summary in a single call"},
		{Type: config.ExtensionPlatform, Name: Apps, DisplayName: "Apps", Description: "Create and manage custom Goose apps through chat. Apps are HTML/CSS/JavaScript and run in sandboxed windows."},
		{Type: config.ExtensionPlatform, Name: CodeExecution, DisplayName: "Code Mode", Description: "Goose will make extension calls through code execution, saving tokens"},
	}
}

// DefaultEnabled reports a platform extension's default (config.yaml's
// migration writes it as the entry's enabled flag): goose 1.54's, todo off
// among them, except that apps (on in goose) needs goose Desktop's windows
// and is off here.
func DefaultEnabled(name string) bool {
	switch name {
	case Todo, ChatRecall, Summarize, CodeExecution, Apps:
		return false
	}
	return true
}

func newServer(name, title, instructions string) *inproc.Server {
	return inproc.NewServer(&mcp.Implementation{Name: name, Title: title, Version: "1.0.0"}, instructions)
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// errorResult is goose's platform error form: isError with "Error: …".
func errorResult(format string, a ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "Error: " + fmt.Sprintf(format, a...)}}}
}

func decode(req *mcp.CallToolRequest, v any) error {
	raw := req.Params.Arguments
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	return json.Unmarshal(raw, v)
}

func boolp(b bool) *bool { return &b }

type handler = func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error)
