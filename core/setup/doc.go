// Package setup owns first-run provider set-up and the "is a provider
// usable?" decision: what `goose-acp configure` asks for a provider (its
// config keys and where each is already set), the provider's live model
// list, the one tiny completion that tests a configuration, and the write
// (API keys to the OS keyring or secrets.yaml as goose keeps them;
// GOOSE_PROVIDER, GOOSE_MODEL and host settings to config.yaml without
// disturbing the user's other keys). For goose Desktop's settings pages it
// also reads and writes a provider's fields (secrets masked), the default
// provider and model, the stored provider keys, and keeps each provider's
// live model list fetched in the background (RefreshInventory) in memory.
// The ACP adapter asks Status before a
// session starts and on authenticate; IsAuth classifies errors that mean
// "the user must (re)configure a provider". Nothing here prompts, prints
// or knows about terminals.
package setup
