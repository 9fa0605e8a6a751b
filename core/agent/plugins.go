package agent

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/plugins"
	"github.com/goose-acp/goose-acp/core/session"
)

// Notice is something the user is told that is not part of the
// conversation: a SessionStart banner, a project plugin waiting for the
// user's consent, a hook that failed.
type Notice struct {
	// Severity is "info" or "warning" (ACP's notice severities).
	Severity string
	// Title is one line; Detail may add more.
	Title, Detail string
	// Plugin names the plugin the notice is about.
	Plugin string
}

// Text is the notice as one paragraph (a message line, a stderr line): a
// detail that is a sentence of its own follows a period, a lowercase
// reason a colon.
func (n Notice) Text() string {
	switch {
	case n.Detail == "":
		return n.Title
	case unicode.IsUpper([]rune(n.Detail)[0]):
		return n.Title + ". " + n.Detail
	}
	return n.Title + ": " + n.Detail
}

// NoticeEvent tells the user something during a turn that is not part of
// the conversation: a hook that failed, a Stop hook that blocked. Message
// is goose's form of it (an inline system notification, user-visible
// only) for faces that show goose's messages (goosed, run).
type NoticeEvent struct {
	Notice
	Message conversation.Message
}

func (NoticeEvent) isEvent() {}

// sessionPlugins are a loaded session's plugins: those found for its
// working dir, the hooks of the active ones, and its SessionStart.
type sessionPlugins struct {
	found []plugins.Plugin
	hooks *plugins.Hooks
	// started closes once SessionStart's hooks have run; notes (written
	// before) are what discovery and they left for the user, context what
	// Claude Code hooks add for the model.
	started chan struct{}
	notes   []Notice
	context []string
	cancel  context.CancelFunc
	// consent are the notices of project plugins waiting for consent
	// (also in notes): ready as soon as the session is.
	consent []Notice
}

// pluginsFor discovers the plugins of a session's working dir and loads
// the hooks of the active ones. Subagent sessions run no hooks (as goose)
// and get their extensions from their parent.
func pluginsFor(a *Agent, sess session.Session) *sessionPlugins {
	sp := &sessionPlugins{started: make(chan struct{}), cancel: func() {}}
	if a.opts.Plugins == nil || sess.SessionType == session.TypeSubAgent {
		return sp
	}
	found, err := a.opts.Plugins.Discover(sess.WorkingDir)
	if err != nil {
		a.log.Warn("plugin discovery failed", "session", sess.ID, "error", err)
	}
	sp.found = found
	sp.hooks = plugins.LoadHooks(found, sess.WorkingDir, a.log)
	for _, n := range a.opts.Plugins.Notices(found) {
		sp.consent = append(sp.consent, Notice{Severity: "warning", Title: n.Title, Detail: n.Detail, Plugin: n.Plugin.Name})
	}
	sp.notes = append(sp.notes, sp.consent...)
	return sp
}

// withPluginServers adds the active plugins' MCP servers to a session that
// uses the configured extensions, and drops the saved servers of plugins
// that no longer run (a resumed session's list was saved when they did).
func (sp *sessionPlugins) withServers(a *Agent, cfgs []config.ExtensionConfig, configured bool) []config.ExtensionConfig {
	if len(sp.found) == 0 {
		return cfgs
	}
	active := map[string]bool{}
	var servers []config.ExtensionConfig
	for _, p := range sp.found {
		if p.State != plugins.Active {
			continue
		}
		active[p.Name] = true
		if !configured {
			continue
		}
		s, err := p.MCPServers()
		if err != nil {
			a.log.Warn("Failed to load plugin MCP servers; skipping", "plugin", p.Name, "root", p.Root, "error", err)
			continue
		}
		servers = append(servers, s...)
	}
	kept := make([]config.ExtensionConfig, 0, len(cfgs))
	for _, c := range cfgs {
		if plugin, _, ok := strings.Cut(c.Name, ":"); ok && c.Type == config.ExtensionStdio && sp.named(plugin) && !active[plugin] {
			continue
		}
		kept = append(kept, c)
	}
	return mergeConfigs(kept, servers)
}

func (sp *sessionPlugins) named(name string) bool {
	for _, p := range sp.found {
		if p.Name == name {
			return true
		}
	}
	return false
}

// startPlugins runs the session's SessionStart hooks in the background
// (a hook never holds up the session's creation); the first turn waits
// for them, and StartNotices reports what they printed.
func (sp *sessionPlugins) start(a *Agent, s *sessionState) {
	if !sp.hooks.Has(plugins.SessionStart) {
		close(sp.started)
		return
	}
	ctx, cancel := context.WithCancel(a.bgCtx)
	sp.cancel = cancel
	p := plugins.Payload{Event: plugins.SessionStart, SessionID: s.id, WorkingDir: s.wd()}
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		defer close(sp.started)
		out := sp.hooks.Emit(ctx, plugins.SessionStart, p)
		for _, b := range out.Banners {
			sp.notes = append(sp.notes, Notice{Severity: "info", Title: b})
		}
		sp.notes = append(sp.notes, failureNotices(out.Failures)...)
		sp.context = out.Context
	}()
}

// endPlugins runs the session's SessionEnd hooks in the background; the
// agent's Close waits for them.
func (sp *sessionPlugins) end(a *Agent, s *sessionState) {
	if sp == nil {
		return
	}
	sp.cancel()
	if !sp.hooks.Has(plugins.SessionEnd) {
		return
	}
	a.ending.Add(1)
	go func() {
		defer a.ending.Done()
		<-sp.started
		sp.hooks.Emit(context.Background(), plugins.SessionEnd, plugins.Payload{Event: plugins.SessionEnd, SessionID: s.id})
	}()
}

// PluginService is what the faces ask about a session's plugins
// (a.Plugins()).
type PluginService struct{ a *Agent }

// Plugins are the faces' questions about sessions' plugins.
func (a *Agent) Plugins() PluginService { return PluginService{a} }

// StartNotices waits for the session's SessionStart hooks (or ctx) and
// returns what the user should be told as the session starts: project
// plugins waiting for consent (once per plugin), SessionStart banners and
// hooks that failed.
func (svc PluginService) StartNotices(ctx context.Context, sessionID string) ([]Notice, error) {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return nil, err
	}
	select {
	case <-s.plugins.started:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return append([]Notice(nil), s.plugins.notes...), nil
}

// Results are the session's project plugins waiting for the user's
// consent as extension load results (name: the plugin, error: the
// notice), for faces that show extension results (Goose Desktop).
func (svc PluginService) Results(sessionID string) []extension.Result {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return nil
	}
	out := make([]extension.Result, 0, len(s.plugins.consent))
	for _, n := range s.plugins.consent {
		out = append(out, extension.Result{Name: n.Plugin, Success: false, Error: n.Text()})
	}
	return out
}

// Found lists the plugins found for the session's working dir, with their
// states.
func (svc PluginService) Found(sessionID string) ([]plugins.Plugin, error) {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return nil, err
	}
	return append([]plugins.Plugin(nil), s.plugins.found...), nil
}

// failureNotices tells the user about hooks that failed (and failed open).
func failureNotices(fs []plugins.Failure) []Notice {
	out := make([]Notice, 0, len(fs))
	for _, f := range fs {
		out = append(out, Notice{Severity: "warning", Plugin: f.Plugin,
			Title: fmt.Sprintf(HookFailedFormat, f.Plugin, f.Event), Detail: f.Reason})
	}
	return out
}

// HookFailedFormat names a hook that failed: plugin, event.
const HookFailedFormat = "Plugin hook `%s` (%s) failed; continuing without it"

// pluginSkills lists the skill directories of the plugins of a working
// dir (core/extension/platform's skill discovery).
func pluginSkills(env *plugins.Env) func(workingDir string) (project, user []string) {
	return func(workingDir string) (project, user []string) {
		if env == nil {
			return nil, nil
		}
		found, err := env.List(workingDir)
		if err != nil {
			return nil, nil
		}
		return plugins.SkillDirs(found)
	}
}
