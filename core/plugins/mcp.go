package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
)

// mcpServer is one server of an Open Plugins MCP config.
type mcpServer struct {
	Command *string           `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     *string           `json:"cwd"`
}

type mcpDocument struct {
	MCPServers map[string]mcpServer `json:"mcpServers"`
}

// inlineServers reports a manifest mcpServers value that is a map of
// servers rather than component paths ({paths, exclusive}).
func inlineServers(raw json.RawMessage) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return false
	}
	for k := range obj {
		if k != "paths" && k != "exclusive" {
			return true
		}
	}
	return false
}

// mcpConfigPaths are the plugin's MCP config files: <root>/.mcp.json
// (unless exclusive) and the manifest's paths.
func mcpConfigPaths(root string, raw json.RawMessage) ([]string, error) {
	var cp componentPaths
	if !absent(raw) && !inlineServers(raw) {
		var err error
		if cp, err = parseComponentPaths(raw); err != nil {
			return nil, err
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if !cp.exclusive {
		add(filepath.Join(root, ".mcp.json"))
	}
	for _, p := range cp.paths {
		rel, err := relativePath(p)
		if err != nil {
			return nil, err
		}
		add(filepath.Join(root, rel))
	}
	return out, nil
}

// MCPServers are the plugin's MCP servers as goose makes them: stdio
// extensions named <plugin>:<server>, PLUGIN_ROOT in their environment and
// ${PLUGIN_ROOT} expanded in command, args, env and cwd; servers of each
// file by name, files first, then the manifest's inline servers.
func (p Plugin) MCPServers() ([]config.ExtensionConfig, error) {
	if p.claude != nil {
		return nil, nil
	}
	m, err := readManifest(p.Root)
	if err != nil {
		return nil, err
	}
	paths, err := mcpConfigPaths(p.Root, m.MCPServers)
	if err != nil {
		return nil, err
	}
	var out []config.ExtensionConfig
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var doc mcpDocument
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("Failed to parse %s: %w", path, err)
		}
		servers, err := p.servers(doc.MCPServers, path)
		if err != nil {
			return nil, err
		}
		out = append(out, servers...)
	}
	if !absent(m.MCPServers) && inlineServers(m.MCPServers) {
		var inline map[string]mcpServer
		if err := json.Unmarshal(m.MCPServers, &inline); err != nil {
			return nil, fmt.Errorf("Failed to parse inline Open Plugins MCP servers: %w", err)
		}
		servers, err := p.servers(inline, "plugin.json")
		if err != nil {
			return nil, err
		}
		out = append(out, servers...)
	}
	return out, nil
}

func (p Plugin) servers(servers map[string]mcpServer, source string) ([]config.ExtensionConfig, error) {
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	sort.Strings(names)
	expand := func(s string) string { return strings.ReplaceAll(s, "${PLUGIN_ROOT}", p.Root) }
	var out []config.ExtensionConfig
	for _, n := range names {
		s := servers[n]
		if s.Command == nil {
			return nil, fmt.Errorf("Failed to parse %s: MCP server %q has no command", source, n)
		}
		if strings.TrimSpace(*s.Command) == "" {
			return nil, fmt.Errorf("Open Plugins MCP server '%s' command must not be empty", n)
		}
		env := map[string]string{"PLUGIN_ROOT": p.Root}
		for k, v := range s.Env {
			env[k] = expand(v)
		}
		args := make([]string, 0, len(s.Args))
		for _, a := range s.Args {
			args = append(args, expand(a))
		}
		timeout, bundled := int64(config.DefaultExtensionTimeout), false
		cfg := config.ExtensionConfig{
			Type: config.ExtensionStdio, Name: p.Name + ":" + n, Cmd: expand(*s.Command), Args: args,
			Envs: env, Timeout: &timeout, Bundled: &bundled,
		}
		if s.Cwd != nil {
			cfg.Cwd = expand(*s.Cwd)
		}
		out = append(out, cfg)
	}
	return out, nil
}

// ServerPrefix is the name prefix of a plugin's MCP server extensions.
func ServerPrefix(plugin string) string { return plugin + ":" }
