package agent

import (
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/platform"
)

// platforms returns the platform extension factories for a session:
// goose's todo, extensionmanager, chatrecall, tom, skills, summon,
// summarize (and apps / code_execution, which say why they cannot run),
// then Options.Platforms.
func (a *Agent) platforms(s *sessionState) map[string]extension.PlatformFactory {
	out := platform.Defaults(a.deps(s))
	for k, f := range a.opts.Platforms {
		out[k] = f
	}
	return out
}

// deps are what the platform extensions get from the agent.
func (a *Agent) deps(s *sessionState) platform.Deps {
	return platform.Deps{
		Store:       a.opts.Store,
		SessionType: s.typ,
		Clock:       a.opts.Clock,
		Getenv:      a.opts.Getenv,
		Catalog:     a.exts.catalog,
		OnChange: func() {
			_ = a.saveSessionState(a.bgCtx, s)
		},
		Home:         a.cfg.home(),
		ConfigDir:    a.opts.ConfigDir,
		Config:       a.opts.Config.Get,
		PluginSkills: pluginSkills(a.opts.Plugins),
		Agent:        hooks{a},
	}
}
