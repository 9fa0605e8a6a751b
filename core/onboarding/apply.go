package onboarding

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
)

// Target is the goose configuration imports go into.
type Target struct {
	Config    *config.Config
	ConfigDir string
	// SaveDefault makes a provider the default (setup.Setup.SaveDefault).
	SaveDefault func(provider, model string) (string, error)
}

// Defaults is the provider and model an import made the default.
type Defaults struct {
	ProviderID *string `json:"providerId"`
	ModelID    *string `json:"modelId"`
}

// Result is goose's OnboardingImportApplyResponse.
type Result struct {
	Imported         Counts    `json:"imported"`
	Skipped          Counts    `json:"skipped"`
	Warnings         []string  `json:"warnings"`
	ProviderDefaults *Defaults `json:"providerDefaults"`
}

// Apply imports the candidates by id, continuing past one that fails (its
// failure becomes a warning). Imported Claude Desktop servers are enabled
// only when enable is set.
func Apply(t Target, ids []string, enable bool) Result {
	r := Result{Warnings: []string{}}
	for _, id := range ids {
		switch {
		case strings.HasPrefix(id, gooseConfigPrefix):
			path := strings.TrimPrefix(id, gooseConfigPrefix)
			if err := t.applyGooseConfig(path, &r); err != nil {
				r.Warnings = append(r.Warnings, fmt.Sprintf("Skipped Goose configuration import at %s: %v", path, err))
			}
		case strings.HasPrefix(id, claudePrefix):
			path := strings.TrimPrefix(id, claudePrefix)
			if err := t.applyClaude(path, enable, &r); err != nil {
				r.Warnings = append(r.Warnings, fmt.Sprintf("Skipped Claude Desktop tools import at %s: %v", path, err))
			}
		default:
			r.Warnings = append(r.Warnings, "Skipped unknown import candidate: "+id)
		}
	}
	return r
}

func (t Target) applyGooseConfig(path string, r *Result) error {
	src, err := readYAMLMap(path)
	if err != nil {
		return err
	}
	var got Result
	if p := nonBlank(src, "GOOSE_PROVIDER"); p != "" {
		model, err := t.SaveDefault(p, nonBlank(src, "GOOSE_MODEL"))
		if err != nil {
			return err
		}
		got.ProviderDefaults = &Defaults{ProviderID: &p, ModelID: &model}
		got.Imported.Providers = 1
	}
	if exts, ok := src["extensions"].(map[string]any); ok {
		for _, key := range sortedNames(exts) {
			t.importExtension(key, exts[key], &got)
		}
	}
	dir := filepath.Dir(path)
	if n, err := t.importSecrets(filepath.Join(dir, "secrets.yaml")); err != nil {
		return err
	} else if n > 0 && got.Imported.Providers == 0 {
		got.Imported.Providers = 1
	}
	if err := copySkills(filepath.Join(dir, "skills"), filepath.Join(t.ConfigDir, "skills"), &got); err != nil {
		return err
	}
	r.Imported.add(got.Imported)
	r.Skipped.add(got.Skipped)
	r.Warnings = append(r.Warnings, got.Warnings...)
	r.Warnings = append(r.Warnings, "Session history already lives in the Goose data store when available.")
	if got.ProviderDefaults != nil {
		r.ProviderDefaults = got.ProviderDefaults
	}
	return nil
}

// absent: config.yaml has no extension under key (one that does not
// parse still counts as present: an import never replaces it).
func (t Target) absent(key string) bool {
	_, err := t.Config.Extension(key)
	return errors.Is(err, config.ErrNotFound)
}

// importExtension adds one config.yaml extension unless its key exists.
func (t Target) importExtension(key string, raw any, r *Result) {
	if !t.absent(key) {
		r.Skipped.Extensions++
		return
	}
	b, err := json.Marshal(raw)
	var entry config.ExtensionEntry
	if err == nil {
		err = json.Unmarshal(b, &entry)
	}
	if err == nil {
		err = t.Config.SetExtension(entry)
	}
	if err != nil {
		r.Skipped.Extensions++
		r.Warnings = append(r.Warnings, fmt.Sprintf("Skipped extension %q: %v", key, err))
		return
	}
	r.Imported.Extensions++
}

func (t Target) importSecrets(path string) (int, error) {
	m, err := readYAMLMap(path)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	for _, k := range sortedNames(m) {
		if err := t.Config.Secrets().Set(k, m[k]); err != nil {
			return 0, err
		}
	}
	return len(m), nil
}

// copySkills copies skill directories (those holding SKILL.md) that the
// target lacks; symlinks are not followed.
func copySkills(from, to string, r *Result) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		src := filepath.Join(from, e.Name())
		if !e.IsDir() || e.Type()&os.ModeSymlink != 0 {
			continue
		}
		if st, err := os.Stat(filepath.Join(src, "SKILL.md")); err != nil || !st.Mode().IsRegular() {
			continue
		}
		dst := filepath.Join(to, e.Name())
		if _, err := os.Lstat(dst); err == nil {
			r.Skipped.Skills++
			continue
		}
		if err := copyDir(src, dst); err != nil {
			return err
		}
		r.Imported.Skills++
	}
	return nil
}

func copyDir(src, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		s, d := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		switch {
		case e.Type()&os.ModeSymlink != 0:
		case e.IsDir():
			if err := copyDir(s, d); err != nil {
				return err
			}
		case e.Type().IsRegular():
			if err := copyFile(s, d); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

func (t Target) applyClaude(path string, enable bool, r *Result) error {
	servers, warnings, err := readClaude(path)
	if err != nil {
		return err
	}
	var imported int
	timeout := int64(config.DefaultExtensionTimeout)
	for _, name := range sortedNames(servers) {
		s := servers[name]
		if !t.absent(config.NameToKey(name)) {
			r.Skipped.Extensions++
			continue
		}
		entry := config.ExtensionEntry{Enabled: enable, Config: config.ExtensionConfig{Type: config.ExtensionStdio, Name: name,
			Description: "Imported from Claude Desktop", Cmd: *s.Command, Args: s.Args, Envs: s.Env, Timeout: &timeout}}
		if entry.Config.Args == nil {
			entry.Config.Args = []string{}
		}
		if err := t.Config.SetExtension(entry); err != nil {
			return err
		}
		imported++
	}
	r.Imported.Extensions += imported
	r.Warnings = append(r.Warnings, warnings...)
	if !enable && imported > 0 {
		r.Warnings = append(r.Warnings, "Imported Claude Desktop MCP servers are disabled by default.")
	}
	return nil
}
