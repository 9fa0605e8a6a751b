package httpapi

import (
	"net/http"

	"github.com/goose-acp/goose-acp/core/provider/catalog"
	"github.com/goose-acp/goose-acp/core/setup"
)

// goosed's provider catalog and canonical model info (Desktop ≤ 1.33's
// "add provider" templates and token meter): decode → core/setup (over
// core/provider/catalog, the same answers the ACP face gives) → encode.

func (a *providersAPI) catalogRoutes() []route {
	return []route{
		{"GET", "/config/provider-catalog", 0, needs(a.setup != nil, errNoConfig, noInput(a.providerCatalog)), nil},
		{"GET", "/config/provider-catalog/{id}", 0, noInput(a.providerTemplate), nil},
		{"POST", "/config/canonical-model-info", 0, withBody(a.canonicalModelInfo), nil},
	}
}

// catalogEntryWire is goosed's ProviderCatalogEntry.
type catalogEntryWire struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Format     string `json:"format"`
	APIURL     string `json:"api_url"`
	ModelCount int    `json:"model_count"`
	DocURL     string `json:"doc_url"`
	EnvVar     string `json:"env_var"`
}

func (a *providersAPI) providerCatalog(r *http.Request) (reply, error) {
	ps, err := a.setup.CatalogProviders(r.URL.Query().Get("format"))
	if err != nil {
		return reply{}, badRequest("%w", err)
	}
	out := []catalogEntryWire{}
	for _, p := range ps {
		out = append(out, catalogEntryWire{ID: p.ID, Name: p.Name, Format: p.Format, APIURL: p.APIURL,
			ModelCount: len(p.Models), DocURL: p.DocURL, EnvVar: p.EnvVar})
	}
	return ok(out), nil
}

type modelCapabilitiesWire struct {
	ToolCall    bool `json:"tool_call"`
	Reasoning   bool `json:"reasoning"`
	Attachment  bool `json:"attachment"`
	Temperature bool `json:"temperature"`
}

// modelTemplateWire is goosed's ModelTemplate.
type modelTemplateWire struct {
	ID           string                `json:"id"`
	Name         string                `json:"name"`
	ContextLimit int                   `json:"context_limit"`
	Capabilities modelCapabilitiesWire `json:"capabilities"`
	Deprecated   bool                  `json:"deprecated"`
}

// providerTemplateWire is goosed's ProviderTemplate.
type providerTemplateWire struct {
	ID                string              `json:"id"`
	Name              string              `json:"name"`
	Format            string              `json:"format"`
	APIURL            string              `json:"api_url"`
	Models            []modelTemplateWire `json:"models"`
	SupportsStreaming bool                `json:"supports_streaming"`
	EnvVar            string              `json:"env_var"`
	DocURL            string              `json:"doc_url"`
}

func (a *providersAPI) providerTemplate(r *http.Request) (reply, error) {
	p, err := setup.CatalogTemplate(r.PathValue("id"))
	if err != nil {
		return reply{}, err // NotFound: 404, as goosed
	}
	t := providerTemplateWire{ID: p.ID, Name: p.Name, Format: p.Format, APIURL: p.APIURL, Models: []modelTemplateWire{},
		SupportsStreaming: true, EnvVar: p.EnvVar, DocURL: p.DocURL}
	for _, m := range p.Models {
		t.Models = append(t.Models, modelTemplateWire{ID: m.ID, Name: m.Name, ContextLimit: m.ContextLimit,
			Capabilities: modelCapabilitiesWire{ToolCall: m.ToolCall, Reasoning: m.Reasoning, Attachment: m.Attachment, Temperature: m.Temperature}})
	}
	return ok(t), nil
}

type modelInfoQuery struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
}

// modelInfoDataWire is goosed's ModelInfoData: unknown figures are null.
type modelInfoDataWire struct {
	Provider            string   `json:"provider"`
	Model               string   `json:"model"`
	ContextLimit        int      `json:"context_limit"`
	MaxOutputTokens     *int     `json:"max_output_tokens"`
	Reasoning           bool     `json:"reasoning"`
	InputTokenCost      *float64 `json:"input_token_cost"`
	OutputTokenCost     *float64 `json:"output_token_cost"`
	CacheReadTokenCost  *float64 `json:"cache_read_token_cost"`
	CacheWriteTokenCost *float64 `json:"cache_write_token_cost"`
	Currency            string   `json:"currency"`
}

// modelInfoResponseWire is goosed's ModelInfoResponse; goosed's source is
// always "canonical", model_info null for a model nobody knows.
type modelInfoResponseWire struct {
	ModelInfo *modelInfoDataWire `json:"model_info"`
	Source    string             `json:"source"`
}

func (a *providersAPI) canonicalModelInfo(_ *http.Request, q modelInfoQuery) (reply, error) {
	out := modelInfoResponseWire{Source: "canonical"}
	if info, known := setup.ModelInfo(q.Provider, q.Model); known {
		m := info.Known
		// goosed names the model as asked, not as the catalog knows it.
		out.ModelInfo = &modelInfoDataWire{Provider: q.Provider, Model: q.Model, ContextLimit: m.ContextLimit,
			Reasoning: m.Reasoning, InputTokenCost: m.Cost.Input, OutputTokenCost: m.Cost.Output,
			CacheReadTokenCost: m.Cost.CacheRead, CacheWriteTokenCost: m.Cost.CacheWrite, Currency: catalog.Currency}
		if m.MaxOutput > 0 {
			n := m.MaxOutput
			out.ModelInfo.MaxOutputTokens = &n
		}
	}
	return ok(out), nil
}
