package acp

import (
	"time"

	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/setup"
)

// Wire forms of the provider methods (acp-schema.json's *Dto types).

type configKeyWire struct {
	Name           string  `json:"name"`
	Required       bool    `json:"required"`
	Secret         bool    `json:"secret"`
	Default        *string `json:"default"`
	OAuthFlow      bool    `json:"oauthFlow"`
	DeviceCodeFlow bool    `json:"deviceCodeFlow"`
	Primary        bool    `json:"primary"`
}

type inventoryModelWire struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	ContextLimit *int   `json:"contextLimit"`
	Recommended  bool   `json:"recommended"`
}

type providerEntryWire struct {
	ProviderID           string               `json:"providerId"`
	ProviderName         string               `json:"providerName"`
	Description          string               `json:"description"`
	DefaultModel         string               `json:"defaultModel"`
	Configured           bool                 `json:"configured"`
	Available            bool                 `json:"available"`
	ProviderType         string               `json:"providerType"`
	Category             string               `json:"category"`
	ACP                  bool                 `json:"acp"`
	VisibleInSetup       bool                 `json:"visibleInSetup"`
	Deprecated           bool                 `json:"deprecated"`
	ConfigKeys           []configKeyWire      `json:"configKeys"`
	SetupSteps           []string             `json:"setupSteps"`
	SupportsRefresh      bool                 `json:"supportsRefresh"`
	Refreshing           bool                 `json:"refreshing"`
	Models               []inventoryModelWire `json:"models"`
	LastUpdatedAt        *string              `json:"lastUpdatedAt"`
	LastRefreshAttemptAt *string              `json:"lastRefreshAttemptAt"`
	LastRefreshError     *string              `json:"lastRefreshError"`
	Stale                bool                 `json:"stale"`
}

func configKeysWire(md provider.Metadata) []configKeyWire {
	primary := setup.PrimaryKey(md)
	out := make([]configKeyWire, 0, len(md.ConfigKeys))
	for _, k := range md.ConfigKeys {
		out = append(out, configKeyWire{Name: k.Name, Required: k.Required, Secret: k.Secret, Default: k.Default,
			OAuthFlow: k.OAuth, Primary: k.Name == primary})
	}
	return out
}

// providerEntry is one providers/list entry. Models are the last refresh's
// list when there is one, else the provider's known models; the known
// ones are the recommended ones.
func providerEntry(md provider.Metadata, custom, configured bool, inv setup.Inventory, now time.Time) providerEntryWire {
	typ := "Builtin"
	if custom {
		typ = "Custom"
	}
	e := providerEntryWire{ProviderID: md.Name, ProviderName: md.DisplayName, Description: md.Description,
		DefaultModel: md.DefaultModel, Configured: configured, Available: true, ProviderType: typ, Category: setup.Category(md), VisibleInSetup: true,
		ConfigKeys: configKeysWire(md), SetupSteps: []string{}, SupportsRefresh: true, Refreshing: inv.Refreshing,
		Models: []inventoryModelWire{}, LastUpdatedAt: timeWire(inv.LastUpdated), LastRefreshAttemptAt: timeWire(inv.LastAttempt),
		LastRefreshError: optString(inv.LastError), Stale: configured && inv.Stale(now)}
	known := map[string]int{}
	for _, m := range md.KnownModels {
		known[m.Name] = m.ContextLimit
	}
	names := inv.Models
	if len(names) == 0 {
		for _, m := range md.KnownModels {
			names = append(names, m.Name)
		}
	}
	for _, name := range names {
		m := inventoryModelWire{ID: name, Name: name}
		if limit, ok := known[name]; ok {
			m.Recommended = true
			if limit > 0 {
				m.ContextLimit = &limit
			}
		}
		e.Models = append(e.Models, m)
	}
	return e
}

func timeWire(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

type setupFieldWire struct {
	Key          string  `json:"key"`
	Label        string  `json:"label"`
	Secret       bool    `json:"secret"`
	Required     bool    `json:"required"`
	DefaultValue *string `json:"defaultValue"`
}

type setupCatalogWire struct {
	ProviderID            string           `json:"providerId"`
	Name                  string           `json:"name"`
	Category              string           `json:"category"`
	ACP                   bool             `json:"acp"`
	Description           string           `json:"description"`
	SetupMethod           string           `json:"setupMethod"`
	Fields                []setupFieldWire `json:"fields"`
	DocURL                *string          `json:"docUrl"`
	Group                 string           `json:"group"`
	ShowOnlyWhenInstalled bool             `json:"showOnlyWhenInstalled"`
	Aliases               []string         `json:"aliases"`
	SupportsInstall       bool             `json:"supportsInstall"`
	SupportsAuth          bool             `json:"supportsAuth"`
	SupportsAuthStatus    bool             `json:"supportsAuthStatus"`
}

func setupCatalogEntry(md provider.Metadata) setupCatalogWire {
	e := setupCatalogWire{ProviderID: md.Name, Name: md.DisplayName, Category: setup.Category(md), Description: md.Description,
		SetupMethod: setup.SetupMethod(md), Fields: []setupFieldWire{}, DocURL: optString(md.ModelDocLink),
		Group: "default", Aliases: []string{}}
	for _, k := range md.ConfigKeys {
		e.Fields = append(e.Fields, setupFieldWire{Key: k.Name, Label: k.Name, Secret: k.Secret, Required: k.Required, DefaultValue: k.Default})
	}
	return e
}

type refreshSkipWire struct {
	ProviderID string `json:"providerId"`
	Reason     string `json:"reason"`
}

type refreshWire struct {
	Started []string          `json:"started"`
	Skipped []refreshSkipWire `json:"skipped"`
}

func refreshOf(started []string, skipped []setup.RefreshSkip) refreshWire {
	out := refreshWire{Started: nonNil(started), Skipped: []refreshSkipWire{}}
	for _, sk := range skipped {
		out.Skipped = append(out.Skipped, refreshSkipWire{ProviderID: sk.Provider, Reason: sk.Reason})
	}
	return out
}

type fieldValueWire struct {
	Key      string  `json:"key"`
	Value    *string `json:"value"`
	IsSet    bool    `json:"isSet"`
	IsSecret bool    `json:"isSecret"`
	Required bool    `json:"required"`
}

type configStatusWire struct {
	ProviderID   string `json:"providerId"`
	IsConfigured bool   `json:"isConfigured"`
}

type configChangeWire struct {
	Status  configStatusWire `json:"status"`
	Refresh refreshWire      `json:"refresh"`
}

type secretWire struct {
	ID                  string  `json:"id"`
	Provider            string  `json:"provider"`
	ProviderDisplayName string  `json:"providerDisplayName"`
	Name                string  `json:"name"`
	Storage             string  `json:"storage"`
	ExpiresAt           *string `json:"expiresAt"`
	Status              string  `json:"status"`
	Configured          bool    `json:"configured"`
	HasSecret           bool    `json:"hasSecret"`
	CanDelete           bool    `json:"canDelete"`
	CanConfigure        bool    `json:"canConfigure"`
}
