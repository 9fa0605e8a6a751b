// Package catalog is goose-acp's bundled knowledge about LLM services it
// does not build in: provider templates for Goose Desktop's "add a
// provider from the catalog" picker (an OpenAI-, Anthropic- or
// Ollama-compatible service, its URL, key variable, documentation and
// models), and canonical facts about models (context and output limits,
// whether they reason, list prices in US dollars per million tokens) for
// the built-in providers' models and the templates' models.
//
// It is data and pure functions: no network, no config. Facts follow
// goose's bundled model registry (models.dev) where it has the model, the
// vendor's published figures otherwise; a model nobody here knows has no
// entry (Info reports false), never a guess.
package catalog
