package acp

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/setup"
	"github.com/goose-acp/goose-acp/core/unavailable"
)

// _goose/unstable/providers/*: the provider list with set-up metadata and
// the model inventory, per-provider settings and stored keys, through
// core/setup. Custom providers are in unstable_providers_custom.go; the
// models.dev catalog methods are in the unavailable table.

func (s *Server) unstableProviderMethods() map[string]RequestHandler {
	return map[string]RequestHandler{
		"_goose/unstable/providers/list":                  typed(s.unstableProvidersList),
		"_goose/unstable/providers/supported-models/list": typed(s.unstableSupportedModels),
		"_goose/unstable/providers/setup/catalog/list":    typed(s.unstableSetupCatalog),
		"_goose/unstable/providers/inventory/refresh":     typed(s.unstableInventoryRefresh),
		"_goose/unstable/providers/readiness/check":       typed(s.unstableReadinessCheck),
		"_goose/unstable/providers/config/read":           typed(s.unstableProviderConfigRead),
		"_goose/unstable/providers/config/status":         typed(s.unstableProviderConfigStatus),
		"_goose/unstable/providers/config/save":           typed(s.unstableProviderConfigSave),
		"_goose/unstable/providers/config/delete":         typed(s.unstableProviderConfigDelete),
		"_goose/unstable/providers/config/authenticate":   typed(s.unstableProviderAuthenticate),
		"_goose/unstable/providers/secrets/list":          typed(s.unstableProviderSecrets),
		"_goose/unstable/providers/secrets/delete":        typed(s.unstableProviderSecretDelete),
		"_goose/unstable/providers/custom/create":         typed(s.unstableCustomCreate),
		"_goose/unstable/providers/custom/read":           typed(s.unstableCustomRead),
		"_goose/unstable/providers/custom/update":         typed(s.unstableCustomUpdate),
		"_goose/unstable/providers/custom/delete":         typed(s.unstableCustomDelete),
	}
}

type providerIDsRequest struct {
	ProviderIDs []string `json:"providerIds"`
}

type providerIDRequest struct {
	ProviderID string `json:"providerId"`
}

func (s *Server) unstableProvidersList(_ context.Context, req providerIDsRequest) (map[string][]providerEntryWire, error) {
	st, err := s.settings()
	if err != nil {
		return nil, err
	}
	custom := st.CustomProviders.Names()
	now := time.Now()
	entries := []providerEntryWire{}
	for _, md := range st.Setup.Providers() {
		if len(req.ProviderIDs) > 0 && !slices.Contains(req.ProviderIDs, md.Name) {
			continue
		}
		entries = append(entries, providerEntry(md, custom[md.Name], st.Setup.Configured(md.Name), st.Setup.Inventory(md.Name), now))
	}
	return map[string][]providerEntryWire{"entries": entries}, nil
}

// unstableSupportedModels fetches the provider's model list live.
func (s *Server) unstableSupportedModels(ctx context.Context, req providerIDRequest) (map[string]any, error) {
	st, err := s.settings()
	if err != nil {
		return nil, err
	}
	if _, err := s.knownProvider(st, req.ProviderID); err != nil {
		return nil, err
	}
	if !st.Setup.Configured(req.ProviderID) {
		return nil, invalidParams("Provider is not configured: %s", req.ProviderID)
	}
	models, err := st.Setup.Models(ctx, setup.Choice{Provider: req.ProviderID})
	switch {
	case err == setup.ErrNoModelList: // the provider listed none
		models = []string{}
	case setup.IsAuth(err):
		return nil, err
	case err != nil:
		return nil, errors.New("Failed to fetch provider supported models: " + err.Error())
	}
	return map[string]any{"providerId": req.ProviderID, "models": nonNil(models)}, nil
}

func (s *Server) unstableSetupCatalog(context.Context, struct{}) (map[string][]setupCatalogWire, error) {
	st, err := s.settings()
	if err != nil {
		return nil, err
	}
	out := []setupCatalogWire{}
	for _, md := range st.Setup.Providers() {
		out = append(out, setupCatalogEntry(md))
	}
	return map[string][]setupCatalogWire{"providers": out}, nil
}

func (s *Server) unstableInventoryRefresh(_ context.Context, req providerIDsRequest) (refreshWire, error) {
	st, err := s.settings()
	if err != nil {
		return refreshWire{}, err
	}
	return refreshOf(st.Setup.RefreshInventory(req.ProviderIDs)), nil
}

// unstableReadinessCheck is for providers that are ACP agents (goose's
// claude-code-acp and the like); goose-acp has none, so every id gets
// goose's answer for a provider that is not one.
func (s *Server) unstableReadinessCheck(_ context.Context, req providerIDRequest) (struct{}, error) {
	return struct{}{}, invalidParams("Provider is not an ACP provider: %s", req.ProviderID)
}

func (s *Server) unstableProviderConfigRead(_ context.Context, req providerIDRequest) (map[string][]fieldValueWire, error) {
	st, err := s.settings()
	if err != nil {
		return nil, err
	}
	if _, err := s.knownProvider(st, req.ProviderID); err != nil {
		return nil, err
	}
	values, err := st.Setup.FieldValues(req.ProviderID)
	if err != nil {
		return nil, err
	}
	out := make([]fieldValueWire, 0, len(values))
	for _, v := range values {
		out = append(out, fieldValueWire{Key: v.Name, Value: v.Value, IsSet: v.IsSet, IsSecret: v.Secret, Required: v.Required})
	}
	return map[string][]fieldValueWire{"fields": out}, nil
}

func (s *Server) unstableProviderConfigStatus(_ context.Context, req providerIDsRequest) (map[string][]configStatusWire, error) {
	st, err := s.settings()
	if err != nil {
		return nil, err
	}
	ids := slices.Clone(req.ProviderIDs)
	if len(ids) == 0 {
		for _, md := range st.Setup.Providers() {
			ids = append(ids, md.Name)
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := make([]configStatusWire, 0, len(ids))
	for _, id := range ids {
		out = append(out, s.status(st, id))
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

// unstableProviderConfigSave stores the fields (secrets in the secret
// store) and starts a model-list refresh of the provider.
func (s *Server) unstableProviderConfigSave(_ context.Context, req providerConfigSaveRequest) (configChangeWire, error) {
	st, err := s.settings()
	if err != nil {
		return configChangeWire{}, err
	}
	if _, err := s.knownProvider(st, req.ProviderID); err != nil {
		return configChangeWire{}, err
	}
	values := make([]config.KeyValue, 0, len(req.Fields))
	for _, f := range req.Fields {
		values = append(values, config.KeyValue{Key: f.Key, Value: f.Value})
	}
	if err := st.Setup.SaveFields(req.ProviderID, values); err != nil {
		return configChangeWire{}, setupErr(err)
	}
	return s.changed(st, req.ProviderID), nil
}

func (s *Server) unstableProviderConfigDelete(_ context.Context, req providerIDRequest) (configChangeWire, error) {
	st, err := s.settings()
	if err != nil {
		return configChangeWire{}, err
	}
	if _, err := s.knownProvider(st, req.ProviderID); err != nil {
		return configChangeWire{}, err
	}
	if err := st.Setup.DeleteFields(req.ProviderID); err != nil {
		return configChangeWire{}, err
	}
	return s.changed(st, req.ProviderID), nil
}

// unstableProviderAuthenticate: goose-acp has no OAuth or device-code
// sign-in, so a provider that offers one answers the unavailable error
// and one that does not answers goose's own refusal.
func (s *Server) unstableProviderAuthenticate(_ context.Context, req providerIDRequest) (configChangeWire, error) {
	st, err := s.settings()
	if err != nil {
		return configChangeWire{}, err
	}
	md, err := s.knownProvider(st, req.ProviderID)
	if err != nil {
		return configChangeWire{}, err
	}
	if slices.ContainsFunc(md.ConfigKeys, func(k provider.ConfigKey) bool { return k.OAuth }) {
		return configChangeWire{}, unavailable.ProviderOAuth.Error()
	}
	return configChangeWire{}, invalidParams("Provider does not support native authentication: %s", req.ProviderID)
}

func (s *Server) unstableProviderSecrets(context.Context, struct{}) (map[string][]secretWire, error) {
	st, err := s.settings()
	if err != nil {
		return nil, err
	}
	secrets, err := st.Setup.ProviderSecrets()
	if err != nil {
		return nil, errors.New("Failed to list provider secrets: " + err.Error())
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

func (s *Server) unstableProviderSecretDelete(_ context.Context, req secretIDRequest) (emptyResponse, error) {
	st, err := s.settings()
	if err != nil {
		return emptyResponse{}, err
	}
	return emptyResponse{}, setupErr(st.Setup.DeleteProviderSecret(req.ID))
}

// knownProvider is the provider's metadata, or goose's "Unknown provider".
func (s *Server) knownProvider(st Settings, id string) (provider.Metadata, error) {
	md, err := st.Setup.Lookup(id)
	if err != nil {
		return md, invalidParams("Unknown provider: %s", id)
	}
	return md, nil
}

func (s *Server) status(st Settings, id string) configStatusWire {
	return configStatusWire{ProviderID: id, IsConfigured: st.Setup.Configured(id)}
}

// changed answers a settings change: the new status and the refresh it
// started.
func (s *Server) changed(st Settings, id string) configChangeWire {
	return configChangeWire{Status: s.status(st, id), Refresh: refreshOf(st.Setup.RefreshInventory([]string{id}))}
}

// setupErr turns core/setup's refusals of bad input into -32602.
func setupErr(err error) error {
	for _, sentinel := range []error{setup.ErrInvalidField, setup.ErrInvalidSecretID} {
		if errors.Is(err, sentinel) {
			return invalidParams("%s", trimSentinel(err, sentinel))
		}
	}
	return err
}
