package agent

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// settings reads goose's config keys (config.yaml with uppercase env
// overrides, through Options.Config) and the injected environment.
type settings struct {
	r      ConfigReader
	getenv func(string) string
}

// lookup reads a config value as a string.
func (c settings) lookup(key string) (string, bool) {
	v, ok := c.r.Get(key)
	if !ok || v == nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return x, true
	default:
		return fmt.Sprint(x), true
	}
}

func (c settings) float(key string, def float64) float64 {
	s, ok := c.lookup(key)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return def
	}
	return f
}

func (c settings) int(key string, def int) int {
	s, ok := c.lookup(key)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return def
	}
	return n
}

func (c settings) bool(key string) bool {
	s, ok := c.lookup(key)
	if !ok {
		return false
	}
	b, _ := strconv.ParseBool(strings.TrimSpace(s))
	return b
}

// fileOnly reads a key from config.yaml without the environment
// override, which goose checks separately (and earlier).
func (c settings) fileOnly(key string) (string, bool) {
	v, ok := c.lookup(key)
	if !ok || v == "" {
		return "", false
	}
	if env := c.getenv(key); env != "" && env == v {
		return "", false
	}
	return v, true
}

// home is the user's home directory from the injected environment.
func (c settings) home() string {
	if runtime.GOOS == "windows" {
		if h := c.getenv("USERPROFILE"); h != "" {
			return h
		}
	}
	return c.getenv("HOME")
}

// agentsHome is goose's agents home (~/.agents): its AGENTS.md is a
// global hint; "" without a home directory.
func (c settings) agentsHome() string {
	if h := c.home(); h != "" {
		return filepath.Join(h, ".agents")
	}
	return ""
}
