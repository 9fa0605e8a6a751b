package diagnostics

import (
	"bufio"
	"os"
	"runtime"
	"sort"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
)

// SystemInfo is goose's SystemInfo (snake_case, as goosed answers it).
type SystemInfo struct {
	AppVersion        string   `json:"app_version"`
	OS                string   `json:"os"`
	OSVersion         string   `json:"os_version"`
	Architecture      string   `json:"architecture"`
	Provider          *string  `json:"provider"`
	Model             *string  `json:"model"`
	EnabledExtensions []string `json:"enabled_extensions"`
}

// System describes this machine and, from cfg (may be nil), the default
// provider, model and enabled extensions.
func System(version string, cfg *config.Config) SystemInfo {
	info := SystemInfo{AppVersion: version, OS: rustOS(runtime.GOOS), OSVersion: osVersion(),
		Architecture: rustArch(runtime.GOARCH), EnabledExtensions: []string{}}
	if cfg == nil {
		return info
	}
	if v, err := cfg.GetString("GOOSE_PROVIDER"); err == nil {
		info.Provider = &v
	}
	if v, err := cfg.GetString("GOOSE_MODEL"); err == nil {
		info.Model = &v
	}
	entries, _ := cfg.Extensions()
	for _, e := range entries {
		if e.Enabled {
			info.EnabledExtensions = append(info.EnabledExtensions, e.Config.Name)
		}
	}
	sort.Strings(info.EnabledExtensions)
	return info
}

// rustOS and rustArch give std::env::consts names.
func rustOS(goos string) string {
	if goos == "darwin" {
		return "macos"
	}
	return goos
}

func rustArch(goarch string) string {
	switch goarch {
	case "amd64":
		return "x86_64"
	case "arm64":
		return "aarch64"
	case "386":
		return "x86"
	}
	return goarch
}

// osVersion reads VERSION_ID from /etc/os-release where there is one.
func osVersion() string {
	f, err := os.Open("/etc/os-release")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VERSION_ID="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return "unknown"
}
