package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/provider"
)

// DefaultCustomContextLimit is the context limit goose gives the models of
// a provider created from the desktop.
const DefaultCustomContextLimit = 128000

// Engines of a declarative provider file.
const (
	engineOpenAI    = "openai"
	engineAnthropic = "anthropic"
	engineOllama    = "ollama"
)

// declarativeProvider is goose's DeclarativeProviderConfig: the JSON file
// <config>/custom_providers/<name>.json the provider registry loads.
type declarativeProvider struct {
	Name              string               `json:"name"`
	Engine            string               `json:"engine"`
	DisplayName       string               `json:"display_name"`
	Description       *string              `json:"description,omitempty"`
	APIKeyEnv         string               `json:"api_key_env"`
	BaseURL           string               `json:"base_url"`
	Models            []provider.ModelInfo `json:"models"`
	Headers           map[string]string    `json:"headers,omitempty"`
	TimeoutSeconds    *int                 `json:"timeout_seconds,omitempty"`
	SupportsStreaming *bool                `json:"supports_streaming,omitempty"`
	RequiresAuth      *bool                `json:"requires_auth,omitempty"`
	BasePath          *string              `json:"base_path,omitempty"`
}

// customIDMu serialises id generation (goose's ID_GENERATION_LOCK).
var customIDMu sync.Mutex

func (s *Server) customProvidersDir() string {
	return filepath.Join(s.opts.ConfigDir, "custom_providers")
}

// customProviderRequest is goosed's UpdateCustomProviderRequest.
type customProviderRequest struct {
	Engine            string            `json:"engine"`
	DisplayName       string            `json:"display_name"`
	APIURL            string            `json:"api_url"`
	APIKey            *string           `json:"api_key"`
	Models            []string          `json:"models"`
	SupportsStreaming *bool             `json:"supports_streaming"`
	Headers           map[string]string `json:"headers"`
	RequiresAuth      *bool             `json:"requires_auth"`
	BasePath          *string           `json:"base_path"`
}

func (q customProviderRequest) check() error {
	if q.APIKey == nil {
		return errors.New("missing field `api_key`")
	}
	if q.Models == nil {
		return errors.New("missing field `models`")
	}
	return required("engine", q.Engine, "display_name", q.DisplayName, "api_url", q.APIURL)
}

// engineOf maps the desktop's provider type to a declarative engine.
func engineOf(t string) (string, error) {
	switch t {
	case "openai_compatible", engineOpenAI:
		return engineOpenAI, nil
	case "anthropic_compatible", engineAnthropic:
		return engineAnthropic, nil
	case "ollama_compatible", engineOllama:
		return engineOllama, nil
	}
	return "", badRequest("Invalid provider type: %s", t)
}

func modelInfos(names []string) []provider.ModelInfo {
	out := make([]provider.ModelInfo, 0, len(names))
	for _, n := range names {
		out = append(out, provider.ModelInfo{Name: n, ContextLimit: DefaultCustomContextLimit})
	}
	return out
}

// newCustomID is goose's generate_id: custom_<display name lowercased,
// spaces as _>, with _1, _2, … when the file exists.
func (s *Server) newCustomID(displayName string) string {
	base := "custom_" + strings.ReplaceAll(strings.ToLower(displayName), " ", "_")
	id := base
	for n := 1; ; n++ {
		if _, err := os.Stat(filepath.Join(s.customProvidersDir(), id+".json")); errors.Is(err, os.ErrNotExist) {
			return id
		}
		id = base + "_" + strconv.Itoa(n)
	}
}

func (s *Server) writeCustomProvider(cp declarativeProvider) error {
	if err := os.MkdirAll(s.customProvidersDir(), 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(cp, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.customProvidersDir(), cp.Name+".json"), b, 0o644)
}

func (s *Server) readCustomProvider(id string) (declarativeProvider, error) {
	var cp declarativeProvider
	if strings.ContainsAny(id, `/\`) || id == "" || id == "." || id == ".." {
		return cp, notFound("Provider not found: %s", id)
	}
	b, err := os.ReadFile(filepath.Join(s.customProvidersDir(), id+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return cp, notFound("Provider not found: %s", id)
	}
	if err != nil {
		return cp, err
	}
	if err := json.Unmarshal(b, &cp); err != nil {
		return cp, errorf(http.StatusInternalServerError, "Failed to read provider %s: %w", id, err)
	}
	return cp, nil
}

// createCustomProvider writes <config>/custom_providers/<id>.json and
// stores the API key as the secret <ID>_API_KEY.
func (s *Server) createCustomProvider(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	var q customProviderRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	engine, err := engineOf(q.Engine)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	customIDMu.Lock()
	defer customIDMu.Unlock()
	id := s.newCustomID(q.DisplayName)
	desc := "Custom " + q.DisplayName + " provider"
	cp := declarativeProvider{Name: id, Engine: engine, DisplayName: q.DisplayName, Description: &desc,
		APIKeyEnv: strings.ToUpper(id) + "_API_KEY", BaseURL: q.APIURL, Models: modelInfos(q.Models), Headers: q.Headers,
		SupportsStreaming: q.SupportsStreaming, RequiresAuth: q.RequiresAuth, BasePath: q.BasePath}
	if *q.APIKey != "" {
		if err := s.opts.Config.Secrets().Set(cp.APIKeyEnv, *q.APIKey); err != nil {
			s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
			return
		}
	}
	if err := s.writeCustomProvider(cp); err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"provider_name": id})
}

func (s *Server) getCustomProvider(w http.ResponseWriter, r *http.Request) {
	cp, err := s.readCustomProvider(r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if cp.Models == nil {
		cp.Models = []provider.ModelInfo{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"config": cp, "is_editable": true})
}

// updateCustomProvider rewrites the provider (keeping its key name,
// description and headers) and replaces the key when one is given.
func (s *Server) updateCustomProvider(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	var q customProviderRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	id := r.PathValue("id")
	cp, err := s.readCustomProvider(id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	engine, err := engineOf(q.Engine)
	if err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
		return
	}
	if *q.APIKey != "" {
		if err := s.opts.Config.Secrets().Set(cp.APIKeyEnv, *q.APIKey); err != nil {
			s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
			return
		}
	}
	cp.Engine, cp.DisplayName, cp.BaseURL, cp.Models, cp.SupportsStreaming = engine, q.DisplayName, q.APIURL, modelInfos(q.Models), q.SupportsStreaming
	if q.RequiresAuth != nil {
		cp.RequiresAuth = q.RequiresAuth
	}
	if q.BasePath != nil {
		cp.BasePath = q.BasePath
	}
	if err := s.writeCustomProvider(cp); err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
		return
	}
	writeJSON(w, http.StatusOK, "Updated custom provider "+id)
}

// removeCustomProvider deletes the file and the provider's key.
func (s *Server) removeCustomProvider(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	cp, err := s.readCustomProvider(id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.opts.Config != nil && cp.APIKeyEnv != "" {
		_ = s.opts.Config.Secrets().Delete(cp.APIKeyEnv)
	}
	if err := os.Remove(filepath.Join(s.customProvidersDir(), id+".json")); err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
		return
	}
	writeJSON(w, http.StatusOK, "Removed custom provider "+id)
}

// customProviderNames are the providers /config/providers marks Custom.
func (s *Server) customProviderNames() map[string]bool {
	out := map[string]bool{}
	names, _ := filepath.Glob(filepath.Join(s.customProvidersDir(), "*.json"))
	for _, name := range names {
		var cp declarativeProvider
		if b, err := os.ReadFile(name); err == nil && json.Unmarshal(b, &cp) == nil && cp.Name != "" {
			out[cp.Name] = true
		}
	}
	return out
}
