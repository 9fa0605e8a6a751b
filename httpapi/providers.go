package httpapi

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/registry"
	"github.com/goose-acp/goose-acp/core/setup"
)

// providersAPI answers /config/providers* and the custom providers:
// provider metadata, live model lists and the default provider through
// core/setup (the ACP face's provider set-up), and the custom provider
// store.
type providersAPI struct {
	setup  *setup.Setup
	custom *registry.CustomStore
}

func (a *providersAPI) routes() []route {
	cfg := func(e endpoint) endpoint { return needs(a.setup != nil, errNoConfig, e) }
	return []route{
		{"GET", "/config/providers", 0, cfg(noInput(a.providers)), nil},
		{"GET", "/config/providers/{name}/models", 0, cfg(noInput(a.providerModels)), nil},
		{"POST", "/config/set_provider", 0, cfg(withBody(a.setProvider)), nil},
		{"POST", "/config/check_provider", 0, cfg(withBody(a.checkProvider)), nil},
		{"POST", "/config/providers/{name}/cleanup", 0, cfg(noInput(a.cleanupProvider)), nil},
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

// providerList is every provider core/setup offers, by name (goosed's
// order).
func (a *providersAPI) providerList() []provider.Metadata {
	mds := a.setup.Providers()
	slices.SortStableFunc(mds, func(x, y provider.Metadata) int { return strings.Compare(x.Name, y.Name) })
	return mds
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
		out = append(out, providerDetails{Name: m.Name, Metadata: metadataWire(m), IsConfigured: a.setup.Configured(m.Name), ProviderType: typ})
	}
	return ok(out), nil
}

// refusal words core/setup's refusal of a provider as goosed: 400 for an
// unknown one or one that cannot be built, else 500.
func refusal(name string, err error) error {
	switch {
	case errors.Is(err, setup.ErrUnknownProvider):
		return badRequest("Unknown provider: %s", name)
	case errors.Is(err, setup.ErrCannotBuild):
		return &apiError{status: http.StatusBadRequest, msg: "Failed to create provider " + name + ": " + errkind.Detail(err), err: err}
	}
	return errorf(http.StatusInternalServerError, "%w", err)
}

// providerModels is the provider's live model list (core/setup's, the ACP
// face's too): 400 for an unknown or unconfigured provider, and for a
// fetch the provider refused; 429 when rate limited.
func (a *providersAPI) providerModels(r *http.Request) (reply, error) {
	name := r.PathValue("name")
	models, err := a.setup.ProviderModels(r.Context(), name)
	switch {
	case errors.Is(err, setup.ErrUnknownProvider):
		return reply{}, badRequest("Unknown provider: %s", name)
	case errors.Is(err, setup.ErrNotConfigured):
		return reply{}, badRequest("Provider %s is not configured", name)
	case setup.IsListFailure(err):
		status := http.StatusInternalServerError
		switch provider.KindOf(err) {
		case provider.KindRateLimit:
			status = http.StatusTooManyRequests
		case provider.KindAuth, provider.KindRequest:
			status = http.StatusBadRequest
		}
		return reply{}, &apiError{status: status, msg: errkind.Detail(err), err: err}
	case errors.Is(err, setup.ErrNoModelList): // it listed none
		models = []string{}
	case err != nil:
		return reply{}, refusal(name, err)
	}
	return reply{status: http.StatusOK, body: models}, nil
}

type setProviderRequest struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

func (q setProviderRequest) check() error { return required("provider", q.Provider, "model", q.Model) }

// setProvider makes the provider and model the default (GOOSE_PROVIDER
// and GOOSE_MODEL in config.yaml) once core/setup can build them.
func (a *providersAPI) setProvider(_ *http.Request, q setProviderRequest) (reply, error) {
	if err := a.setup.SelectDefault(q.Provider, q.Model); err != nil {
		return reply{}, refusal(q.Provider, err)
	}
	return noBody(http.StatusOK), nil
}

type checkProviderRequest struct {
	Provider string `json:"provider"`
}

func (q checkProviderRequest) check() error { return required("provider", q.Provider) }

func (a *providersAPI) checkProvider(_ *http.Request, q checkProviderRequest) (reply, error) {
	if err := a.setup.Build(q.Provider, ""); err != nil {
		return reply{}, refusal(q.Provider, err)
	}
	return noBody(http.StatusOK), nil
}

// cleanupProvider: goose-acp keeps no provider inventory or cached
// credentials, so there is nothing to clear beyond checking the name.
func (a *providersAPI) cleanupProvider(r *http.Request) (reply, error) {
	name := r.PathValue("name")
	if _, err := a.setup.Lookup(name); err != nil {
		return reply{}, notFound("Unknown provider: %s", name)
	}
	return ok("Cleaned up provider " + name), nil
}
