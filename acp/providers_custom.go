package acp

import (
	"context"
	"errors"
	"fmt"

	"github.com/goose-acp/goose-acp/core/provider/registry"
)

// _goose/unstable/providers/custom/*: declarative providers in
// <config>/custom_providers/<id>.json, API keys in the secret store
// (registry.CustomStore).

type customProviderWire struct {
	ProviderID        string            `json:"providerId"`
	Engine            string            `json:"engine"`
	DisplayName       string            `json:"displayName"`
	APIURL            string            `json:"apiUrl"`
	APIKey            *string           `json:"apiKey"`
	Models            []string          `json:"models"`
	SupportsStreaming *bool             `json:"supportsStreaming"`
	Headers           map[string]string `json:"headers"`
	RequiresAuth      *bool             `json:"requiresAuth"`
	CatalogProviderID *string           `json:"catalogProviderId"`
	BasePath          *string           `json:"basePath"`
	PreservesThinking *bool             `json:"preservesThinking"`
	Toolshim          bool              `json:"toolshim"`
}

// input checks what goose-acp's custom providers cannot keep (toolshim,
// preserved thinking) and normalizes the rest in core.
func (w customProviderWire) input(requireKey bool) (registry.CustomInput, error) {
	if w.Toolshim {
		return registry.CustomInput{}, invalidParams("toolshim is not supported by goose-acp's custom providers")
	}
	if w.PreservesThinking != nil && *w.PreservesThinking {
		return registry.CustomInput{}, invalidParams("preservesThinking is not supported by goose-acp's custom providers")
	}
	if w.RequiresAuth == nil {
		return registry.CustomInput{}, invalidParams("missing field `requiresAuth`")
	}
	in := registry.CustomInput{Engine: w.Engine, DisplayName: w.DisplayName, APIURL: w.APIURL, Models: w.Models,
		SupportsStreaming: w.SupportsStreaming, Headers: w.Headers, RequiresAuth: w.RequiresAuth, BasePath: w.BasePath,
		ReplaceHeaders: true}
	if w.APIKey != nil {
		in.APIKey = *w.APIKey
	}
	return in.Normalize(requireKey)
}

type customChangeWire struct {
	ProviderID string            `json:"providerId"`
	Status     *configStatusWire `json:"status,omitempty"`
	Refresh    refreshWire       `json:"refresh"`
}

func (a *providersAPI) createCustom(_ context.Context, req customProviderWire) (customChangeWire, error) {
	in, err := req.input(true)
	if err != nil {
		return customChangeWire{}, err
	}
	cp, err := a.custom.Create(in)
	if err != nil {
		return customChangeWire{}, fmt.Errorf("Failed to create custom provider: %w", err)
	}
	ch := a.changed(cp.Name)
	return customChangeWire{ProviderID: cp.Name, Status: &ch.Status, Refresh: ch.Refresh}, nil
}

type customReadWire struct {
	Provider customConfigWire `json:"provider"`
	Editable bool             `json:"editable"`
	Status   configStatusWire `json:"status"`
}

type customConfigWire struct {
	ProviderID        string            `json:"providerId"`
	Engine            string            `json:"engine"`
	DisplayName       string            `json:"displayName"`
	APIURL            string            `json:"apiUrl"`
	Models            []string          `json:"models"`
	SupportsStreaming *bool             `json:"supportsStreaming"`
	Headers           map[string]string `json:"headers"`
	RequiresAuth      bool              `json:"requiresAuth"`
	CatalogProviderID *string           `json:"catalogProviderId"`
	BasePath          *string           `json:"basePath"`
	Toolshim          bool              `json:"toolshim"`
	APIKeyEnv         *string           `json:"apiKeyEnv"`
	APIKeySet         bool              `json:"apiKeySet"`
	PreservesThinking bool              `json:"preservesThinking"`
}

// engineWire is goose's name for a declarative engine on this API.
var engineWire = map[string]string{registry.EngineOpenAI: "openai_compatible",
	registry.EngineAnthropic: "anthropic_compatible", registry.EngineOllama: "ollama_compatible"}

func (a *providersAPI) readCustom(_ context.Context, req providerIDRequest) (customReadWire, error) {
	cp, err := a.customProvider(req.ProviderID)
	if err != nil {
		return customReadWire{}, err
	}
	w := customConfigWire{ProviderID: cp.Name, Engine: engineWire[cp.Engine], DisplayName: cp.DisplayName, APIURL: cp.BaseURL,
		Models: []string{}, SupportsStreaming: cp.SupportsStreaming, Headers: cp.Headers, BasePath: cp.BasePath,
		RequiresAuth: cp.RequiresAuth == nil || *cp.RequiresAuth, APIKeyEnv: optString(cp.APIKeyEnv)}
	if w.Engine == "" {
		w.Engine = cp.Engine
	}
	if w.Headers == nil {
		w.Headers = map[string]string{}
	}
	for _, m := range cp.Models {
		w.Models = append(w.Models, m.Name)
	}
	w.APIKeySet = a.custom.HasKey(cp)
	return customReadWire{Provider: w, Editable: true, Status: a.status(cp.Name)}, nil
}

func (a *providersAPI) updateCustom(_ context.Context, req customProviderWire) (customChangeWire, error) {
	cp, err := a.customProvider(req.ProviderID)
	if err != nil {
		return customChangeWire{}, err
	}
	in, err := req.input(false)
	if err != nil {
		return customChangeWire{}, err
	}
	if *in.RequiresAuth && in.APIKey == "" && !a.custom.HasKey(cp) {
		return customChangeWire{}, invalidParams("apiKey is required when auth is enabled and no secret is stored")
	}
	if _, err := a.custom.Update(cp.Name, in); err != nil {
		return customChangeWire{}, fmt.Errorf("Failed to update custom provider: %w", err)
	}
	ch := a.changed(cp.Name)
	return customChangeWire{ProviderID: cp.Name, Status: &ch.Status, Refresh: ch.Refresh}, nil
}

// deleteCustom refuses the provider in use (GOOSE_PROVIDER), as
// goose does, so no session is left without one.
func (a *providersAPI) deleteCustom(_ context.Context, req providerIDRequest) (customChangeWire, error) {
	cp, err := a.customProvider(req.ProviderID)
	if err != nil {
		return customChangeWire{}, err
	}
	if active, _, _ := a.setup.Default(); active == cp.Name {
		return customChangeWire{}, invalidParams("Cannot delete active provider: %s", cp.Name)
	}
	if err := a.custom.Remove(cp.Name); err != nil {
		return customChangeWire{}, fmt.Errorf("Failed to delete custom provider: %w", err)
	}
	return customChangeWire{ProviderID: cp.Name, Refresh: refreshOf(nil, nil)}, nil
}

// customProvider reads a custom provider; a built-in one is not editable
// and any other id is unknown, in goose's words.
func (a *providersAPI) customProvider(id string) (registry.CustomProvider, error) {
	cp, err := a.custom.Get(id)
	if err == nil {
		return cp, nil
	}
	if !errors.Is(err, registry.ErrCustomNotFound) {
		return cp, err
	}
	if _, lerr := a.setup.Lookup(id); lerr == nil {
		return cp, invalidParams("Provider is not editable: %s (built into goose-acp)", id)
	}
	return cp, invalidParams("Unknown provider: %s", id)
}
