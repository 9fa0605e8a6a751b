package acp

import (
	"context"

	"github.com/goose-acp/goose-acp/core/provider/catalog"
	"github.com/goose-acp/goose-acp/core/setup"
)

// Desktop's "add a provider from the catalog" picker and its token meter's
// model facts: decode → core/setup (over core/provider/catalog) → encode.

type catalogListRequest struct {
	Format *string `json:"format"`
}

type catalogEntryWire struct {
	ProviderID string `json:"providerId"`
	Name       string `json:"name"`
	Format     string `json:"format"`
	APIURL     string `json:"apiUrl"`
	ModelCount int    `json:"modelCount"`
	DocURL     string `json:"docUrl"`
	EnvVar     string `json:"envVar"`
}

func (a *providersAPI) catalogList(_ context.Context, req catalogListRequest) (map[string][]catalogEntryWire, error) {
	format := ""
	if req.Format != nil {
		format = *req.Format
	}
	ps, err := a.setup.CatalogProviders(format)
	if err != nil {
		return nil, err
	}
	out := []catalogEntryWire{}
	for _, p := range ps {
		out = append(out, catalogEntryWire{ProviderID: p.ID, Name: p.Name, Format: p.Format, APIURL: p.APIURL,
			ModelCount: len(p.Models), DocURL: p.DocURL, EnvVar: p.EnvVar})
	}
	return map[string][]catalogEntryWire{"providers": out}, nil
}

type templateCapabilitiesWire struct {
	ToolCall    bool `json:"toolCall"`
	Reasoning   bool `json:"reasoning"`
	Attachment  bool `json:"attachment"`
	Temperature bool `json:"temperature"`
}

type templateModelWire struct {
	ID           string                   `json:"id"`
	Name         string                   `json:"name"`
	ContextLimit int                      `json:"contextLimit"`
	Capabilities templateCapabilitiesWire `json:"capabilities"`
	Deprecated   bool                     `json:"deprecated"`
}

type templateWire struct {
	ProviderID        string              `json:"providerId"`
	Name              string              `json:"name"`
	Format            string              `json:"format"`
	APIURL            string              `json:"apiUrl"`
	Models            []templateModelWire `json:"models"`
	SupportsStreaming bool                `json:"supportsStreaming"`
	EnvVar            string              `json:"envVar"`
	DocURL            string              `json:"docUrl"`
}

func (a *providersAPI) catalogTemplate(_ context.Context, req providerIDRequest) (map[string]templateWire, error) {
	p, err := setup.CatalogTemplate(req.ProviderID)
	if err != nil {
		return nil, badName(err)
	}
	t := templateWire{ProviderID: p.ID, Name: p.Name, Format: p.Format, APIURL: p.APIURL, Models: []templateModelWire{},
		SupportsStreaming: true, EnvVar: p.EnvVar, DocURL: p.DocURL}
	for _, m := range p.Models {
		t.Models = append(t.Models, templateModelWire{ID: m.ID, Name: m.Name, ContextLimit: m.ContextLimit,
			Capabilities: templateCapabilitiesWire{ToolCall: m.ToolCall, Reasoning: m.Reasoning, Attachment: m.Attachment, Temperature: m.Temperature}})
	}
	return map[string]templateWire{"template": t}, nil
}

type canonicalModelRequest struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// modelInfoWire is goose's CanonicalModelInfoDto: unknown figures are
// left out.
type modelInfoWire struct {
	Provider            string   `json:"provider"`
	Model               string   `json:"model"`
	ContextLimit        int      `json:"contextLimit"`
	MaxOutputTokens     *int     `json:"maxOutputTokens,omitempty"`
	Reasoning           bool     `json:"reasoning"`
	InputTokenCost      *float64 `json:"inputTokenCost,omitempty"`
	OutputTokenCost     *float64 `json:"outputTokenCost,omitempty"`
	CacheReadTokenCost  *float64 `json:"cacheReadTokenCost,omitempty"`
	CacheWriteTokenCost *float64 `json:"cacheWriteTokenCost,omitempty"`
	Currency            string   `json:"currency"`
}

func (a *providersAPI) canonicalModelInfo(_ context.Context, req canonicalModelRequest) (map[string]*modelInfoWire, error) {
	info, ok := setup.ModelInfo(req.Provider, req.Model)
	if !ok {
		return map[string]*modelInfoWire{"modelInfo": nil}, nil
	}
	m := info.Known
	w := &modelInfoWire{Provider: info.Provider, Model: info.Model, ContextLimit: m.ContextLimit, Reasoning: m.Reasoning,
		InputTokenCost: m.Cost.Input, OutputTokenCost: m.Cost.Output, CacheReadTokenCost: m.Cost.CacheRead,
		CacheWriteTokenCost: m.Cost.CacheWrite, Currency: catalog.Currency}
	if m.MaxOutput > 0 {
		out := m.MaxOutput
		w.MaxOutputTokens = &out
	}
	return map[string]*modelInfoWire{"modelInfo": w}, nil
}
