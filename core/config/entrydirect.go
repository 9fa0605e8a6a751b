package config

import (
	"math"
	"unicode/utf8"
)

// Every config load (each process start, each changed config.yaml) reads
// the platform entries and refreshes the stale ones; the Extensions list
// reads every entry. Both went through a JSON round trip per entry
// (json.Marshal of the map, json.Unmarshal into ExtensionEntry; and back
// for a refreshed entry), and a fresh process paid encoding/json building
// its encoders for these types: ~75% of opening the config at start-up.
// The functions here give the same results directly for the shapes
// config.yaml holds in practice and report false for anything else, which
// then takes the JSON round trip as before (entrydirect_test.go compares
// both ways for every platform definition and every kind of present entry).

// entryFields are the keys decodeEntry reads itself: every other key, even
// one encoding/json would match case-insensitively, takes the JSON path.
var entryFields = map[string]bool{
	"enabled": true, "type": true, "name": true, "description": true, "display_name": true,
	"cmd": true, "args": true, "uri": true, "envs": true, "env_keys": true, "headers": true,
	"timeout": true, "cwd": true, "bundled": true, "available_tools": true, "socket": true,
	"instructions": true, "code": true, "dependencies": true,
}

// decodeEntry is parseEntry for a JSON-shaped map of plain values: the
// entry json.Unmarshal would give for json.Marshal(v), or false when v is
// outside what it reads directly (then parseEntry takes the JSON way,
// which also reports errors).
func decodeEntry(v any) (ExtensionEntry, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return ExtensionEntry{}, false
	}
	var e ExtensionEntry
	c := &e.Config
	for k, val := range m {
		if !entryFields[k] {
			return ExtensionEntry{}, false
		}
		ok := true
		switch k {
		case "enabled":
			e.Enabled, ok = optBool(val)
		case "type":
			var s string
			s, ok = optString(val)
			c.Type = ExtensionType(s)
		case "name":
			c.Name, ok = optString(val)
		case "description":
			c.Description, ok = optString(val)
		case "display_name":
			c.DisplayName, ok = optString(val)
		case "cmd":
			c.Cmd, ok = optString(val)
		case "uri":
			c.URI, ok = optString(val)
		case "cwd":
			c.Cwd, ok = optString(val)
		case "socket":
			c.Socket, ok = optString(val)
		case "instructions":
			c.Instructions, ok = optString(val)
		case "code":
			c.Code, ok = optString(val)
		case "args":
			c.Args, ok = stringList(val)
		case "env_keys":
			c.EnvKeys, ok = stringList(val)
		case "available_tools":
			c.AvailableTools, ok = stringList(val)
		case "dependencies":
			c.Dependencies, ok = stringList(val)
		case "envs":
			c.Envs, ok = stringMap(val)
		case "headers":
			c.Headers, ok = stringMap(val)
		case "timeout":
			c.Timeout, ok = optInt(val)
		case "bundled":
			if val != nil {
				b, isBool := val.(bool)
				c.Bundled, ok = &b, isBool
			}
		}
		if !ok {
			return ExtensionEntry{}, false
		}
	}
	if _, known := fieldsByType[c.Type]; !known {
		return ExtensionEntry{}, false // the JSON way reports it
	}
	return e, true
}

// optBool: a bool, or null (false).
func optBool(v any) (bool, bool) {
	if v == nil {
		return false, true
	}
	b, ok := v.(bool)
	return b, ok
}

// optString: a valid UTF-8 string (json.Marshal would replace invalid
// bytes), or null ("").
func optString(v any) (string, bool) {
	if v == nil {
		return "", true
	}
	s, ok := v.(string)
	return s, ok && utf8.ValidString(s)
}

// stringList: a list of strings ([] is an empty, non-nil slice, as
// json.Unmarshal makes it), or null (nil).
func stringList(v any) ([]string, bool) {
	if v == nil {
		return nil, true
	}
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, e := range l {
		s, ok := e.(string)
		if !ok || !utf8.ValidString(s) {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// stringMap: a map of strings ({} is an empty, non-nil map), or null.
func stringMap(v any) (map[string]string, bool) {
	if v == nil {
		return nil, true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		s, ok := e.(string)
		if !ok || !utf8.ValidString(s) || !utf8.ValidString(k) {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

// optInt: a whole number well inside int64 (as int64 from YAML, or a
// float64 without a fraction), or null.
func optInt(v any) (*int64, bool) {
	var n int64
	switch x := v.(type) {
	case nil:
		return nil, true
	case int64:
		n = x
	case float64:
		if x != math.Trunc(x) || math.Abs(x) >= 1<<53 {
			return nil, false
		}
		n = int64(x)
	default:
		return nil, false
	}
	return &n, true
}

// platformEntryValue is the JSON-shaped value of an entry
// migratedPlatformEntry makes (json.Unmarshal into any of its
// json.Marshal), or false for any other entry.
func platformEntryValue(e ExtensionEntry) (map[string]any, bool) {
	c := e.Config
	if c.Type != ExtensionPlatform && c.Type != ExtensionBuiltin {
		return nil, false
	}
	rest := c
	rest.Type, rest.Name, rest.Description, rest.DisplayName, rest.Bundled = "", "", "", "", nil
	if !isZeroConfig(rest) {
		return nil, false
	}
	for _, s := range []string{string(c.Type), c.Name, c.Description, c.DisplayName} {
		if !utf8.ValidString(s) {
			return nil, false
		}
	}
	out := map[string]any{"enabled": e.Enabled, "type": string(c.Type), "name": c.Name, "description": c.Description}
	if c.DisplayName != "" {
		out["display_name"] = c.DisplayName
	}
	if c.Bundled != nil {
		out["bundled"] = *c.Bundled
	}
	return out, true
}

// isZeroConfig reports whether every field of c is its zero value.
func isZeroConfig(c ExtensionConfig) bool {
	return c.Type == "" && c.Name == "" && c.Description == "" && c.DisplayName == "" &&
		c.Cmd == "" && c.Args == nil && c.URI == "" && c.Envs == nil && c.EnvKeys == nil &&
		c.Headers == nil && c.Timeout == nil && c.Cwd == "" && c.Bundled == nil &&
		c.AvailableTools == nil && c.Socket == "" && c.Tools == nil && c.Instructions == "" &&
		c.Code == "" && c.Dependencies == nil
}
