package acp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/registry"
	"github.com/goose-acp/goose-acp/core/setup"
	"github.com/goose-acp/goose-acp/core/unavailable"
)

// _goose/unstable/providers/*: the provider list with set-up metadata and
// the model inventory, per-provider settings and stored keys, through
// core/setup. Custom providers are in providers_custom.go, the wire forms
// in providers_wire.go; the provider catalog and model facts in
// providers_catalog.go.

// providersAPI answers the provider methods: provider set-up through
// core/setup, custom providers through their store.
type providersAPI struct {
	setup  *setup.Setup
	custom *registry.CustomStore
}

func (a *providersAPI) methods() map[string]RequestHandler {
	return gated(a.check, map[string]RequestHandler{
		// goose's name before the _goose/unstable rename, kept as an alias.
		"_goose/providers/list":                           typed(a.list),
		"_goose/unstable/providers/list":                  typed(a.list),
		"_goose/unstable/providers/supported-models/list": typed(a.supportedModels),
		"_goose/unstable/providers/setup/catalog/list":    typed(a.setupCatalog),
		"_goose/unstable/providers/inventory/refresh":     typed(a.refreshInventory),
		"_goose/unstable/providers/readiness/check":       typed(a.readinessCheck),
		"_goose/unstable/providers/config/read":           typed(a.readConfig),
		"_goose/unstable/providers/config/status":         typed(a.configStatus),
		"_goose/unstable/providers/config/save":           typed(a.saveConfig),
		"_goose/unstable/providers/config/delete":         typed(a.deleteConfig),
		"_goose/unstable/providers/config/authenticate":   typed(a.authenticate),
		"_goose/unstable/providers/secrets/list":          typed(a.secrets),
		"_goose/unstable/providers/secrets/delete":        typed(a.deleteSecret),
		"_goose/unstable/providers/custom/create":         typed(a.createCustom),
		"_goose/unstable/providers/custom/read":           typed(a.readCustom),
		"_goose/unstable/providers/custom/update":         typed(a.updateCustom),
		"_goose/unstable/providers/custom/delete":         typed(a.deleteCustom),
		"_goose/unstable/providers/catalog/list":          typed(a.catalogList),
		"_goose/unstable/providers/catalog/template":      typed(a.catalogTemplate),
		"_goose/unstable/providers/canonical-model-info":  typed(a.canonicalModelInfo),
	})
}

type providerIDsRequest struct {
	ProviderIDs []string `json:"providerIds"`
}

type providerIDRequest struct {
	ProviderID string `json:"providerId"`
}

func (a *providersAPI) list(_ context.Context, req providerIDsRequest) (map[string][]providerEntryWire, error) {
	custom := a.custom.Names()
	now := time.Now()
	entries := []providerEntryWire{}
	for _, md := range a.setup.Providers() {
		if len(req.ProviderIDs) > 0 && !slices.Contains(req.ProviderIDs, md.Name) {
			continue
		}
		entries = append(entries, providerEntry(md, custom[md.Name], a.setup.Configured(md.Name), a.setup.Inventory(md.Name), now))
	}
	return map[string][]providerEntryWire{"entries": entries}, nil
}

// supportedModels fetches the provider's model list live.
func (a *providersAPI) supportedModels(ctx context.Context, req providerIDRequest) (map[string]any, error) {
	models, err := a.setup.ProviderModels(ctx, req.ProviderID)
	switch {
	case errors.Is(err, setup.ErrUnknownProvider):
		return nil, invalidParams("Unknown provider: %s", req.ProviderID)
	case errors.Is(err, setup.ErrNotConfigured):
		return nil, invalidParams("Provider is not configured: %s", req.ProviderID)
	case errors.Is(err, setup.ErrNoModelList): // none listed, or the fetch failed
		models = []string{}
	case err != nil:
		return nil, fmt.Errorf("Failed to fetch provider supported models: %w", err)
	}
	return map[string]any{"providerId": req.ProviderID, "models": nonNil(models)}, nil
}

func (a *providersAPI) setupCatalog(context.Context, struct{}) (map[string][]setupCatalogWire, error) {
	out := []setupCatalogWire{}
	for _, md := range a.setup.Providers() {
		out = append(out, setupCatalogEntry(md))
	}
	return map[string][]setupCatalogWire{"providers": out}, nil
}

func (a *providersAPI) refreshInventory(_ context.Context, req providerIDsRequest) (refreshWire, error) {
	return refreshOf(a.setup.RefreshInventory(req.ProviderIDs)), nil
}

// readinessCheck is for providers that are ACP agents (goose's
// claude-code-acp and the like); goose-acp has none, so every id gets
// goose's answer for a provider that is not one.
func (a *providersAPI) readinessCheck(_ context.Context, req providerIDRequest) (struct{}, error) {
	return struct{}{}, invalidParams("Provider is not an ACP provider: %s", req.ProviderID)
}

func (a *providersAPI) readConfig(_ context.Context, req providerIDRequest) (map[string][]fieldValueWire, error) {
	if _, err := a.knownProvider(req.ProviderID); err != nil {
		return nil, err
	}
	values, err := a.setup.FieldValues(req.ProviderID)
	if err != nil {
		return nil, err
	}
	out := make([]fieldValueWire, 0, len(values))
	for _, v := range values {
		out = append(out, fieldValueWire{Key: v.Name, Value: v.Value, IsSet: v.IsSet, IsSecret: v.Secret, Required: v.Required})
	}
	return map[string][]fieldValueWire{"fields": out}, nil
}

func (a *providersAPI) configStatus(_ context.Context, req providerIDsRequest) (map[string][]configStatusWire, error) {
	ids := slices.Clone(req.ProviderIDs)
	if len(ids) == 0 {
		for _, md := range a.setup.Providers() {
			ids = append(ids, md.Name)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := make([]configStatusWire, 0, len(ids))
	for _, id := range ids {
		out = append(out, a.status(id))
	}
	return map[string][]configStatusWire{"statuses": out}, nil
}

type providerConfigSaveRequest struct {
	ProviderID string `json:"providerId"`
	Fields     []struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	} `json:"fields"`
}

// saveConfig stores the fields (secrets in the secret
// store) and starts a model-list refresh of the provider.
func (a *providersAPI) saveConfig(_ context.Context, req providerConfigSaveRequest) (configChangeWire, error) {
	if _, err := a.knownProvider(req.ProviderID); err != nil {
		return configChangeWire{}, err
	}
	values := make([]config.KeyValue, 0, len(req.Fields))
	for _, f := range req.Fields {
		values = append(values, config.KeyValue{Key: f.Key, Value: f.Value})
	}
	if err := a.setup.SaveFields(req.ProviderID, values); err != nil {
		return configChangeWire{}, err
	}
	return a.changed(req.ProviderID), nil
}

func (a *providersAPI) deleteConfig(_ context.Context, req providerIDRequest) (configChangeWire, error) {
	if _, err := a.knownProvider(req.ProviderID); err != nil {
		return configChangeWire{}, err
	}
	if err := a.setup.DeleteFields(req.ProviderID); err != nil {
		return configChangeWire{}, err
	}
	return a.changed(req.ProviderID), nil
}

// authenticate: goose-acp has no OAuth or device-code
// sign-in, so a provider that offers one answers the unavailable error
// and one that does not answers goose's own refusal.
func (a *providersAPI) authenticate(_ context.Context, req providerIDRequest) (configChangeWire, error) {
	md, err := a.knownProvider(req.ProviderID)
	if err != nil {
		return configChangeWire{}, err
	}
	if slices.ContainsFunc(md.ConfigKeys, func(k provider.ConfigKey) bool { return k.OAuth }) {
		return configChangeWire{}, unavailable.ProviderOAuth.Error()
	}
	return configChangeWire{}, invalidParams("Provider does not support native authentication: %s", req.ProviderID)
}

func (a *providersAPI) secrets(context.Context, struct{}) (map[string][]secretWire, error) {
	secrets, err := a.setup.ProviderSecrets()
	if err != nil {
		return nil, fmt.Errorf("Failed to list provider secrets: %w", err)
	}
	out := make([]secretWire, 0, len(secrets))
	for _, sec := range secrets {
		out = append(out, secretWire{ID: sec.ID, Provider: sec.Provider, ProviderDisplayName: sec.ProviderDisplayName,
			Name: sec.Name, Storage: "secret_store", Status: "unknown", Configured: true, HasSecret: true, CanDelete: true})
	}
	return map[string][]secretWire{"secrets": out}, nil
}

type secretIDRequest struct {
	ID string `json:"id"`
}

func (a *providersAPI) deleteSecret(_ context.Context, req secretIDRequest) (emptyResponse, error) {
	return emptyResponse{}, a.setup.DeleteProviderSecret(req.ID)
}

func (a *providersAPI) check() error {
	if a.setup == nil {
		return errNoSettings
	}
	return nil
}

// knownProvider is the provider's metadata, or goose's "Unknown provider".
func (a *providersAPI) knownProvider(id string) (provider.Metadata, error) {
	md, err := a.setup.Lookup(id)
	if err != nil {
		return md, invalidParams("Unknown provider: %s", id)
	}
	return md, nil
}

func (a *providersAPI) status(id string) configStatusWire {
	return configStatusWire{ProviderID: id, IsConfigured: a.setup.Configured(id)}
}

// changed answers a settings change: the new status and the refresh it
// started.
func (a *providersAPI) changed(id string) configChangeWire {
	return configChangeWire{Status: a.status(id), Refresh: refreshOf(a.setup.RefreshInventory([]string{id}))}
}
