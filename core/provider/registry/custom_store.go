package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/provider"
)

// DefaultCustomContextLimit is the context limit goose gives the models of
// a provider created from the desktop.
const DefaultCustomContextLimit = 128000

// Errors of the custom provider store.
var (
	ErrCustomNotFound = errkind.New(errkind.NotFound, "custom provider not found")
	ErrInvalidEngine  = errkind.New(errkind.Invalid, "Invalid provider type") // goosed's text
)

// SecretStore keeps a custom provider's API key (config.Secrets fits).
type SecretStore interface {
	Get(key string) (any, error)
	Set(key string, value any) error
	Delete(key string) error
}

// CustomStore writes the custom provider files the registry loads: one
// <dir>/<id>.json per provider (goose's DeclarativeProviderConfig), with
// the API key kept in the secret store as <ID>_API_KEY. It is safe for
// concurrent use; ids are generated under its lock (goose's
// ID_GENERATION_LOCK).
type CustomStore struct {
	dir     string
	secrets SecretStore

	mu sync.Mutex
}

// NewCustomStore returns the store of dir (<config>/custom_providers);
// secrets may be nil when keys cannot be stored (a key then fails).
func NewCustomStore(dir string, secrets SecretStore) *CustomStore {
	return &CustomStore{dir: dir, secrets: secrets}
}

// CustomInput is what a client sets on a custom provider (goosed's
// UpdateCustomProviderRequest). APIKey "" keeps (or stores no) key.
type CustomInput struct {
	Engine            string
	DisplayName       string
	APIURL            string
	APIKey            string
	Models            []string
	SupportsStreaming *bool
	Headers           map[string]string
	RequiresAuth      *bool
	BasePath          *string
	// ReplaceHeaders makes Update write Headers (goose's ACP form edits
	// them); goosed's update keeps the stored ones.
	ReplaceHeaders bool
}

// EngineOf maps the desktop's provider type to a declarative engine.
func EngineOf(t string) (string, error) {
	switch t {
	case "openai_compatible", EngineOpenAI:
		return EngineOpenAI, nil
	case "anthropic_compatible", EngineAnthropic:
		return EngineAnthropic, nil
	case "ollama_compatible", EngineOllama:
		return EngineOllama, nil
	}
	return "", fmt.Errorf("%w: %s", ErrInvalidEngine, t)
}

func modelInfos(names []string) []provider.ModelInfo {
	out := make([]provider.ModelInfo, 0, len(names))
	for _, n := range names {
		out = append(out, provider.ModelInfo{Name: n, ContextLimit: DefaultCustomContextLimit})
	}
	return out
}

// Create writes a new provider with goose's generated id (custom_<display
// name lowercased, spaces as _>, then _1, _2, … when taken).
func (c *CustomStore) Create(in CustomInput) (CustomProvider, error) {
	engine, err := EngineOf(in.Engine)
	if err != nil {
		return CustomProvider{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	id := c.newID(in.DisplayName)
	desc := "Custom " + in.DisplayName + " provider"
	cp := CustomProvider{Name: id, Engine: engine, DisplayName: in.DisplayName, Description: &desc,
		APIKeyEnv: strings.ToUpper(id) + "_API_KEY", BaseURL: in.APIURL, Models: modelInfos(in.Models), Headers: in.Headers,
		SupportsStreaming: in.SupportsStreaming, RequiresAuth: in.RequiresAuth, BasePath: in.BasePath}
	if err := c.setKey(cp, in.APIKey); err != nil {
		return CustomProvider{}, err
	}
	return cp, c.write(cp)
}

// Get reads one provider.
func (c *CustomStore) Get(id string) (CustomProvider, error) {
	if strings.ContainsAny(id, `/\`) || id == "" || id == "." || id == ".." {
		return CustomProvider{}, fmt.Errorf("%w: %s", ErrCustomNotFound, id)
	}
	b, err := os.ReadFile(c.path(id))
	if errors.Is(err, os.ErrNotExist) {
		return CustomProvider{}, fmt.Errorf("%w: %s", ErrCustomNotFound, id)
	}
	if err != nil {
		return CustomProvider{}, err
	}
	var cp CustomProvider
	if err := json.Unmarshal(b, &cp); err != nil {
		return CustomProvider{}, fmt.Errorf("Failed to read provider %s: %w", id, err)
	}
	return cp, nil
}

// Update rewrites a provider from in, keeping its id, key name,
// description and headers (and requires_auth / base_path unless given),
// and replaces its key when one is given.
func (c *CustomStore) Update(id string, in CustomInput) (CustomProvider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cp, err := c.Get(id)
	if err != nil {
		return CustomProvider{}, err
	}
	engine, err := EngineOf(in.Engine)
	if err != nil {
		return CustomProvider{}, err
	}
	if err := c.setKey(cp, in.APIKey); err != nil {
		return CustomProvider{}, err
	}
	cp.Engine, cp.DisplayName, cp.BaseURL, cp.Models, cp.SupportsStreaming = engine, in.DisplayName, in.APIURL, modelInfos(in.Models), in.SupportsStreaming
	if in.RequiresAuth != nil {
		cp.RequiresAuth = in.RequiresAuth
	}
	if in.BasePath != nil {
		cp.BasePath = in.BasePath
	}
	if in.ReplaceHeaders {
		cp.Headers = in.Headers
	}
	return cp, c.write(cp)
}

// Remove deletes a provider's file and its key.
func (c *CustomStore) Remove(id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	cp, err := c.Get(id)
	if err != nil {
		return err
	}
	if c.secrets != nil && cp.APIKeyEnv != "" {
		_ = c.secrets.Delete(cp.APIKeyEnv)
	}
	return os.Remove(c.path(id))
}

// Names are the ids of every custom provider file that parses.
func (c *CustomStore) Names() map[string]bool {
	out := map[string]bool{}
	names, _ := filepath.Glob(filepath.Join(c.dir, "*.json"))
	for _, name := range names {
		var cp CustomProvider
		if b, err := os.ReadFile(name); err == nil && json.Unmarshal(b, &cp) == nil && cp.Name != "" {
			out[cp.Name] = true
		}
	}
	return out
}

func (c *CustomStore) path(id string) string { return filepath.Join(c.dir, id+".json") }

func (c *CustomStore) newID(displayName string) string {
	base := "custom_" + strings.ReplaceAll(strings.ToLower(displayName), " ", "_")
	id := base
	for n := 1; ; n++ {
		if _, err := os.Stat(c.path(id)); errors.Is(err, os.ErrNotExist) {
			return id
		}
		id = base + "_" + strconv.Itoa(n)
	}
}

// HasKey reports whether cp's API key is in the secret store.
func (c *CustomStore) HasKey(cp CustomProvider) bool {
	if cp.APIKeyEnv == "" || c.secrets == nil {
		return false
	}
	_, err := c.secrets.Get(cp.APIKeyEnv)
	return err == nil
}

func (c *CustomStore) setKey(cp CustomProvider, key string) error {
	if key == "" {
		return nil
	}
	if c.secrets == nil {
		return errors.New("no secret store to keep the API key in")
	}
	return c.secrets.Set(cp.APIKeyEnv, key)
}

func (c *CustomStore) write(cp CustomProvider) error {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(cp, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(c.path(cp.Name), b, 0o644)
}
