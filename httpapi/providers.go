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
func (s *Server) providers(*http.Request) (reply, error) {
	out := []providerDetails{}
	custom := s.customProviders().Names()
	for _, m := range s.providerList() {
		typ := "Builtin"
		if custom[m.Name] {
			typ = "Custom"
		}
		out = append(out, providerDetails{Name: m.Name, Metadata: metadataWire(m), IsConfigured: s.isConfigured(m), ProviderType: typ})
	}
	return ok(out), nil
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
func (s *Server) providerModels(r *http.Request) (reply, error) {
	name := r.PathValue("name")
	m, ok := s.findProvider(name)
	if !ok {
		return reply{}, badRequest("Unknown provider: %s", name)
	}
	if !s.isConfigured(m) {
		return reply{}, badRequest("Provider %s is not configured", name)
	}
	p, err := s.newProvider(r, name, "")
	if err != nil {
		return reply{}, err
	}
	models, err := p.FetchModels(r.Context())
	if err != nil {
		switch provider.KindOf(err) {
		case provider.KindRateLimit:
			return reply{}, errorf(http.StatusTooManyRequests, "%w", err)
		case provider.KindAuth, provider.KindRequest:
			return reply{}, badRequest("%w", err)
		}
		return reply{}, errorf(http.StatusInternalServerError, "%w", err)
	}
	if models == nil {
		models = []string{}
	}
	return reply{status: http.StatusOK, body: models}, nil
}

type setProviderRequest struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

func (q setProviderRequest) check() error { return required("provider", q.Provider, "model", q.Model) }

// setProvider validates provider+model, then writes GOOSE_PROVIDER and
// GOOSE_MODEL to config.yaml.
func (s *Server) setProvider(r *http.Request, q setProviderRequest) (reply, error) {
	if _, err := s.newProvider(r, q.Provider, q.Model); err != nil {
		return reply{}, err
	}
	for _, kv := range [][2]string{{"GOOSE_PROVIDER", q.Provider}, {"GOOSE_MODEL", q.Model}} {
		if err := s.opts.Config.Set(kv[0], kv[1]); err != nil {
			return reply{}, errorf(http.StatusInternalServerError, "%w", err)
		}
	}
	return noBody(http.StatusOK), nil
}

type checkProviderRequest struct {
	Provider string `json:"provider"`
}

func (q checkProviderRequest) check() error { return required("provider", q.Provider) }

func (s *Server) checkProvider(r *http.Request, q checkProviderRequest) (reply, error) {
	if _, err := s.newProvider(r, q.Provider, ""); err != nil {
		return reply{}, err
	}
	return noBody(http.StatusOK), nil
}

// cleanupProvider: goose-acp keeps no provider inventory or cached
// credentials, so there is nothing to clear beyond checking the name.
func (s *Server) cleanupProvider(r *http.Request) (reply, error) {
	name := r.PathValue("name")
	if _, ok := s.findProvider(name); !ok {
		return reply{}, notFound("Unknown provider: %s", name)
	}
	return ok("Cleaned up provider " + name), nil
}
