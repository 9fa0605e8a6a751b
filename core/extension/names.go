package extension

import (
	"crypto/rand"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
)

// Separator joins an extension key and a tool name.
const Separator = "__"

// Normalize is goose's extension-name normalisation (name_to_key).
func Normalize(name string) string { return config.NameToKey(name) }

// ToolName returns the prefixed name of tool in extension key.
func ToolName(key, tool string) string { return key + Separator + tool }

// unprefixedKeys are the extensions whose tools the model sees under the
// tools' own names ("shell", not "developer__shell"): goose 1.54's
// PLATFORM_EXTENSIONS entries with unprefixed_tools (platform_extensions/
// mod.rs): analyze, code_execution, developer, skills and summon.
var unprefixedKeys = map[string]bool{
	"analyze": true, "code_execution": true, "developer": true, "skills": true, "summon": true,
}

// Unprefixed reports whether the extension with this config, connected
// under key, exposes its tools under their own names: a builtin or
// platform extension of goose's first-class set, under its own key (one
// renamed on a collision keeps the prefix). Every other extension's tools
// are "<key>__<tool>".
func Unprefixed(cfg config.ExtensionConfig, key string) bool {
	if cfg.Type != config.ExtensionBuiltin && cfg.Type != config.ExtensionPlatform {
		return false
	}
	return unprefixedKeys[key] && Normalize(cfg.Name) == key
}

// publicName is the name the model sees for tool of extension key.
func publicName(cfg config.ExtensionConfig, key, tool string) string {
	if Unprefixed(cfg, key) {
		return tool
	}
	return ToolName(key, tool)
}

// uniqueKey returns key, or key + "_" + 6 random alphanumerics when key is
// taken, as goose does for colliding extension names.
func uniqueKey(key string, taken func(string) bool) string {
	for k := key; ; k = key + "_" + randomSuffix(6) {
		if !taken(k) {
			return k
		}
	}
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func randomSuffix(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alnum[int(b[i])%len(alnum)]
	}
	return string(b)
}

// Resolve finds the tool a name refers to among tools: the tool of that
// public name, else the one tool the name can only mean — the prefixed
// name goose-acp and goose gave a first-class tool before 1.54
// ("developer__shell" for shell, as stored sessions, recipes and
// permission.yaml still say it), or a model's mangling of either
// ("developer.shell", "functions.shell"), as goose 1.54's
// recover_mangled_tool_name accepts. An ambiguous name resolves to nothing.
func Resolve(tools []Tool, name string) (Tool, bool) {
	for _, t := range tools {
		if t.Name == name {
			return t, true
		}
	}
	stripped := strings.TrimSpace(name)
	for _, p := range []string{"functions.", "functions:"} {
		stripped = strings.TrimPrefix(stripped, p)
	}
	var found *Tool
	for i, t := range tools {
		if !t.answersTo(stripped) {
			continue
		}
		if found != nil && found.Name != t.Name {
			return Tool{}, false
		}
		found = &tools[i]
	}
	if found == nil {
		return Tool{}, false
	}
	return *found, true
}

// answersTo reports whether name is another way of naming t.
func (t Tool) answersTo(name string) bool {
	if name == t.Name || name == t.Extension+"."+t.Local || name == ToolName(t.Extension, t.Local) {
		return true
	}
	ext, tool, ok := strings.Cut(t.Name, Separator)
	return ok && name == ext+"."+tool
}
