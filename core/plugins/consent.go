package plugins

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
)

// ConsentFile is goose-acp's record of the project plugins a user enabled
// (and of the ones the user was told about), in goose's config directory.
const ConsentFile = "plugin-consent.json"

type consentRecord struct {
	Name string    `json:"name"`
	Hash string    `json:"hash"`
	At   time.Time `json:"enabled_at"`
}

type consentStore struct {
	// Consents are keyed by plugin root.
	Consents map[string]consentRecord `json:"consents"`
	// Notified maps a plugin root to the state and hash the user was last
	// told about ("awaiting_consent sha256:…").
	Notified map[string]string `json:"notified"`
}

// consentMu serialises this process's read-modify-write of the record.
var consentMu sync.Mutex

func (e Env) consentPath() string {
	if e.ConfigDir == "" {
		return ""
	}
	return filepath.Join(e.ConfigDir, ConsentFile)
}

func (e Env) loadConsents() *consentStore {
	s := &consentStore{Consents: map[string]consentRecord{}, Notified: map[string]string{}}
	path := e.consentPath()
	if path == "" {
		return s
	}
	b, err := os.ReadFile(path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			e.log().Warn("cannot read the plugin consent record", "path", path, "error", err)
		}
		return s
	}
	if err := json.Unmarshal(b, s); err != nil {
		e.log().Warn("the plugin consent record does not parse; treating every project plugin as not enabled", "path", path, "error", err)
		return &consentStore{Consents: map[string]consentRecord{}, Notified: map[string]string{}}
	}
	if s.Consents == nil {
		s.Consents = map[string]consentRecord{}
	}
	if s.Notified == nil {
		s.Notified = map[string]string{}
	}
	return s
}

// updateConsents applies change to the record on disk under the process
// lock and writes it atomically.
func (e Env) updateConsents(change func(*consentStore) bool) error {
	path := e.consentPath()
	if path == "" {
		return errors.New("plugins: no config directory to record the consent in")
	}
	consentMu.Lock()
	defer consentMu.Unlock()
	s := e.loadConsents()
	if !change(s) {
		return nil
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(path, append(b, '\n'), 0o600)
}

// state decides a project plugin's state: without consent it waits; with
// consent and a recorded hash it runs only while the hash matches. A
// consent given by hand (settings.json or config.yaml) without a record
// records the plugin as it is now.
func (s *consentStore) state(p Plugin, consented bool) State {
	if !consented {
		return AwaitingConsent
	}
	rec, ok := s.Consents[p.Root]
	if !ok {
		return Active
	}
	if rec.Hash != p.Hash {
		return Changed
	}
	return Active
}

// recordFirstSight records the hash of project plugins that are Active
// through a consent given by hand, so a later change is noticed.
func (e Env) recordFirstSight(plugins []Plugin) {
	var fresh []Plugin
	current := e.loadConsents()
	for _, p := range plugins {
		if p.Scope == ScopeProject && p.State == Active {
			if _, ok := current.Consents[p.Root]; !ok {
				fresh = append(fresh, p)
			}
		}
	}
	if len(fresh) == 0 || e.consentPath() == "" {
		return
	}
	err := e.updateConsents(func(s *consentStore) bool {
		for _, p := range fresh {
			s.Consents[p.Root] = consentRecord{Name: p.Name, Hash: p.Hash, At: time.Now().UTC()}
		}
		return true
	})
	if err != nil {
		e.log().Warn("cannot record the enabled project plugins", "error", err)
	}
}

// definitionFiles are the files that say what a plugin runs.
var definitionFiles = []string{
	".goose-plugin/plugin.json", ".plugin/plugin.json", "plugin.json",
	"hooks/hooks.json", ".mcp.json",
}

// rootRef finds ${PLUGIN_ROOT}/… and $PLUGIN_ROOT/… paths in a command.
var rootRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$(?:\{PLUGIN_ROOT\}|PLUGIN_ROOT)/([^\s'"` + "`" + `;|&<>()$]+)`)
})

// ContentHash hashes what a plugin would run: its manifests, hooks.json,
// .mcp.json (and the MCP config files its manifest names), and every file
// those name under ${PLUGIN_ROOT}. A missing file hashes as absent, so
// adding one changes the hash too. Files a hook writes elsewhere in the
// plugin (logs) do not change it.
func ContentHash(root string) string {
	files := append([]string(nil), definitionFiles...)
	if m, err := readManifest(root); err == nil {
		if paths, err := mcpConfigPaths(root, m.MCPServers); err == nil {
			for _, p := range paths {
				if rel, err := filepath.Rel(root, p); err == nil {
					files = append(files, filepath.ToSlash(rel))
				}
			}
		}
	}
	return hashFiles(root, files, rootRef())
}

// hashFiles hashes the named files under root and the files their text
// refers to through ref (one level).
func hashFiles(root string, files []string, ref *regexp.Regexp) string {
	contents := map[string][]byte{}
	read := func(rel string) []byte {
		rel = filepath.ToSlash(filepath.Clean(rel))
		if strings.HasPrefix(rel, "../") || rel == ".." || filepath.IsAbs(rel) {
			return nil
		}
		if b, ok := contents[rel]; ok {
			return b
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			b = nil
		}
		contents[rel] = b
		return b
	}
	for _, f := range files {
		b := read(f)
		if ref == nil || b == nil {
			continue
		}
		for _, m := range ref.FindAllSubmatch(b, -1) {
			read(string(m[1]))
		}
	}
	names := make([]string, 0, len(contents))
	for n := range contents {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		b := contents[n]
		if b == nil {
			fmt.Fprintf(h, "%s\x00absent\x00", n)
			continue
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(b))
		h.Write(b)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
