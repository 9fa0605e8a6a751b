package config

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
)

// Paths are goose's three directories. A user can point goose-acp at an
// existing goose installation and both read the same files.
type Paths struct {
	Config string
	Data   string
	State  string
}

// ErrNoHome means neither GOOSE_PATH_ROOT nor a home directory is known.
var ErrNoHome = errors.New("config: goose requires a home dir (or an absolute GOOSE_PATH_ROOT)")

// ResolvePaths resolves the directories for this OS from getenv and the
// user's home directory, as goose's Paths does:
//   - GOOSE_PATH_ROOT (absolute) → $ROOT/config, $ROOT/data, $ROOT/state;
//   - Linux and macOS → XDG: $XDG_CONFIG_HOME/goose (~/.config/goose),
//     $XDG_DATA_HOME/goose (~/.local/share/goose), $XDG_STATE_HOME/goose
//     (~/.local/state/goose); relative XDG values are ignored;
//   - Windows → %APPDATA%\Block\goose\config and …\data; state is data.
func ResolvePaths(getenv func(string) string, home string) (Paths, error) {
	return resolvePaths(runtime.GOOS, getenv, home)
}

func resolvePaths(goos string, getenv func(string) string, home string) (Paths, error) {
	join := pathJoiner(goos)
	if root := getenv("GOOSE_PATH_ROOT"); root != "" && isAbs(goos, root) {
		return Paths{Config: join(root, "config"), Data: join(root, "data"), State: join(root, "state")}, nil
	}
	if goos == "windows" {
		appData := getenv("APPDATA")
		if !isAbs(goos, appData) {
			if home == "" {
				return Paths{}, ErrNoHome
			}
			appData = join(home, "AppData", "Roaming")
		}
		base := join(appData, "Block", "goose")
		return Paths{Config: join(base, "config"), Data: join(base, "data"), State: join(base, "data")}, nil
	}
	xdg := func(env string, fallback ...string) (string, error) {
		if v := getenv(env); isAbs(goos, v) {
			return join(v, "goose"), nil
		}
		if home == "" {
			return "", ErrNoHome
		}
		return join(append(append([]string{home}, fallback...), "goose")...), nil
	}
	var p Paths
	var err error
	if p.Config, err = xdg("XDG_CONFIG_HOME", ".config"); err != nil {
		return Paths{}, err
	}
	if p.Data, err = xdg("XDG_DATA_HOME", ".local", "share"); err != nil {
		return Paths{}, err
	}
	if p.State, err = xdg("XDG_STATE_HOME", ".local", "state"); err != nil {
		return Paths{}, err
	}
	return p, nil
}

// File names inside the directories.
const (
	ConfigFileName  = "config.yaml"
	SecretsFileName = "secrets.yaml"
)

// ConfigFile is the user's config.yaml.
func (p Paths) ConfigFile() string { return filepath.Join(p.Config, ConfigFileName) }

// SecretsFile is secrets.yaml, used when the keyring is off.
func (p Paths) SecretsFile() string { return filepath.Join(p.Config, SecretsFileName) }

// PermissionFile is permission.yaml.
func (p Paths) PermissionFile() string { return filepath.Join(p.Config, PermissionFileName) }

// SessionsDB is goose's session database.
func (p Paths) SessionsDB() string { return filepath.Join(p.Data, "sessions", "sessions.db") }

// LogsDir is where goose writes its logs.
func (p Paths) LogsDir() string { return filepath.Join(p.State, "logs") }

// SystemConfigFile is the machine-wide config.yaml read before the user's:
// /etc/goose/config.yaml, or %PROGRAMDATA%\goose\config.yaml on Windows.
func SystemConfigFile(getenv func(string) string) string {
	return systemConfigFile(runtime.GOOS, getenv)
}

func systemConfigFile(goos string, getenv func(string) string) string {
	if goos != "windows" {
		return "/etc/goose/config.yaml"
	}
	dir := getenv("PROGRAMDATA")
	if dir == "" {
		dir = `C:\ProgramData`
	}
	return pathJoiner(goos)(dir, "goose", "config.yaml")
}

// pathJoiner joins with the target OS's separator, so the Windows layout
// can be tested anywhere.
func pathJoiner(goos string) func(...string) string {
	if goos != "windows" || runtime.GOOS == "windows" {
		return filepath.Join
	}
	return func(parts ...string) string {
		out := strings.TrimRight(parts[0], `\/`)
		for _, p := range parts[1:] {
			out += `\` + strings.Trim(p, `\/`)
		}
		return out
	}
}

func isAbs(goos, p string) bool {
	if goos != "windows" {
		return strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, `\\`) {
		return true
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}
