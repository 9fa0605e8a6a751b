package config

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// ErrNotFound means a key is set neither in the environment nor in any
// config file (or secret store). The message is goose's.
var ErrNotFound = errkind.New(errkind.NotFound, "Configuration value not found")

// ErrCorruptConfig marks a config.yaml that does not parse.
var ErrCorruptConfig = errors.New("config: corrupt config file")

// ParseError names the file that failed to parse; the YAML error carries
// the line ("yaml: line 3: …").
type ParseError struct {
	Path string
	Err  error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("config: cannot parse %s: %v", e.Path, e.Err)
}

func (e *ParseError) Unwrap() []error { return []error{ErrCorruptConfig, e.Err} }

// Options configure Open.
type Options struct {
	Paths Paths
	// Getenv reads the environment (required in tests; nil reads nothing).
	// An empty value counts as unset.
	Getenv func(string) string
	// SystemFile overrides the machine-wide config.yaml; "" means the OS
	// default (SystemConfigFile).
	SystemFile string
	// Logger receives warnings (skipped extensions, keyring fallback).
	Logger *slog.Logger
	// PlatformExtensions are the built-in platform extensions every read
	// lists under extensions: (added in memory when missing or stale) and
	// every write stores in the user file, as goose's config migration does.
	// nil disables the migration.
	PlatformExtensions []PlatformExtension
}

// Config is goose's layered config.yaml: the system file, then each file in
// GOOSE_ADDITIONAL_CONFIG_FILES, then the user file; later files override
// earlier ones, and the extensions: and providers: maps are merged per entry
// and then per field. Every read goes back to the files (goose hot-reloads
// the same way); every write goes to the user file.
type Config struct {
	files  []string
	getenv func(string) string
	log    *slog.Logger
	mu     sync.Mutex // serialises this process's writers; the lock file does the rest
	paths  Paths
	// platform feeds goose's platform-extension migration.
	platform []PlatformExtension

	secretsOnce sync.Once
	secrets     Secrets

	cache loadCache
}

// Open builds the layered config and reads it once, so a corrupt file is
// reported at startup with its name and line.
func Open(opts Options) (*Config, error) {
	if opts.Paths.Config == "" {
		return nil, errors.New("config: Options.Paths.Config is empty; resolve it with ResolvePaths")
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	system := opts.SystemFile
	if system == "" {
		system = SystemConfigFile(getenv)
	}
	files := []string{system}
	if extra := getenv("GOOSE_ADDITIONAL_CONFIG_FILES"); extra != "" {
		for _, f := range filepath.SplitList(extra) {
			if f != "" {
				files = append(files, f)
			}
		}
	}
	files = append(files, opts.Paths.ConfigFile())
	c := &Config{files: files, getenv: getenv, log: log, paths: opts.Paths,
		platform: append([]PlatformExtension(nil), opts.PlatformExtensions...)}
	if _, err := c.load(); err != nil {
		return nil, err
	}
	return c, nil
}

// Files returns the layered files, user file last.
func (c *Config) Files() []string { return append([]string(nil), c.files...) }

// Path returns the user file, where writes go.
func (c *Config) Path() string { return c.files[len(c.files)-1] }

// Paths returns the directories the config was opened with.
func (c *Config) Paths() Paths { return c.paths }

// load merges all layers. Missing files are skipped; a file that exists
// but does not parse is an error (goose skips it with a warning, which
// silently drops the user's settings).
//
// The returned map is shared: callers read it and never change it (Get and
// GetAll hand out copies).
func (c *Config) load() (map[string]any, error) {
	stamps := stampFiles(c.files)
	if values, ok := c.cache.get(stamps); ok {
		return values, nil
	}
	merged := map[string]any{}
	for _, path := range c.files {
		layer, err := readLayer(path)
		if err != nil {
			return nil, err
		}
		mergeLayer(merged, layer)
	}
	migrateMerged(merged, c.platform)
	c.cache.put(stamps, merged)
	return merged, nil
}

// readLayer parses one file into a JSON-shaped map; a missing or empty file
// is an empty map.
func readLayer(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config: read %s: %w", path, err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &ParseError{Path: path, Err: err}
	}
	var raw any
	if doc.Kind != 0 {
		jsonScalars(&doc)
		if err := doc.Decode(&raw); err != nil {
			return nil, &ParseError{Path: path, Err: err}
		}
	}
	if raw == nil {
		return map[string]any{}, nil
	}
	m, ok := normalize(raw).(map[string]any)
	if !ok {
		return nil, &ParseError{Path: path, Err: errors.New("the top level is not a mapping of keys to values")}
	}
	return m, nil
}

// jsonScalars keeps values JSON-shaped the way goose's YAML 1.2 reader
// does: dates stay strings (not time.Time) and .inf/.nan stay strings (JSON
// has no such numbers).
func jsonScalars(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode {
		switch n.Tag {
		case "!!timestamp":
			n.Tag = "!!str"
		case "!!float":
			if v := strings.ToLower(strings.TrimLeft(n.Value, "+-")); v == ".inf" || v == ".nan" {
				n.Tag = "!!str"
			}
		}
	}
	for _, c := range n.Content {
		jsonScalars(c)
	}
}

// nestedMergeKeys are merged per entry and then per field across layers.
var nestedMergeKeys = map[string]bool{"extensions": true, "providers": true}

func mergeLayer(base, overlay map[string]any) {
	for k, v := range overlay {
		over, okOver := v.(map[string]any)
		cur, okCur := base[k].(map[string]any)
		if !nestedMergeKeys[k] || !okOver || !okCur {
			base[k] = v
			continue
		}
		for name, entry := range over {
			fields, okFields := entry.(map[string]any)
			existing, okExisting := cur[name].(map[string]any)
			if !okFields || !okExisting {
				cur[name] = entry
				continue
			}
			for f, fv := range fields {
				existing[f] = fv
			}
		}
	}
}

// normalize turns YAML-decoded values into JSON-shaped ones: string-keyed
// maps and int64 integers.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
		return x
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = normalize(e)
		}
		return out
	case []any:
		for i := range x {
			x[i] = normalize(x[i])
		}
		return x
	case int:
		return int64(x)
	case uint64:
		if x <= 1<<63-1 {
			return int64(x)
		}
		return float64(x)
	}
	return v
}
