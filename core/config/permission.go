package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// PermissionLevel is a per-tool decision stored in permission.yaml.
type PermissionLevel string

const (
	AlwaysAllow PermissionLevel = "always_allow"
	AskBefore   PermissionLevel = "ask_before"
	NeverAllow  PermissionLevel = "never_allow"
)

// Valid reports whether l is one of the three levels.
func (l PermissionLevel) Valid() bool {
	return l == AlwaysAllow || l == AskBefore || l == NeverAllow
}

// Sections of permission.yaml.
const (
	permissionUserSection  = "user"
	permissionSmartSection = "smart_approve"
	// PermissionFileName and permissionLockName live in the config dir.
	PermissionFileName = "permission.yaml"
	permissionLockName = "permission.lock"
)

// ErrCorruptPermissions marks a permission.yaml that does not parse.
var ErrCorruptPermissions = errors.New("config: corrupt permission.yaml")

// corruptPermissionsError carries goose's exact message and the parse error.
type corruptPermissionsError struct {
	path  string
	cause error
}

func (e *corruptPermissionsError) Error() string {
	return fmt.Sprintf("Corrupted permission config at %s. Fix or remove the file to continue.", e.path)
}

func (e *corruptPermissionsError) Unwrap() []error { return []error{ErrCorruptPermissions, e.cause} }

// permissionLists is one section: tool names per level.
type permissionLists struct {
	AlwaysAllow []string `yaml:"always_allow"`
	AskBefore   []string `yaml:"ask_before"`
	NeverAllow  []string `yaml:"never_allow"`
}

// level applies goose's precedence: never_allow > always_allow > ask_before.
func (s *permissionLists) level(tool string) (PermissionLevel, bool) {
	switch {
	case slices.Contains(s.NeverAllow, tool):
		return NeverAllow, true
	case slices.Contains(s.AlwaysAllow, tool):
		return AlwaysAllow, true
	case slices.Contains(s.AskBefore, tool):
		return AskBefore, true
	}
	return "", false
}

func (s *permissionLists) remove(match func(string) bool) {
	s.AlwaysAllow = slices.DeleteFunc(s.AlwaysAllow, match)
	s.AskBefore = slices.DeleteFunc(s.AskBefore, match)
	s.NeverAllow = slices.DeleteFunc(s.NeverAllow, match)
}

func (s *permissionLists) set(tool string, l PermissionLevel) {
	s.remove(func(p string) bool { return p == tool })
	switch l {
	case AlwaysAllow:
		s.AlwaysAllow = append(s.AlwaysAllow, tool)
	case AskBefore:
		s.AskBefore = append(s.AskBefore, tool)
	case NeverAllow:
		s.NeverAllow = append(s.NeverAllow, tool)
	}
}

// normalize makes empty lists encode as [] like goose's serde output.
func (s *permissionLists) normalize() {
	for _, l := range []*[]string{&s.AlwaysAllow, &s.AskBefore, &s.NeverAllow} {
		if *l == nil {
			*l = []string{}
		}
	}
}

// Permissions is permission.yaml: the user's per-tool choices and the
// smart-approve cache. Every read goes back to the file, so edits by goose or
// another goose-acp process are seen at once; every write re-reads the file
// under permission.lock before changing it.
type Permissions struct {
	path string
	lock string
	mu   sync.Mutex
}

// OpenPermissions opens the permission file at path, creating its directory.
// A file that exists but does not parse is refused (goose panics), so a
// damaged file never silently grants or loses decisions.
func OpenPermissions(path string) (*Permissions, error) {
	p := &Permissions{path: path, lock: filepath.Join(filepath.Dir(path), permissionLockName)}
	if _, err := os.Stat(path); os.IsNotExist(err) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("config: create config dir: %w", err)
		}
		return p, nil
	}
	if _, err := p.read(); err != nil {
		return nil, err
	}
	return p, nil
}

// Path returns the permission file's path.
func (p *Permissions) Path() string { return p.path }

// User returns the user's level for tool. If the file cannot be read or
// parsed it answers NeverAllow (fail closed).
func (p *Permissions) User(tool string) (PermissionLevel, bool) {
	return p.lookup(permissionUserSection, tool)
}

// Smart returns the cached smart-approve level for tool, failing closed like
// User.
func (p *Permissions) Smart(tool string) (PermissionLevel, bool) {
	return p.lookup(permissionSmartSection, tool)
}

func (p *Permissions) lookup(section, tool string) (PermissionLevel, bool) {
	m, err := p.read()
	if err != nil {
		return NeverAllow, true
	}
	s, ok := m[section]
	if !ok || s == nil {
		return "", false
	}
	return s.level(tool)
}

// SetUser records the user's level for tool, replacing any earlier one.
func (p *Permissions) SetUser(tool string, l PermissionLevel) error {
	return p.setLevel(permissionUserSection, tool, l)
}

// SetSmart caches a smart-approve level for tool.
func (p *Permissions) SetSmart(tool string, l PermissionLevel) error {
	return p.setLevel(permissionSmartSection, tool, l)
}

func (p *Permissions) setLevel(section, tool string, l PermissionLevel) error {
	if !l.Valid() {
		return fmt.Errorf("config: invalid permission level %q", l)
	}
	return p.modify(func(m map[string]*permissionLists) {
		s := m[section]
		if s == nil {
			s = &permissionLists{}
			m[section] = s
		}
		s.set(tool, l)
	})
}

// RemoveExtension drops every "<ext>__*" entry from all sections. An empty
// name removes nothing.
func (p *Permissions) RemoveExtension(ext string) error {
	if ext == "" {
		return nil
	}
	prefix := ext + "__"
	return p.modify(func(m map[string]*permissionLists) {
		for _, s := range m {
			if s != nil {
				s.remove(func(name string) bool { return strings.HasPrefix(name, prefix) })
			}
		}
	})
}

// Snapshot returns the effective level of every listed tool in the user and
// smart_approve sections.
func (p *Permissions) Snapshot() (user, smart map[string]PermissionLevel, err error) {
	m, err := p.read()
	if err != nil {
		return nil, nil, err
	}
	return flatten(m[permissionUserSection]), flatten(m[permissionSmartSection]), nil
}

func flatten(s *permissionLists) map[string]PermissionLevel {
	out := map[string]PermissionLevel{}
	if s == nil {
		return out
	}
	for _, list := range [][]string{s.AskBefore, s.AlwaysAllow, s.NeverAllow} {
		for _, tool := range list {
			out[tool], _ = s.level(tool)
		}
	}
	return out
}

// read parses the file under a shared lock (when a lock file exists). A
// missing file is an empty one.
func (p *Permissions) read() (map[string]*permissionLists, error) {
	l, err := lockShared(p.lock)
	if err != nil {
		return nil, err
	}
	defer l.unlock()
	return p.load()
}

func (p *Permissions) load() (map[string]*permissionLists, error) {
	data, err := os.ReadFile(p.path)
	if os.IsNotExist(err) {
		return map[string]*permissionLists{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config: read %s: %w", p.path, err)
	}
	m := map[string]*permissionLists{}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, &corruptPermissionsError{path: p.path, cause: err}
	}
	if m == nil {
		m = map[string]*permissionLists{}
	}
	return m, nil
}

// modify re-reads the file under the exclusive lock, applies change and
// writes the result atomically. A corrupt file is left untouched.
func (p *Permissions) modify(change func(map[string]*permissionLists)) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	l, err := lockExclusive(p.lock)
	if err != nil {
		return err
	}
	defer l.unlock()
	m, err := p.load()
	if err != nil {
		return err
	}
	change(m)
	for _, s := range m {
		if s != nil {
			s.normalize()
		}
	}
	data, err := encodeYAML(m)
	if err != nil {
		return fmt.Errorf("config: encode permissions: %w", err)
	}
	return writeFileAtomic(p.path, data, 0o644)
}
