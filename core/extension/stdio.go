package extension

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
)

// disallowedEnv is goose's Envs::DISALLOWED_KEYS (compared case-insensitively).
var disallowedEnv = []string{
	"PATH", "PATHEXT", "SystemRoot", "windir",
	"LD_LIBRARY_PATH", "LD_PRELOAD", "LD_AUDIT", "LD_DEBUG", "LD_BIND_NOW", "LD_ASSUME_KERNEL",
	"DYLD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "DYLD_FRAMEWORK_PATH",
	"PYTHONPATH", "PYTHONHOME", "NODE_OPTIONS", "RUBYOPT", "GEM_PATH", "GEM_HOME", "CLASSPATH", "GO111MODULE", "GOROOT",
	"APPINIT_DLLS", "SESSIONNAME", "ComSpec", "TEMP", "TMP", "LOCALAPPDATA", "USERPROFILE", "HOMEDRIVE", "HOMEPATH",
}

// ErrDisallowedEnv is returned when a config tries to override a sensitive
// environment variable.
var ErrDisallowedEnv = errors.New("disallowed environment override")

// ErrMissingSecret is returned when an env_keys entry has no secret.
var ErrMissingSecret = errors.New("missing secret")

// extensionEnv returns envs plus the env_keys secrets, refusing goose's
// disallowed keys with goose's message.
func (m *Manager) extensionEnv(cfg config.ExtensionConfig) (map[string]string, error) {
	out := map[string]string{}
	add := func(k, v string) error {
		for _, d := range disallowedEnv {
			if strings.EqualFold(d, k) {
				return fmt.Errorf("%w: environment variable %s not allowed to be overwritten", ErrDisallowedEnv, k)
			}
		}
		out[k] = v
		return nil
	}
	for k, v := range cfg.Envs {
		if err := add(k, v); err != nil {
			return nil, err
		}
	}
	for _, k := range cfg.EnvKeys {
		v, ok := "", false
		if m.opts.Secret != nil {
			v, ok = m.opts.Secret(k)
		}
		if !ok {
			return nil, fmt.Errorf("%w %s (listed in env_keys)", ErrMissingSecret, k)
		}
		if err := add(k, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

var varRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)
})

// substitute expands ${VAR} and $VAR from vars, then the environment.
func substitute(s string, vars map[string]string, getenv func(string) string) string {
	return varRef().ReplaceAllStringFunc(s, func(ref string) string {
		sm := varRef().FindStringSubmatch(ref)
		name := sm[1] + sm[2]
		if v, ok := vars[name]; ok {
			return v
		}
		return getenv(name)
	})
}

func (m *Manager) stdioTransport(e *extension, name string, args []string) (mcp.Transport, error) {
	cmd, err := m.stdioCommand(e.cfg, name, args)
	if err != nil {
		return nil, err
	}
	return m.commandTransport(e, cmd), nil
}

// stdioCommand is the child a stdio extension runs: the process
// environment, GOOSE_WORKING_DIR and the extension's envs and secrets (in
// key order, so equal configs give equal commands), in the session's
// working dir.
func (m *Manager) stdioCommand(cfg config.ExtensionConfig, name string, args []string) (*exec.Cmd, error) {
	vars, err := m.extensionEnv(cfg)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(name, args...)
	cmd.Env = os.Environ()
	if wd := m.opts.WorkingDir; wd != "" {
		cmd.Dir = wd
		cmd.Env = append(cmd.Env, "GOOSE_WORKING_DIR="+wd)
	}
	if cfg.Cwd != "" {
		cmd.Dir = os.Expand(cfg.Cwd, func(k string) string {
			if v, ok := vars[k]; ok {
				return v
			}
			return os.Getenv(k)
		})
	}
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		cmd.Env = append(cmd.Env, k+"="+vars[k])
	}
	return cmd, nil
}

// commandTransport runs cmd in its own process group, killed when e closes,
// with its stderr logged.
func (m *Manager) commandTransport(e *extension, cmd *exec.Cmd) mcp.Transport {
	stderr := &stderrLog{log: m.log, ext: e.cfg.Name}
	cmd.Stderr = stderr
	setProcessGroup(cmd)
	e.closers = append(e.closers, func() { killProcessGroup(cmd) })
	return &exitTransport{CommandTransport: &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, stderr: stderr}
}

// exitTransport adds the child's stderr to a failed connect, as goose's
// "process quit before initialization" error does.
type exitTransport struct {
	*mcp.CommandTransport
	stderr *stderrLog
}

// ErrUvxMissing is returned for inline_python extensions when uvx is absent.
var ErrUvxMissing = errors.New("inline_python extensions need uvx on PATH (install uv: https://docs.astral.sh/uv/)")

func (m *Manager) inlinePythonTransport(e *extension) (mcp.Transport, error) {
	uvx, err := exec.LookPath("uvx")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUvxMissing, err)
	}
	dir, err := os.MkdirTemp(m.opts.TempDir, "goose-inline-python-")
	if err != nil {
		return nil, fmt.Errorf("inline_python: %w", err)
	}
	e.closers = append(e.closers, func() { _ = os.RemoveAll(dir) })
	script := filepath.Join(dir, Normalize(e.cfg.Name)+".py")
	if err := os.WriteFile(script, []byte(e.cfg.Code), 0o600); err != nil {
		return nil, fmt.Errorf("inline_python: %w", err)
	}
	args := []string{"--with", "mcp"}
	for _, d := range e.cfg.Dependencies {
		args = append(args, "--with", d)
	}
	args = append(args, "python", script)
	return m.stdioTransport(e, uvx, args)
}

// stderrLog logs a child's stderr line by line and keeps the tail.
type stderrLog struct {
	log *slog.Logger
	ext string

	mu   sync.Mutex
	buf  []byte
	tail []byte
}

const stderrTail = 4096

func (s *stderrLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tail = append(s.tail, p...)
	if len(s.tail) > stderrTail {
		s.tail = s.tail[len(s.tail)-stderrTail:]
	}
	s.buf = append(s.buf, p...)
	for {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 {
			break
		}
		s.log.Debug("extension stderr", "extension", s.ext, "line", string(s.buf[:i]))
		s.buf = s.buf[i+1:]
	}
	return len(p), nil
}

func (s *stderrLog) Tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.TrimSpace(string(s.tail))
}
