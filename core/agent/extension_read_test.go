package agent

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
)

// roundTripRead is how read decoded config.yaml's extensions map before
// (the whole map through JSON, then each entry): read must give what it
// gave, and log what it logged.
func roundTripRead(x extensionConfigs, enabledOnly bool) []config.ExtensionConfig {
	raw, ok := x.cfg.Get("extensions")
	if !ok || raw == nil {
		return x.defaultPlatforms(nil)
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return x.defaultPlatforms(nil)
	}
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(b, &entries); err != nil {
		x.log.Warn("config extensions are not a map", "error", err)
		return x.defaultPlatforms(nil)
	}
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	seen := map[string]bool{}
	var out []config.ExtensionConfig
	for _, k := range keys {
		seen[k] = true
		var flag struct {
			Enabled bool `json:"enabled"`
		}
		_ = json.Unmarshal(entries[k], &flag)
		if enabledOnly && !flag.Enabled {
			continue
		}
		var cfg config.ExtensionConfig
		if err := json.Unmarshal(entries[k], &cfg); err != nil {
			x.log.Warn("skipping bad extension config", "extension", k, "error", err)
			continue
		}
		out = append(out, cfg)
	}
	return append(out, x.defaultPlatforms(seen)...)
}

func TestExtensionReadDecodesAsTheJSONRoundTrip(t *testing.T) {
	builtin := func(name string, more map[string]any) map[string]any {
		m := map[string]any{"type": "builtin", "name": name, "display_name": strings.ToUpper(name), "timeout": 300, "bundled": true}
		for k, v := range more {
			m[k] = v
		}
		return m
	}
	cases := map[string]any{
		"goose's file": map[string]any{
			"developer": builtin("developer", map[string]any{"enabled": true}),
			"todo":      map[string]any{"type": "platform", "name": "todo", "description": "Todo <list> & more", "enabled": false},
			"fetch": map[string]any{"type": "stdio", "name": "fetch", "cmd": "uvx", "args": []any{"mcp-server-fetch"},
				"envs": map[string]any{"A": "1"}, "env_keys": []any{"K"}, "timeout": 300.0, "enabled": true, "description": nil},
			"remote": map[string]any{"type": "streamable_http", "name": "remote", "uri": "http://127.0.0.1:9/mcp",
				"headers": map[string]any{"X": "y"}, "enabled": true, "available_tools": []any{"a"}},
		},
		"enabled in other cases": map[string]any{
			"a": builtin("analyze", map[string]any{"Enabled": true}),
			"b": builtin("b", map[string]any{"ENABLED": true, "enabled": false}),
			"c": builtin("c", map[string]any{"ENABLED": false, "enabled": true}),
			"d": builtin("d", map[string]any{"enabled": "yes"}),
			"e": builtin("e", map[string]any{"enabled": nil, "Enabled": true}),
		},
		"entries that are not objects": map[string]any{
			"list": []any{"x"}, "text": "developer", "nothing": nil, "number": 3,
			"developer": builtin("developer", map[string]any{"enabled": true}),
		},
		"bad entries": map[string]any{
			"unknown": map[string]any{"type": "wasm", "name": "unknown", "enabled": true},
			"wrong":   map[string]any{"type": "stdio", "name": 7, "enabled": true},
			"ok":      builtin("developer", map[string]any{"enabled": true}),
		},
		"a list":             []any{map[string]any{"name": "developer"}},
		"a string":           "developer",
		"NaN in a disabled":  map[string]any{"x": map[string]any{"enabled": false, "timeout": math.NaN()}, "developer": builtin("developer", map[string]any{"enabled": true})},
		"infinity in a list": map[string]any{"developer": builtin("developer", map[string]any{"enabled": true, "args": []any{math.Inf(1)}})},
		"empty":              map[string]any{},
		"as config.yaml reads": map[string]any{
			"developer": map[string]any{"enabled": true, "type": "builtin", "name": "developer", "timeout": int64(300), "bundled": true, "description": nil},
			"todo":      map[string]any{"enabled": false, "type": "platform", "name": "todo", "display_name": "Todo", "available_tools": []any{}},
			"Mixed":     map[string]any{"enabled": true, "type": "stdio", "name": "Mixed", "cmd": "x", "args": []any{}, "envs": map[string]any{}, "timeout": 2.5},
		},
	}
	builtins := map[string]extension.BuiltinFactory{"developer": nil, "analyze": nil}
	for name, ext := range cases {
		for _, enabledOnly := range []bool{true, false} {
			var gotLog, wantLog bytes.Buffer
			x := extensionConfigs{cfg: mapConfig{"extensions": ext}, builtins: builtins, log: slog.New(slog.NewTextHandler(&gotLog, &slog.HandlerOptions{ReplaceAttr: dropTime}))}
			got := x.read(enabledOnly)
			x.log = slog.New(slog.NewTextHandler(&wantLog, &slog.HandlerOptions{ReplaceAttr: dropTime}))
			want := roundTripRead(x, enabledOnly)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (enabledOnly %v):\n got %+v\nwant %+v", name, enabledOnly, got, want)
			}
			if gotLog.String() != wantLog.String() {
				t.Errorf("%s (enabledOnly %v): logged\n%s\nwant\n%s", name, enabledOnly, gotLog.String(), wantLog.String())
			}
		}
	}
}

func dropTime(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// BenchmarkConfiguredExtensions: config.yaml's extensions map as goose
// writes it (developer enabled, the platform extensions listed), read as a
// new session reads it.
func BenchmarkConfiguredExtensions(b *testing.B) {
	exts := map[string]any{}
	for i, name := range []string{"developer", "analyze", "todo", "skills", "summon", "extensionmanager", "chatrecall", "apps", "tom", "code_execution", "orchestrator"} {
		exts[name] = map[string]any{"type": "platform", "name": name, "display_name": strings.ToUpper(name), "description": "The " + name + " extension",
			"bundled": true, "enabled": i%3 == 0, "available_tools": []any{}}
	}
	exts["developer"] = map[string]any{"type": "builtin", "name": "developer", "display_name": "Developer", "timeout": int64(300), "bundled": true, "enabled": true, "description": ""}
	x := extensionConfigs{cfg: mapConfig{"extensions": exts}, builtins: map[string]extension.BuiltinFactory{"developer": nil}, log: slog.New(slog.DiscardHandler)}
	b.ReportAllocs()
	for b.Loop() {
		if len(x.configured()) == 0 {
			b.Fatal("nothing configured")
		}
	}
}
