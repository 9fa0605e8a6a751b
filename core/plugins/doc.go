// Package plugins is goose's Open Plugins support: discovery of the
// user's plugins (<GOOSE_PATH_ROOT or home>/.agents/plugins/<name>) and a
// project's (<project>/.agents/plugins/<name>) with goose's settings.json
// enabledPlugins/disabledPlugins and config.yaml plugins: rules, their
// manifests (plugin.json), skill directories, .mcp.json servers as
// <plugin>:<server> stdio extensions, their lifecycle hooks
// (hooks/hooks.json: load, match, run through internal/proctree, decide),
// install/update/remove from git, and the user's consent to a project's
// plugins.
//
// One rule differs from goose, on purpose: a project plugin runs nothing —
// no hook, no MCP server — until the user enables it in user scope (user
// settings.json enabledPlugins, config.yaml plugins: {<root>: {enabled:
// true}}, or Enable, which is goose-acp plugin enable). A project
// settings.json cannot enable it, a newly found one is written to
// config.yaml disabled, and the consent records a hash of what would run
// (manifests, hooks.json, .mcp.json and the files their commands name under
// ${PLUGIN_ROOT}), so a changed plugin waits for consent again. Its skills
// are offered all along: they are text the model reads.
//
// With GOOSE_CLAUDE_HOOKS=true, Claude Code's settings.json hooks
// (~/.claude/settings.json, .claude/settings.json,
// .claude/settings.local.json) run too, matched against Claude's tool names
// and given Claude's payload fields beside goose's (claude.go).
package plugins
