// Package config owns goose's on-disk configuration: the config, data and
// state paths; config.yaml layering (system file, GOOSE_ADDITIONAL_CONFIG_FILES,
// user file) with uppercase environment overrides; atomic, locked writes
// (temp file + rename under config.lock, one symlink hop); the extensions
// map, with goose's migration that lists every built-in platform extension
// (Options.PlatformExtensions: in memory on reads, in the user file on
// writes); secrets (OS keyring entry goose/secrets or secrets.yaml); and
// permission.yaml (under permission.lock). Everything is read through an
// injected getenv so tests never touch the real environment.
//
// Unlike goose, a config.yaml that does not parse is an error naming the
// file and line, and is never overwritten.
package config
