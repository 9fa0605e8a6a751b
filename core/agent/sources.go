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
func (svc Sources) discoveryDeps() platform.Deps {
	return platform.Deps{Home: svc.a.cfg.home(), ConfigDir: svc.a.opts.ConfigDir, Config: svc.a.opts.Config.Get, Getenv: svc.a.opts.Getenv, PluginSkills: pluginSkills(svc.a.opts.Plugins)}
}

// CommandsFor lists the slash commands of a working dir: a loaded
// session's own (SlashCommands), else /compact, /clear, config.yaml's
// recipe commands and the skills discovered from workingDir.
func (svc Sources) CommandsFor(sessionID, workingDir string) []Command {
	if sessionID != "" {
		if cmds, err := svc.a.SlashCommands(sessionID); err == nil {
			return cmds
		}
	}
	out := []Command{
		{Name: CommandCompact, Description: "Compact the conversation history", Kind: CommandBuiltin},
		{Name: CommandClear, Description: "Clear the conversation history", Kind: CommandBuiltin},
	}
	extra := svc.a.recipeCommandList()
	for _, sk := range svc.discoveryDeps().SessionSkills(workingDir) {
		extra = append(extra, Command{Name: sk.Name, Description: sk.Description, Hint: sk.ArgumentHint(), Kind: CommandSkill})
	}
	sort.Slice(extra, func(i, j int) bool { return extra[i].Name < extra[j].Name })
	return append(out, extra...)
}

// SourcesFor lists summon's sources of a working dir (sub-recipes of a
// loaded session's recipe first, then recipe files and agents).
func (svc Sources) SourcesFor(sessionID, workingDir string) []platform.Source {
	d := svc.discoveryDeps()
	d.Agent = hooks{svc.a}
	return d.SessionSources(sessionID, workingDir)
}

// SkillsFor lists the skills discoverable from a working dir ("" for the
// global ones only).
func (svc Sources) SkillsFor(workingDir string) []platform.Skill {
	return svc.discoveryDeps().SessionSkills(workingDir)
}

// Store is where Desktop's skills and projects are written: the
// user's ~/.agents/skills and <data>/projects.
func (svc Sources) Store() sources.Store {
	return sources.Store{Home: svc.a.cfg.home(), DataDir: svc.a.opts.DataDir}
}
