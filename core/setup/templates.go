package setup

import (
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/provider/catalog"
)

// Categories of goose's provider setup catalog.
const (
	// CategoryModel is a provider that serves models.
	CategoryModel = "model"
	// CategoryAgent is an ACP agent used as a provider; goose-acp has none.
	CategoryAgent = "agent"
)

// Category is md's setup category: every provider goose-acp can run
// (built in or custom) serves models.
func Category(provider.Metadata) string { return CategoryModel }

// CatalogProviders lists the catalog's provider templates of format (""
// for every format; goose's names, "openai_compatible" too), leaving out
// the providers this Setup already has under the same name.
func (s *Setup) CatalogProviders(format string) ([]catalog.Provider, error) {
	names := map[string]bool{}
	for _, md := range s.Providers() {
		names[md.Name] = true
	}
	return catalog.Providers(format, func(id string) bool { return names[id] })
}

// CatalogTemplate is one catalog provider's template.
func CatalogTemplate(id string) (catalog.Provider, error) { return catalog.Template(id) }

// ModelInfo is what is known about a provider's model: context and output
// limits, whether it reasons, list prices. false when nobody here knows it.
func ModelInfo(providerName, model string) (catalog.Info, bool) {
	return catalog.Lookup(providerName, model)
}
