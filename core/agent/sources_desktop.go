package agent

import (
	"sort"

	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/sources"
)

// What Goose Desktop's "/" and "@" menus offer for a working directory,
// with or without a loaded session.

// discoveryDeps are the platform dependencies discovery needs when no
// session is loaded (no change hook, no session hooks).
func (a *Agent) discoveryDeps() platform.Deps {
	return platform.Deps{Home: a.home(), ConfigDir: a.opts.ConfigDir, Config: a.opts.Config.Get, Getenv: a.opts.Getenv, PluginSkills: a.pluginSkills}
}

// CommandsFor lists the slash commands of a working dir: a loaded
// session's own (SlashCommands), else /compact, /clear, config.yaml's
// recipe commands and the skills discovered from workingDir.
func (a *Agent) CommandsFor(sessionID, workingDir string) []Command {
	if sessionID != "" {
		if cmds, err := a.SlashCommands(sessionID); err == nil {
			return cmds
		}
	}
	out := []Command{
		{Name: CommandCompact, Description: "Compact the conversation history", Kind: CommandBuiltin},
		{Name: CommandClear, Description: "Clear the conversation history", Kind: CommandBuiltin},
	}
	extra := a.recipeCommandList()
	for _, sk := range a.discoveryDeps().SessionSkills(workingDir) {
		extra = append(extra, Command{Name: sk.Name, Description: sk.Description, Hint: sk.ArgumentHint(), Kind: CommandSkill})
	}
	sort.Slice(extra, func(i, j int) bool { return extra[i].Name < extra[j].Name })
	return append(out, extra...)
}

// SourcesFor lists summon's sources of a working dir (sub-recipes of a
// loaded session's recipe first, then recipe files and agents).
func (a *Agent) SourcesFor(sessionID, workingDir string) []platform.Source {
	d := a.discoveryDeps()
	d.Agent = hooks{a}
	return d.SessionSources(sessionID, workingDir)
}

// SkillsFor lists the skills discoverable from a working dir ("" for the
// global ones only).
func (a *Agent) SkillsFor(workingDir string) []platform.Skill {
	return a.discoveryDeps().SessionSkills(workingDir)
}

// SourceStore is where Desktop's skills and projects are written: the
// user's ~/.agents/skills and <data>/projects.
func (a *Agent) SourceStore() sources.Store {
	return sources.Store{Home: a.home(), DataDir: a.opts.DataDir}
}
