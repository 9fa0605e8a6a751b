package plugins

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// Scope says where a plugin was found.
type Scope string

const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
)

// State is what a discovered plugin may do.
type State string

const (
	// Active plugins run their hooks and MCP servers.
	Active State = "active"
	// AwaitingConsent is a project plugin the user has not enabled in user
	// scope: its skills are offered, nothing of it runs.
	AwaitingConsent State = "awaiting_consent"
	// Changed is a project plugin whose files changed since the user
	// enabled it: like AwaitingConsent until enabled again.
	Changed State = "changed"
	// Disabled plugins are off by a settings file or config.yaml (List
	// only).
	Disabled State = "disabled"
	// Shadowed plugins lost their name to an earlier active plugin (List
	// only).
	Shadowed State = "shadowed"
)

// Plugin is one discovered plugin that no settings file disabled.
type Plugin struct {
	Name  string
	Root  string
	Scope Scope
	State State
	// Hash is the content hash of what the plugin would run (project
	// plugins only).
	Hash string
	// claude lists the settings files of a Claude Code hooks plugin.
	claude []string
}

// Claude reports a plugin made of Claude Code settings hooks.
func (p Plugin) Claude() bool { return p.claude != nil }

func (p Plugin) contentHash() string {
	if p.claude != nil {
		return claudeHash(p.Root)
	}
	return ContentHash(p.Root)
}

// Store reads and writes config.yaml keys.
type Store interface {
	Get(key string) (any, bool)
	Set(key string, value any) error
}

// Env is where plugins and their settings are found.
type Env struct {
	// Home is the user's home directory; PathRoot is GOOSE_PATH_ROOT when
	// it is absolute (it then replaces Home for plugins and settings).
	Home, PathRoot string
	// ConfigDir is goose's config directory (the consent record).
	ConfigDir string
	// Config is config.yaml (its plugins: map); nil reads nothing and
	// writes nothing.
	Config Store
	// Getenv reads the environment (GOOSE_CLAUDE_HOOKS).
	Getenv func(string) string
	Logger *slog.Logger
}

func (e Env) base() string {
	if e.PathRoot != "" {
		return e.PathRoot
	}
	return e.Home
}

// UserDir is where the user's plugins live and plugins are installed.
func (e Env) UserDir() string {
	if e.base() == "" {
		return ""
	}
	return filepath.Join(e.base(), ".agents", "plugins")
}

// ProjectDir is a project's plugin directory.
func ProjectDir(project string) string { return filepath.Join(project, ".agents", "plugins") }

func (e Env) log() *slog.Logger {
	if e.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return e.Logger
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// ConfigKey is config.yaml's map of plugin roots.
const ConfigKey = "plugins"

// configMu serialises this process's read-modify-write of config.yaml's
// plugins map (sessions start concurrently).
var configMu sync.Mutex

type configEntry struct {
	Enabled bool `json:"enabled"`
}

func (e Env) configEntries() map[string]configEntry {
	out := map[string]configEntry{}
	if e.Config == nil {
		return out
	}
	raw, ok := e.Config.Get(ConfigKey)
	if !ok || raw == nil {
		return out
	}
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		e.log().Warn("config.yaml plugins is not a map of {enabled: bool}", "error", err)
		return map[string]configEntry{}
	}
	return out
}

// Discover finds the plugins of the user and of project ("" for none), as
// goose does: every directory under the plugin dirs, minus those a
// settings file disables, project plugins before user ones, then by name;
// config.yaml's plugins map drops the disabled ones and gains every root
// it does not know (written back). Unlike goose, a project plugin is
// Active only with the user's consent (see the package doc), and a new one
// is written disabled. The first Active plugin of a name wins; a project
// plugin that is not Active leaves its name to a user plugin and keeps
// offering its skills.
func (e Env) Discover(project string) ([]Plugin, error) {
	all, err := e.survey(project, true)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, p := range all {
		if p.State != Disabled && p.State != Shadowed {
			out = append(out, p)
		}
	}
	e.recordFirstSight(out)
	return out, nil
}

// List is every plugin of the user and of project with its state,
// disabled and shadowed ones included; it writes nothing.
func (e Env) List(project string) ([]Plugin, error) { return e.survey(project, false) }

// survey finds every candidate and decides its state; with write,
// config.yaml learns the roots it does not know.
func (e Env) survey(project string, write bool) ([]Plugin, error) {
	settings := e.loadSettings(project)
	var found []Plugin
	if project != "" {
		for _, p := range listChildren(ProjectDir(project)) {
			found = append(found, Plugin{Name: p[0], Root: p[1], Scope: ScopeProject})
		}
	}
	for _, p := range listChildren(e.UserDir()) {
		found = append(found, Plugin{Name: p[0], Root: p[1], Scope: ScopeUser})
	}
	found = append(found, e.claudePlugins(project)...)
	if len(found) == 0 {
		return nil, nil
	}
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.Scope != b.Scope {
			return a.Scope == ScopeProject
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Root < b.Root
	})
	enabled, err := e.applyConfig(found, settings, write)
	if err != nil {
		return nil, err
	}
	consents := e.loadConsents()
	activeName := map[string]bool{}
	for i := range found {
		p := &found[i]
		switch {
		case !settings.enabled(p.Name):
			p.State = Disabled
			continue
		case p.Scope == ScopeUser && !enabled[p.Root]:
			p.State = Disabled
			continue
		case p.Scope == ScopeUser:
			p.State = Active
		default:
			p.Hash = p.contentHash()
			p.State = consents.state(*p, enabled[p.Root] || settings.userEnabled(p.Name))
		}
		// Claude's user and project settings hooks both run, as in
		// Claude Code; other names run once.
		if p.State == Active && p.claude == nil {
			if activeName[p.Name] {
				p.State = Shadowed
			}
			activeName[p.Name] = true
		}
	}
	return found, nil
}

// applyConfig reads config.yaml's enabled flag of every plugin that no
// settings file disables and, with write, records the roots it does not
// know: enabled for user plugins (goose), disabled for project plugins
// (they wait for the user's consent). A project plugin's enabled: false
// only withholds consent (its skills stay offered).
func (e Env) applyConfig(plugins []Plugin, settings scopedSettings, write bool) (map[string]bool, error) {
	configMu.Lock()
	defer configMu.Unlock()
	entries := e.configEntries()
	dirty := false
	out := map[string]bool{}
	for _, p := range plugins {
		if !settings.enabled(p.Name) {
			continue
		}
		entry, ok := entries[p.Root]
		if !ok {
			entry = configEntry{Enabled: p.Scope == ScopeUser}
			entries[p.Root] = entry
			dirty = true
		}
		out[p.Root] = entry.Enabled
	}
	if dirty && write && e.Config != nil {
		if err := e.Config.Set(ConfigKey, entries); err != nil {
			return nil, fmt.Errorf("plugins: recording new plugins in config.yaml: %w", err)
		}
	}
	return out, nil
}

// listChildren lists the directories under dir as (name, path).
func listChildren(dir string) [][2]string {
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out [][2]string
	for _, ent := range entries {
		p := filepath.Join(dir, ent.Name())
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			continue
		}
		out = append(out, [2]string{ent.Name(), p})
	}
	return out
}
