package acp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/goose-acp/goose-acp/core/config"
)

// GooseExtension is the _goose/unstable wire form of an extension
// (acp-schema.json's GooseExtension): builtin and platform by name, every
// MCP server as {"type":"mcp","server":<ACP McpServer>}. Its fields keep
// goose's snake_case (display_name, available_tools) beside camelCase
// ones (envKeys, clientId), as the schema has them.
type GooseExtension struct {
	Type            string     `json:"type"`
	Name            string     `json:"name,omitempty"`
	Description     *string    `json:"description,omitempty"`
	DisplayName     *string    `json:"display_name,omitempty"`
	Timeout         *int64     `json:"timeout,omitempty"`
	Bundled         *bool      `json:"bundled,omitempty"`
	AvailableTools  []string   `json:"available_tools,omitempty"`
	Server          *MCPServer `json:"-"`
	EnvKeys         []string   `json:"envKeys,omitempty"`
	Socket          *string    `json:"socket,omitempty"`
	ClientID        *string    `json:"clientId,omitempty"`
	ClientSecretKey *string    `json:"clientSecretKey,omitempty"`
	Scopes          []string   `json:"scopes,omitempty"`
}

// MarshalJSON writes server with the fields its transport requires
// (args/env for stdio, headers for http and sse) even when empty.
func (g GooseExtension) MarshalJSON() ([]byte, error) {
	type plain GooseExtension
	b, err := json.Marshal(plain(g))
	if err != nil || g.Server == nil {
		return b, err
	}
	srv := g.Server
	server := map[string]any{"name": srv.Name}
	switch srv.Type {
	case "http", "sse":
		server["type"], server["url"], server["headers"] = srv.Type, srv.URL, nonNil(srv.Headers)
	default:
		server["command"], server["args"], server["env"] = srv.Command, nonNil(srv.Args), nonNil(srv.Env)
	}
	sb, err := json.Marshal(server)
	if err != nil {
		return nil, err
	}
	return append(append(append(b[:len(b)-1], `,"server":`...), sb...), '}'), nil
}

// UnmarshalJSON reads server through MCPServer (stdio, http or sse).
func (g *GooseExtension) UnmarshalJSON(b []byte) error {
	type plain GooseExtension
	var p struct {
		plain
		Server *MCPServer `json:"server"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*g = GooseExtension(p.plain)
	g.Server = p.Server
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// extensionToWire is goose's config_to_goose_extension. Frontend and
// inline-Python entries have no wire form (ok false).
func extensionToWire(c config.ExtensionConfig) (GooseExtension, bool) {
	g := GooseExtension{Description: optString(c.Description), Timeout: c.Timeout, Bundled: c.Bundled,
		AvailableTools: c.AvailableTools}
	switch c.Type {
	case config.ExtensionBuiltin, config.ExtensionPlatform:
		g.Type, g.Name, g.DisplayName = string(c.Type), c.Name, optString(c.DisplayName)
		if c.Type == config.ExtensionPlatform {
			g.Timeout = nil
		}
	case config.ExtensionStdio:
		g.Type, g.EnvKeys = "mcp", nonNil(c.EnvKeys)
		g.Server = &MCPServer{Name: c.Name, Command: c.Cmd, Args: c.Args}
	case config.ExtensionStreamableHTTP, config.ExtensionSSE:
		g.Type, g.EnvKeys, g.Socket = "mcp", nonNil(c.EnvKeys), optString(c.Socket)
		g.Server = &MCPServer{Type: "http", Name: c.Name, URL: c.URI, Headers: headerList(c.Headers)}
		if c.Type == config.ExtensionSSE {
			g.Server.Type = "sse"
		}
	default:
		return GooseExtension{}, false
	}
	return g, true
}

func headerList(h map[string]string) []HTTPHeader {
	out := []HTTPHeader{}
	for _, k := range slices.Sorted(maps.Keys(h)) {
		out = append(out, HTTPHeader{Name: k, Value: h[k]})
	}
	return out
}

// envValues are a server's env values given as a session's own
// (ExtensionConfig.Envs, for the process only).
func envValues(env []config.KeyValue) map[string]string {
	out := make(map[string]string, len(env))
	for _, kv := range env {
		out[kv.Key] = fmt.Sprint(kv.Value)
	}
	return out
}

// extensionFromWire decodes goose's GooseExtension: the config entry and
// a stdio server's env values, which core keeps in the secret store
// (config.AddExtensionWithEnvSecrets).
func extensionFromWire(g GooseExtension) (config.ExtensionConfig, []config.KeyValue, error) {
	c := config.ExtensionConfig{Name: g.Name, Timeout: g.Timeout, Bundled: g.Bundled, AvailableTools: g.AvailableTools}
	if g.Description != nil {
		c.Description = *g.Description
	}
	if g.DisplayName != nil {
		c.DisplayName = *g.DisplayName
	}
	switch g.Type {
	case "builtin", "platform":
		c.Type = config.ExtensionType(g.Type)
		if g.Name == "" {
			return c, nil, invalidParams("extension name cannot be empty")
		}
		return c, nil, nil
	case "mcp":
	default:
		return c, nil, invalidParams("unsupported extension type %q (builtin, platform or mcp)", g.Type)
	}
	srv := g.Server
	if srv == nil {
		return c, nil, invalidParams("an mcp extension needs a server")
	}
	c.Name, c.EnvKeys = srv.Name, g.EnvKeys
	switch srv.Type {
	case "":
		if g.Socket != nil {
			return c, nil, invalidParams("socket is only supported for streamable_http MCP extensions")
		}
		if g.ClientID != nil || g.ClientSecretKey != nil || len(g.Scopes) > 0 {
			return c, nil, invalidParams("OAuth client fields are only supported for streamable_http MCP extensions")
		}
		c.Type, c.Cmd, c.Args = config.ExtensionStdio, srv.Command, nonNil(srv.Args)
		var env []config.KeyValue
		for _, e := range srv.Env {
			env = append(env, config.KeyValue{Key: e.Name, Value: e.Value})
		}
		return c, env, nil
	case "http":
		c.Type, c.URI = config.ExtensionStreamableHTTP, srv.URL
		if g.Socket != nil {
			c.Socket = *g.Socket
		}
		if g.ClientID != nil || g.ClientSecretKey != nil || len(g.Scopes) > 0 {
			return c, nil, invalidParams("OAuth client registration (clientId, clientSecretKey, scopes) is not supported by goose-acp")
		}
		if len(srv.Headers) > 0 {
			c.Headers = map[string]string{}
			for _, h := range srv.Headers {
				c.Headers[h.Name] = h.Value
			}
		}
		return c, nil, nil
	case "sse":
		return c, nil, invalidParams("SSE is unsupported, migrate to streamable_http")
	}
	return c, nil, invalidParams("unsupported MCP server %s", fmt.Sprintf("%q", srv.Type))
}
