package platform

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
)

// Apps and CodeExecution are goose platform extensions goose-acp cannot
// run; enabled in config.yaml, their tools answer why instead of missing.
const (
	Apps          = "apps"
	CodeExecution = "code_execution"
)

// The texts the unavailable tools answer with.
const (
	appsUnavailable = "Apps are not available in goose-acp: needs goose Desktop, whose sandboxed windows " +
		"display the generated HTML apps. Use goose Desktop for apps, or disable the apps extension."
	codeModeUnavailable = "Code Mode is not available in goose-acp: needs goose's embedded TypeScript runtime " +
		"(Deno/V8), which this pure-Go build does not ship. Call the tools directly, or disable the code_execution extension."
)

type unavailableTool struct{ name, description string }

// unavailableTools are goose's tool names for each extension.
var unavailableTools = map[string][]unavailableTool{
	Apps: {
		{"create_app", "Create a new Goose app based on a description or PRD. The extension will use an LLM to generate the HTML/CSS/JavaScript. Apps are sandboxed and run in standalone windows."},
		{"iterate_app", "Improve an existing app based on feedback. The extension will use an LLM to update the HTML while preserving the app's intent."},
		{"delete_app", "Delete an app permanently"},
		{"list_apps", "List all available Goose apps with their names and descriptions. Use this to see what apps exist before creating or modifying apps."},
	},
	CodeExecution: {
		{"list_functions", "List the functions available to execute_typescript."},
		{"get_function_details", "Describe functions available to execute_typescript."},
		{"execute_typescript", "Run TypeScript that calls the other tools as functions."},
	},
}

// The factories of the unavailable extensions, one per process.
var (
	appsFactory          = unavailable(Apps, "Apps", appsUnavailable)
	codeExecutionFactory = unavailable(CodeExecution, "Code Mode", codeModeUnavailable)
)

// unavailable builds an extension whose instructions and every tool say
// why it cannot work here. Nothing in it depends on the session, so the
// process builds its server once and every session connects to that one.
func unavailable(name, title, why string) extension.PlatformFactory {
	server := sync.OnceValue(func() *inproc.Server {
		s := newServer(name, title, why)
		for _, t := range unavailableTools[name] {
			s.AddTool(&mcp.Tool{Name: t.name, Description: t.description, InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return errorResult("%s", why), nil
				})
		}
		return s
	})
	return func(context.Context, extension.Env) (extension.Platform, error) {
		return extension.Platform{Server: server()}, nil
	}
}
