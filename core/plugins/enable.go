package plugins

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// ErrNotFound is a plugin name no plugin directory has.
var ErrNotFound = errors.New("plugin not found")

// find is the plugin of that name: the project's first, then the user's.
func (e Env) find(name, project string) (Plugin, error) {
	all, err := e.List(project)
	if err != nil {
		return Plugin{}, err
	}
	for _, p := range all {
		if p.Name == name {
			return p, nil
		}
	}
	where := e.UserDir()
	if project != "" {
		where = ProjectDir(project) + " or " + where
	}
	return Plugin{}, fmt.Errorf("%w: no plugin named %q in %s", ErrNotFound, name, where)
}

// Enable is goose-acp plugin enable: it sets the plugin's config.yaml
// entry to enabled and, for a project plugin, records the user's consent
// with the hash of what it runs now. A plugin a settings file disables
// stays disabled: the error says which file to change.
func (e Env) Enable(name, project string) (Plugin, error) {
	p, err := e.find(name, project)
	if err != nil {
		return p, err
	}
	if !e.loadSettings(project).enabled(name) {
		return p, fmt.Errorf("plugin %q is listed in disabledPlugins of a settings.json (%s or %s): remove it there", name,
			e.UserSettingsPath(), filepath.Join(project, ".config", "goose", "settings*.json"))
	}
	if err := e.setConfigEnabled(p.Root, true); err != nil {
		return p, err
	}
	if p.Scope == ScopeProject {
		p.Hash = p.contentHash()
		err := e.updateConsents(func(s *consentStore) bool {
			s.Consents[p.Root] = consentRecord{Name: p.Name, Hash: p.Hash, At: time.Now().UTC()}
			delete(s.Notified, p.Root)
			return true
		})
		if err != nil {
			return p, fmt.Errorf("recording the consent: %w", err)
		}
	}
	p.State = Active
	return p, nil
}

// Disable sets the plugin's config.yaml entry to disabled and forgets a
// project plugin's consent.
func (e Env) Disable(name, project string) (Plugin, error) {
	p, err := e.find(name, project)
	if err != nil {
		return p, err
	}
	if err := e.setConfigEnabled(p.Root, false); err != nil {
		return p, err
	}
	if p.Scope == ScopeProject {
		err := e.updateConsents(func(s *consentStore) bool {
			_, had := s.Consents[p.Root]
			delete(s.Consents, p.Root)
			return had
		})
		if err != nil {
			return p, err
		}
	}
	p.State = Disabled
	return p, nil
}

func (e Env) setConfigEnabled(root string, on bool) error {
	if e.Config == nil {
		return errors.New("plugins: no config.yaml to write")
	}
	configMu.Lock()
	defer configMu.Unlock()
	entries := e.configEntries()
	entries[root] = configEntry{Enabled: on}
	if err := e.Config.Set(ConfigKey, entries); err != nil {
		return fmt.Errorf("writing config.yaml: %w", err)
	}
	return nil
}

// Notice is what the user is told about a project plugin that runs
// nothing: once per plugin root, and again when it changes.
type Notice struct {
	Plugin Plugin
	// Title is the sentence; Detail lists what the plugin would run.
	Title, Detail string
}

// Text is the notice as one paragraph (message lines, stderr).
func (n Notice) Text() string {
	if n.Detail == "" {
		return n.Title
	}
	return n.Title + ". " + n.Detail
}

// Notices are the notices due for plugins (those waiting for consent or
// changed) that the user has not been told about in their current state;
// they are recorded as told.
func (e Env) Notices(plugins []Plugin) []Notice {
	var due []Plugin
	told := e.loadConsents().Notified
	for _, p := range plugins {
		if p.State != AwaitingConsent && p.State != Changed {
			continue
		}
		if told[p.Root] != string(p.State)+" "+p.Hash {
			due = append(due, p)
		}
	}
	if len(due) == 0 {
		return nil
	}
	if e.consentPath() != "" {
		err := e.updateConsents(func(s *consentStore) bool {
			for _, p := range due {
				s.Notified[p.Root] = string(p.State) + " " + p.Hash
			}
			return true
		})
		if err != nil {
			e.log().Warn("cannot record the plugin notices", "error", err)
		}
	}
	out := make([]Notice, 0, len(due))
	for _, p := range due {
		out = append(out, p.Notice())
	}
	return out
}

// Notice is the plugin's notice in its current state.
func (p Plugin) Notice() Notice {
	dir := filepath.Dir(filepath.Dir(filepath.Dir(p.Root)))
	if p.claude != nil {
		dir = filepath.Dir(p.Root)
	}
	title := fmt.Sprintf("Project plugin `%s` in `%s` is disabled until you enable it: `goose-acp plugin enable %s`", p.Name, dir, p.Name)
	if p.State == Changed {
		title = fmt.Sprintf("Project plugin `%s` in `%s` changed since you enabled it and is disabled until you enable it again: `goose-acp plugin enable %s`", p.Name, dir, p.Name)
	}
	return Notice{Plugin: p, Title: title, Detail: p.WouldRun()}
}

// WouldRun says what the plugin runs when enabled: its hook events and
// its MCP servers' commands; "" when it runs nothing.
func (p Plugin) WouldRun() string {
	var parts []string
	if evs := p.HookEvents(); len(evs) > 0 {
		parts = append(parts, "hooks on "+strings.Join(evs, ", "))
	}
	if servers, err := p.MCPServers(); err == nil {
		for _, s := range servers {
			parts = append(parts, fmt.Sprintf("MCP server `%s` (`%s`)", s.Name, strings.TrimSpace(s.Cmd+" "+strings.Join(s.Args, " "))))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "It would run " + strings.Join(parts, "; ") + "."
}

// HookEvents are the events the plugin has hooks for, sorted.
func (p Plugin) HookEvents() []string {
	files := p.claude
	if files == nil {
		files = []string{filepath.Join(p.Root, "hooks", "hooks.json")}
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var v struct {
			Hooks map[string]json.RawMessage `json:"hooks"`
		}
		if json.Unmarshal(b, &v) != nil {
			continue
		}
		for ev := range v.Hooks {
			if knownEvents[Event(ev)] && !slices.Contains(out, ev) {
				out = append(out, ev)
			}
		}
	}
	sort.Strings(out)
	return out
}
