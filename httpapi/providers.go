package httpapi

import (
	"net/http"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/registry"
)

// providersAPI answers /config/providers* and the custom providers:
// provider metadata, live model lists, the default provider and the custom
// provider store.
type providersAPI struct {
	list        func() []provider.Metadata
	configured  func(name string) bool
	cfg         *config.Config
	newProvider agent.ProviderFactory
	custom      *registry.CustomStore
}

func (a *providersAPI) routes() []route {
	cfg := func(e endpoint) endpoint { return needs(a.cfg != nil, errNoConfig, e) }
	return []route{
		{"GET", "/config/providers", 0, noInput(a.providers), nil},
		{"GET", "/config/providers/{name}/models", 0, noInput(a.providerModels), nil},
		{"POST", "/config/set_provider", 0, cfg(withBody(a.setProvider)), nil},
		{"POST", "/config/check_provider", 0, withBody(a.checkProvider), nil},
		{"POST", "/config/providers/{name}/cleanup", 0, noInput(a.cleanupProvider), nil},
		{"POST", "/config/custom-providers", 0, cfg(withBody(a.createCustomProvider)), nil},
		{"GET", "/config/custom-providers/{id}", 0, noInput(a.getCustomProvider), nil},
		{"PUT", "/config/custom-providers/{id}", 0, cfg(withBody(a.updateCustomProvider)), nil},
		{"DELETE", "/config/custom-providers/{id}", 0, noInput(a.removeCustomProvider), nil},
	}
}

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

func (a *providersAPI) providerList() []provider.Metadata {
	if a.list == nil {
		return nil
	}
	return a.list()
}

func (a *providersAPI) find(name string) (provider.Metadata, bool) {
	for _, m := range a.providerList() {
		if m.Name == name {
			return m, true
		}
	}
	return provider.Metadata{}, false
}

// providers answers every provider with whether its required keys are set.
func (a *providersAPI) providers(*http.Request) (reply, error) {
	out := []providerDetails{}
	custom := a.custom.Names()
	for _, m := range a.providerList() {
		typ := "Builtin"
		if custom[m.Name] {
			typ = "Custom"
		}
		out = append(out, providerDetails{Name: m.Name, Metadata: metadataWire(m), IsConfigured: a.isConfigured(m), ProviderType: typ})
	}
	return ok(out), nil
}

// isConfigured is core's answer (setup.Setup.Configured, the ACP face's
// too): a provider with none is not configured.
func (a *providersAPI) isConfigured(m provider.Metadata) bool {
	return a.configured != nil && a.configured(m.Name)
}

// build builds a provider with its default (or the given) model.
func (a *providersAPI) build(r *http.Request, name, modelName string) (provider.Provider, error) {
	m, ok := a.find(name)
	if !ok {
		return nil, badRequest("Unknown provider: %s", name)
	}
	if a.newProvider == nil {
		return nil, errorf(http.StatusServiceUnavailable, "providers are not available in this goose-acp server")
	}
	if modelName == "" {
		modelName = m.DefaultModel
	}
	p, err := a.newProvider(r.Context(), name, model.Config{ModelName: modelName})
	if err != nil {
		return nil, badRequest("Failed to create provider %s: %w", name, err)
	}
	return p, nil
}

// providerModels fetches the live model list: 400 when the provider is
// not configured, 429 when rate limited.
func (a *providersAPI) providerModels(r *http.Request) (reply, error) {
	name := r.PathValue("name")
	m, ok := a.find(name)
	if !ok {
		return reply{}, badRequest("Unknown provider: %s", name)
	}
	if !a.isConfigured(m) {
		return reply{}, badRequest("Provider %s is not configured", name)
	}
	p, err := a.build(r, name, "")
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
func (a *providersAPI) setProvider(r *http.Request, q setProviderRequest) (reply, error) {
	if _, err := a.build(r, q.Provider, q.Model); err != nil {
		return reply{}, err
	}
	for _, kv := range [][2]string{{"GOOSE_PROVIDER", q.Provider}, {"GOOSE_MODEL", q.Model}} {
		if err := a.cfg.Set(kv[0], kv[1]); err != nil {
			return reply{}, errorf(http.StatusInternalServerError, "%w", err)
		}
	}
	return noBody(http.StatusOK), nil
}

type checkProviderRequest struct {
	Provider string `json:"provider"`
}

func (q checkProviderRequest) check() error { return required("provider", q.Provider) }

func (a *providersAPI) checkProvider(r *http.Request, q checkProviderRequest) (reply, error) {
	if _, err := a.build(r, q.Provider, ""); err != nil {
		return reply{}, err
	}
	return noBody(http.StatusOK), nil
}

// cleanupProvider: goose-acp keeps no provider inventory or cached
// credentials, so there is nothing to clear beyond checking the name.
func (a *providersAPI) cleanupProvider(r *http.Request) (reply, error) {
	name := r.PathValue("name")
	if _, ok := a.find(name); !ok {
		return reply{}, notFound("Unknown provider: %s", name)
	}
	return ok("Cleaned up provider " + name), nil
}
