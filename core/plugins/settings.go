package plugins

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
)

// settingsFile is the Open Plugins settings format
// ({"enabledPlugins": [...], "disabledPlugins": [...]}).
type settingsFile struct {
	Enabled  []string `json:"enabledPlugins"`
	Disabled []string `json:"disabledPlugins"`
}

// scopedSettings are the settings files in goose's precedence: local,
// project, user (a nil entry is a file that does not exist).
type scopedSettings struct {
	local, project, user *settingsFile
}

// UserSettingsPath is the user's settings.json: under GOOSE_PATH_ROOT when
// set, else under home (goose: <root or ~>/.config/goose/settings.json).
func (e Env) UserSettingsPath() string {
	if e.base() == "" {
		return ""
	}
	return filepath.Join(e.base(), ".config", "goose", "settings.json")
}

// ProjectSettingsPaths are a project's settings.json and settings.local.json.
func ProjectSettingsPaths(project string) (shared, local string) {
	dir := filepath.Join(project, ".config", "goose")
	return filepath.Join(dir, "settings.json"), filepath.Join(dir, "settings.local.json")
}

func (e Env) loadSettings(project string) scopedSettings {
	var s scopedSettings
	s.user = e.readSettings(e.UserSettingsPath())
	if project != "" {
		shared, local := ProjectSettingsPaths(project)
		s.project = e.readSettings(shared)
		s.local = e.readSettings(local)
	}
	return s
}

func (e Env) readSettings(path string) *settingsFile {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			e.log().Warn("failed to read plugin settings", "path", path, "error", err)
		}
		return nil
	}
	var f settingsFile
	if err := json.Unmarshal(b, &f); err != nil {
		e.log().Warn("failed to read plugin settings", "path", path, "error", err)
		return nil
	}
	return &f
}

// enabled is goose's is_enabled: the first settings file (local, project,
// user) that lists the name decides, a disabled listing first; unlisted
// plugins are enabled.
func (s scopedSettings) enabled(name string) bool {
	for _, f := range []*settingsFile{s.local, s.project, s.user} {
		if f == nil {
			continue
		}
		if slices.Contains(f.Disabled, name) {
			return false
		}
		if slices.Contains(f.Enabled, name) {
			return true
		}
	}
	return true
}

// userEnabled reports the user's own settings.json listing the name in
// enabledPlugins: consent for a project plugin (a project's settings
// files cannot give it).
func (s scopedSettings) userEnabled(name string) bool {
	return s.user != nil && slices.Contains(s.user.Enabled, name)
}
