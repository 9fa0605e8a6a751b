// Package config owns goose's on-disk configuration: the config, data and
// state paths; config.yaml layering with uppercase environment overrides;
// atomic, locked writes; the extensions map; secrets (OS keyring or
// secrets.yaml); and permission.yaml. Everything is read through an injected
// getenv so tests never touch the real environment.
package config
