package httpapi

import (
	"net/http"

	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// configKeyWire is goosed's ConfigKey (oauth_flow is always present).
type configKeyWire struct {
	Name      string  `json:"name"`
	Required  bool    `json:"required"`
	Secret    bool    `json:"secret"`
	Default   *string `json:"default"`
	OAuthFlow bool    `json:"oauth_flow"`
}

type providerMetadataWire struct {
	Name         string               `json:"name"`
	DisplayName  string               `json:"display_name"`
	Description  string               `json:"description"`
	DefaultModel string               `json:"default_model"`
	KnownModels  []provider.ModelInfo `json:"known_models"`
	ModelDocLink string               `json:"model_doc_link"`
	ConfigKeys   []configKeyWire      `json:"config_keys"`
}

type providerDetails struct {
	Name         string               `json:"name"`
	Metadata     providerMetadataWire `json:"metadata"`
	IsConfigured bool                 `json:"is_configured"`
	ProviderType string               `json:"provider_type"`
}

func metadataWire(m provider.Metadata) providerMetadataWire {
	out := providerMetadataWire{Name: m.Name, DisplayName: m.DisplayName, Description: m.Description,
		DefaultModel: m.DefaultModel, KnownModels: m.KnownModels, ModelDocLink: m.ModelDocLink, ConfigKeys: []configKeyWire{}}
	if out.KnownModels == nil {
		out.KnownModels = []provider.ModelInfo{}
	}
	for _, k := range m.ConfigKeys {
		out.ConfigKeys = append(out.ConfigKeys, configKeyWire{Name: k.Name, Required: k.Required, Secret: k.Secret, Default: k.Default, OAuthFlow: k.OAuth})
	}
	return out
}

func (s *Server) providerList() []provider.Metadata {
	if s.opts.Providers == nil {
		return nil
	}
	return s.opts.Providers()
}

func (s *Server) findProvider(name string) (provider.Metadata, bool) {
	for _, m := range s.providerList() {
		if m.Name == name {
			return m, true
		}
	}
	return provider.Metadata{}, false
}

// providers answers every provider with whether its required keys are set.
func (s *Server) providers(w http.ResponseWriter, r *http.Request) {
	out := []providerDetails{}
	custom := s.customProviderNames()
	for _, m := range s.providerList() {
		typ := "Builtin"
		if custom[m.Name] {
			typ = "Custom"
		}
		out = append(out, providerDetails{Name: m.Name, Metadata: metadataWire(m), IsConfigured: s.isConfigured(m), ProviderType: typ})
	}
	writeJSON(w, http.StatusOK, out)
}

// isConfigured is goose's check_provider_configured: every required key
// without a default is set (env, config.yaml or secret store).
func (s *Server) isConfigured(m provider.Metadata) bool {
	c := s.opts.Config
	if c == nil {
		return false
	}
	for _, k := range m.ConfigKeys {
		if !k.Required || k.Default != nil {
			continue
		}
		var err error
		if k.Secret {
			_, err = c.GetSecret(k.Name)
		} else {
			_, err = c.Get(k.Name)
		}
		if err != nil {
			return false
		}
	}
	return true
}

// newProvider builds a provider with its default (or the given) model.
func (s *Server) newProvider(r *http.Request, name, modelName string) (provider.Provider, error) {
	m, ok := s.findProvider(name)
	if !ok {
		return nil, badRequest("Unknown provider: %s", name)
	}
	if s.opts.NewProvider == nil {
		return nil, errorf(http.StatusServiceUnavailable, "providers are not available in this goose-acp server")
	}
	if modelName == "" {
		modelName = m.DefaultModel
	}
	p, err := s.opts.NewProvider(r.Context(), name, model.Config{ModelName: modelName})
	if err != nil {
		return nil, badRequest("Failed to create provider %s: %w", name, err)
	}
	return p, nil
}

// providerModels fetches the live model list: 400 when the provider is
// not configured, 429 when rate limited.
func (s *Server) providerModels(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	m, ok := s.findProvider(name)
	if !ok {
		s.writeError(w, r, badRequest("Unknown provider: %s", name))
		return
	}
	if !s.isConfigured(m) {
		s.writeError(w, r, badRequest("Provider %s is not configured", name))
		return
	}
	p, err := s.newProvider(r, name, "")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	models, err := p.FetchModels(r.Context())
	if err != nil {
		switch provider.KindOf(err) {
		case provider.KindRateLimit:
			s.writeError(w, r, errorf(http.StatusTooManyRequests, "%w", err))
		case provider.KindAuth, provider.KindRequest:
			s.writeError(w, r, badRequest("%w", err))
		default:
			s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
		}
		return
	}
	if models == nil {
		models = []string{}
	}
	writeJSON(w, http.StatusOK, models)
}

type setProviderRequest struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

func (q setProviderRequest) check() error { return required("provider", q.Provider, "model", q.Model) }

// setProvider validates provider+model, then writes GOOSE_PROVIDER and
// GOOSE_MODEL to config.yaml.
func (s *Server) setProvider(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	var q setProviderRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, err := s.newProvider(r, q.Provider, q.Model); err != nil {
		s.writeError(w, r, err)
		return
	}
	for _, kv := range [][2]string{{"GOOSE_PROVIDER", q.Provider}, {"GOOSE_MODEL", q.Model}} {
		if err := s.opts.Config.Set(kv[0], kv[1]); err != nil {
			s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
			return
		}
	}
	writeEmpty(w, http.StatusOK)
}

type checkProviderRequest struct {
	Provider string `json:"provider"`
}

func (q checkProviderRequest) check() error { return required("provider", q.Provider) }

func (s *Server) checkProvider(w http.ResponseWriter, r *http.Request) {
	var q checkProviderRequest
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, err := s.newProvider(r, q.Provider, ""); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeEmpty(w, http.StatusOK)
}

// cleanupProvider: goose-acp keeps no provider inventory or cached
// credentials, so there is nothing to clear beyond checking the name.
func (s *Server) cleanupProvider(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if _, ok := s.findProvider(name); !ok {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "Unknown provider: %s", name))
		return
	}
	writeJSON(w, http.StatusOK, "Cleaned up provider "+name)
}
