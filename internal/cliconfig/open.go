package cliconfig

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension/platform"
)

// ResolvePaths is the home directory ($HOME when set, else the OS's) and
// goose's paths under it.
func ResolvePaths(getenv func(string) string) (string, config.Paths, error) {
	home, _ := os.UserHomeDir()
	if h := getenv("HOME"); h != "" {
		home = h
	}
	paths, err := config.ResolvePaths(getenv, home)
	if err != nil {
		return "", config.Paths{}, fmt.Errorf("resolve goose paths: %w", err)
	}
	return home, paths, nil
}

// Opened is goose's configuration as a command opened it.
type Opened struct {
	Home        string
	Paths       config.Paths
	Config      *config.Config
	Permissions *config.Permissions
}

// Open resolves the paths and opens config.yaml (migrated with
// PlatformExtensions) and permission.yaml, so a broken file fails the
// command at once.
func Open(getenv func(string) string, log *slog.Logger) (*Opened, error) {
	home, paths, err := ResolvePaths(getenv)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Open(config.Options{Paths: paths, Getenv: getenv, Logger: log, PlatformExtensions: PlatformExtensions()})
	if err != nil {
		return nil, err
	}
	perms, err := config.OpenPermissions(paths.PermissionFile())
	if err != nil {
		return nil, err
	}
	return &Opened{Home: home, Paths: paths, Config: cfg, Permissions: perms}, nil
}

// PlatformExtensions are the entries goose's config migration keeps in
// config.yaml's extensions map, with goose's default enabled flags.
func PlatformExtensions() []config.PlatformExtension {
	out := []config.PlatformExtension{{
		Name: "developer", DisplayName: "Developer",
		Description: "Write and edit files, and execute shell commands", DefaultEnabled: true,
	}, {
		Name: "analyze", DisplayName: "Analyze",
		Description: "Analyze code structure with tree-sitter: directory overviews, file details, symbol call graphs", DefaultEnabled: true,
	}}
	for _, k := range platform.Known() {
		out = append(out, config.PlatformExtension{
			Name: k.Name, DisplayName: k.DisplayName, Description: k.Description,
			DefaultEnabled: platform.DefaultEnabled(k.Name),
		})
	}
	return out
}
