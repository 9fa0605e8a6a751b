package config

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// ExtensionType is ExtensionConfig's "type" tag.
type ExtensionType string

const (
	ExtensionStdio          ExtensionType = "stdio"
	ExtensionBuiltin        ExtensionType = "builtin"
	ExtensionPlatform       ExtensionType = "platform"
	ExtensionStreamableHTTP ExtensionType = "streamable_http"
	ExtensionFrontend       ExtensionType = "frontend"
	ExtensionInlinePython   ExtensionType = "inline_python"
	// ExtensionSSE is kept for config-file compatibility; we still connect
	// to legacy SSE servers (goose no longer does).
	ExtensionSSE ExtensionType = "sse"
)

// DefaultExtensionTimeout is goose's per-extension request timeout (seconds).
const DefaultExtensionTimeout = 300

// ExtensionConfig is goose's ExtensionConfig (snake_case, tagged on "type").
// Only the fields of Type are written.
type ExtensionConfig struct {
	Type        ExtensionType     `json:"type"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	DisplayName string            `json:"display_name,omitempty"`
	Cmd         string            `json:"cmd,omitempty"`
	Args        []string          `json:"args,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Envs        map[string]string `json:"envs,omitempty"`
	EnvKeys     []string          `json:"env_keys,omitempty"`
	Headers     map[string]string `json:"headers,omitempty"`
	Timeout     *int64            `json:"timeout,omitempty"`
	// Cwd is a stdio extension's working directory (goose's cwd; default
	// the session's working dir). ${VAR}s from its envs are expanded.
	Cwd            string            `json:"cwd,omitempty"`
	Bundled        *bool             `json:"bundled,omitempty"`
	AvailableTools []string          `json:"available_tools,omitempty"`
	Socket         string            `json:"socket,omitempty"`
	Tools          []json.RawMessage `json:"tools,omitempty"`
	Instructions   string            `json:"instructions,omitempty"`
	Code           string            `json:"code,omitempty"`
	Dependencies   []string          `json:"dependencies,omitempty"`
}

// fieldsByType lists which JSON fields each type carries (besides
// type/name/description, always written).
var fieldsByType = map[ExtensionType][]string{
	ExtensionSSE:            {"uri"},
	ExtensionStdio:          {"cmd", "args", "envs", "env_keys", "timeout", "cwd", "bundled", "available_tools"},
	ExtensionBuiltin:        {"display_name", "timeout", "bundled", "available_tools"},
	ExtensionPlatform:       {"display_name", "bundled", "available_tools"},
	ExtensionStreamableHTTP: {"uri", "envs", "env_keys", "headers", "timeout", "socket", "bundled", "available_tools"},
	ExtensionFrontend:       {"tools", "instructions", "bundled", "available_tools"},
	ExtensionInlinePython:   {"code", "timeout", "dependencies", "available_tools"},
}

// requiredByType lists fields written even when empty.
var requiredByType = map[ExtensionType][]string{
	ExtensionStdio:          {"cmd", "args"},
	ExtensionStreamableHTTP: {"uri"},
	ExtensionFrontend:       {"tools"},
	ExtensionInlinePython:   {"code"},
}

// MarshalJSON writes type, name, description and the fields of the type.
func (e ExtensionConfig) MarshalJSON() ([]byte, error) {
	fields, ok := fieldsByType[e.Type]
	if !ok {
		return nil, fmt.Errorf("config: unknown extension type %q", e.Type)
	}
	type plain ExtensionConfig
	all, err := json.Marshal(plain(e))
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(all, &m); err != nil {
		return nil, err
	}
	out := orderedObject{{"type", m["type"]}, {"name", m["name"]}, {"description", m["description"]}}
	required := map[string]bool{}
	for _, f := range requiredByType[e.Type] {
		required[f] = true
	}
	for _, f := range fields {
		v, ok := m[f]
		if !ok && required[f] {
			v = emptyValue(f)
			ok = true
		}
		if ok {
			out = append(out, kv{f, v})
		}
	}
	return out.marshal()
}

// UnmarshalJSON accepts a null description (it becomes "").
func (e *ExtensionConfig) UnmarshalJSON(b []byte) error {
	type plain ExtensionConfig
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	if _, ok := fieldsByType[p.Type]; !ok {
		return fmt.Errorf("config: unknown extension type %q", p.Type)
	}
	*e = ExtensionConfig(p)
	return nil
}

// Key is goose's name_to_key: lowercase, [A-Za-z0-9_-] kept, whitespace
// dropped, anything else becomes "_".
func (e ExtensionConfig) Key() string { return NameToKey(e.Name) }

// NameToKey is goose's name_to_key.
func NameToKey(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case unicode.IsSpace(r):
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-'):
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// TimeoutSeconds returns the configured timeout or DefaultExtensionTimeout.
func (e ExtensionConfig) TimeoutSeconds() int64 {
	if e.Timeout != nil && *e.Timeout > 0 {
		return *e.Timeout
	}
	return DefaultExtensionTimeout
}

type kv struct {
	k string
	v json.RawMessage
}

type orderedObject []kv

func (o orderedObject) marshal() ([]byte, error) {
	buf := []byte{'{'}
	for i, p := range o {
		if i > 0 {
			buf = append(buf, ',')
		}
		k, _ := json.Marshal(p.k)
		buf = append(append(append(buf, k...), ':'), p.v...)
	}
	return append(buf, '}'), nil
}

func emptyValue(field string) json.RawMessage {
	switch field {
	case "args", "tools":
		return json.RawMessage("[]")
	}
	return json.RawMessage(`""`)
}
