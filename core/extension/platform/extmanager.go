package platform

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

const extensionManagerInstructions = `Extension Management

Use these tools to discover, enable, and disable extensions, as well as review resources.

Available tools:
- search_available_extensions: Find extensions available to enable/disable
- manage_extensions: Enable or disable extensions
- list_resources: List resources from extensions
- read_resource: Read specific resources from extensions

When a task needs tools you do not have, use search_available_extensions first to find an extension that has them.
Use manage_extensions to enable or disable specific extensions by name.
Use list_resources and read_resource to work with extension data and resources.
`

// extensionManagerServer is extensionmanager's server, one per process;
// a call acts on the extensions of the session found by its request's
// server session.
var extensionManagerServer = newSharedServer(ExtensionManager, func(sh *sharedServer) *inproc.Server {
	s := newServer(ExtensionManager, "Extension Manager", extensionManagerInstructions)
	s.AddTool(&mcp.Tool{
		Name:        "search_available_extensions",
		Description: "Searches for additional extensions available to help complete tasks.\nUse this tool when you're unable to find a specific feature or functionality you need to complete your task, or when standard approaches aren't working.\nThese extensions might provide the exact tools needed to solve your problem.\nIf you find a relevant one, consider using your tools to enable it.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{},"required":[]}`),
		Annotations: &mcp.ToolAnnotations{Title: "Discover extensions", ReadOnlyHint: true, DestructiveHint: boolp(false), OpenWorldHint: boolp(false)},
		Meta:        declare(toolinfo.Search),
	}, sh.handle(func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return b.d.searchExtensions(b.env.Manager)(ctx, req)
	}))
	s.AddTool(&mcp.Tool{
		Name:        "manage_extensions",
		Description: "Tool to manage extensions and tools in goose context.\nEnable or disable extensions to help complete tasks.\nEnable or disable an extension by providing the extension name.",
		InputSchema: json.RawMessage(`{"type":"object","required":["action","extension_name"],"properties":{"action":{"type":"string","enum":["enable","disable"],"description":"The action to perform"},"extension_name":{"type":"string","description":"The name of the extension to enable"}}}`),
		Annotations: &mcp.ToolAnnotations{Title: "Enable or disable an extension", DestructiveHint: boolp(false), OpenWorldHint: boolp(false)},
		Meta:        declare(toolinfo.Other),
	}, sh.handle(func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return b.d.manageExtensions(b.env.Manager)(ctx, req)
	}))
	s.AddTool(&mcp.Tool{
		Name:        listResourcesTool,
		Description: "List resources from an extension(s).\n\nResources allow extensions to share data that provide context to LLMs, such as\nfiles, database schemas, or application-specific information. This tool lists resources\nin the provided extension, and returns a list for the user to browse. If no extension\nis provided, the tool will search all extensions for the resource.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"extension_name":{"type":"string","description":"Optional extension name"}}}`),
		Annotations: &mcp.ToolAnnotations{Title: "List resources", ReadOnlyHint: true, DestructiveHint: boolp(false), OpenWorldHint: boolp(false)},
		Meta:        declare(toolinfo.Read),
	}, sh.handle(func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return listResources(b.env.Manager)(ctx, req)
	}))
	s.AddTool(&mcp.Tool{
		Name:        readResourceTool,
		Description: "Read a resource from an extension.\n\nResources allow extensions to share data that provide context to LLMs, such as\nfiles, database schemas, or application-specific information. This tool searches for the\nresource URI in the provided extension, and reads in the resource content. If no extension\nis provided, the tool will search all extensions for the resource.",
		InputSchema: json.RawMessage(`{"type":"object","required":["uri"],"properties":{"uri":{"type":"string","description":"Resource URI"},"extension_name":{"type":"string","description":"Optional extension name"}}}`),
		Annotations: &mcp.ToolAnnotations{Title: "Read a resource", ReadOnlyHint: true, DestructiveHint: boolp(false), OpenWorldHint: boolp(false)},
		Meta:        declare(toolinfo.Read),
	}, sh.handle(func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return readResource(b.env.Manager)(ctx, req)
	}))
	return s
})

func (d Deps) extensionManager(ctx context.Context, env extension.Env) (extension.Platform, error) {
	if env.Manager == nil {
		return extension.Platform{}, fmt.Errorf("extensionmanager needs the extension manager")
	}
	p := extensionManagerServer.platform(&binding{d: d, env: env})
	// goose 1.54 offers the resource tools only while some extension of
	// the session serves resources.
	p.Offer = func(tool string) bool {
		return (tool != listResourcesTool && tool != readResourceTool) || env.Manager.HasResources()
	}
	return p, nil
}

const (
	listResourcesTool = "list_resources"
	readResourceTool  = "read_resource"
)

func (d Deps) catalog() []config.ExtensionConfig {
	if d.Catalog == nil {
		return nil
	}
	return d.Catalog()
}

func (d Deps) searchExtensions(m *extension.Manager) handler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var enabled, disabled []string
		seen := map[string]bool{}
		for _, info := range m.Extensions() {
			seen[info.Config.Name] = true
			enabled = append(enabled, describe(info.Config))
		}
		for _, c := range d.catalog() {
			if !seen[c.Name] {
				seen[c.Name] = true
				disabled = append(disabled, describe(c))
			}
		}
		sort.Strings(enabled)
		sort.Strings(disabled)
		var b strings.Builder
		b.WriteString("Extensions available to enable:\n")
		if len(disabled) == 0 {
			b.WriteString("(none)\n")
		}
		for _, s := range disabled {
			b.WriteString(s + "\n")
		}
		b.WriteString("\nExtensions available to disable:\n")
		if len(enabled) == 0 {
			b.WriteString("(none)\n")
		}
		for _, s := range enabled {
			b.WriteString(s + "\n")
		}
		return textResult(b.String()), nil
	}
}

func describe(c config.ExtensionConfig) string {
	if c.Description == "" {
		return "- " + c.Name
	}
	return "- " + c.Name + " - " + c.Description
}

func (d Deps) manageExtensions(m *extension.Manager) handler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var p struct {
			Action string `json:"action"`
			Name   string `json:"extension_name"`
		}
		if err := decode(req, &p); err != nil || p.Name == "" {
			return errorResult("Missing required parameter: extension_name"), nil
		}
		switch p.Action {
		case "disable":
			if err := m.Remove(p.Name); err != nil {
				return errorResult("Extension '%s' not found. Please check the extension name and try again.", p.Name), nil
			}
			d.changed()
			return textResult(fmt.Sprintf("The extension '%s' has been disabled successfully", p.Name)), nil
		case "enable":
			cfg, ok := d.find(p.Name)
			if !ok {
				return errorResult("Extension '%s' not found. Please check the extension name and try again.", p.Name), nil
			}
			if err := m.Add(ctx, cfg); err != nil {
				return errorResult("Failed to enable extension '%s': %v", p.Name, err), nil
			}
			d.changed()
			return textResult(fmt.Sprintf("The extension '%s' has been installed successfully", p.Name)), nil
		}
		return errorResult("Invalid action '%s'. Must be 'enable' or 'disable'", p.Action), nil
	}
}

func (d Deps) find(name string) (config.ExtensionConfig, bool) {
	for _, c := range d.catalog() {
		if c.Name == name || config.NameToKey(c.Name) == config.NameToKey(name) {
			return c, true
		}
	}
	return config.ExtensionConfig{}, false
}

func (d Deps) changed() {
	if d.OnChange != nil {
		d.OnChange()
	}
}

func listResources(m *extension.Manager) handler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var p struct {
			Ext string `json:"extension_name"`
		}
		_ = decode(req, &p)
		var lines []string
		for _, info := range m.Extensions() {
			if !info.HasResources || (p.Ext != "" && info.Key != extension.Normalize(p.Ext)) {
				continue
			}
			rs, err := m.ListResources(ctx, info.Key)
			if err != nil {
				return errorResult("Unable to list resources for %s: %v", info.Key, err), nil
			}
			for _, r := range rs {
				lines = append(lines, fmt.Sprintf("%s - %s, uri: (%s)", info.Key, r.Name, r.URI))
			}
		}
		return textResult(strings.Join(lines, "\n")), nil
	}
}

func readResource(m *extension.Manager) handler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var p struct {
			URI string `json:"uri"`
			Ext string `json:"extension_name"`
		}
		if err := decode(req, &p); err != nil || p.URI == "" {
			return errorResult("Missing 'uri' parameter"), nil
		}
		for _, info := range m.Extensions() {
			if !info.HasResources || (p.Ext != "" && info.Key != extension.Normalize(p.Ext)) {
				continue
			}
			res, err := m.ReadResource(ctx, info.Key, p.URI)
			if err != nil {
				continue
			}
			var parts []string
			for _, c := range res.Contents {
				if c.Text != "" {
					parts = append(parts, c.Text)
				}
			}
			return textResult(strings.Join(parts, "\n")), nil
		}
		return errorResult("Resource with uri '%s' not found. Use list_resources to get a list of available resources", p.URI), nil
	}
}
