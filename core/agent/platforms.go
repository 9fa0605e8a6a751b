package agent

import (
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/platform"
)

// platforms returns the platform extension factories for a session:
// goose's todo, extensionmanager and chatrecall, then Options.Platforms.
func (a *Agent) platforms(s *sessionState) map[string]extension.PlatformFactory {
	out := platform.Defaults(platform.Deps{
		Store:   a.opts.Store,
		Clock:   a.opts.Clock,
		Getenv:  a.opts.Getenv,
		Catalog: a.extensionCatalog,
		OnChange: func() {
			_ = a.saveSessionState(a.bgCtx, s)
		},
	})
	for k, f := range a.opts.Platforms {
		out[k] = f
	}
	return out
}
