// Package registry builds providers from goose's configuration: the
// built-in backends and OpenAI-compatible presets, declarative custom
// providers from <config>/custom_providers/*.json, GOOSE_PROVIDER /
// GOOSE_MODEL selection, per-session overrides (Create), and the
// lead/worker wrapper (GOOSE_LEAD_MODEL, GOOSE_LEAD_TURNS, …). Every
// provider it returns is wrapped with retry and the idle-stream watchdog.
// Settings are read env-first, then from the config store, as goose does;
// secrets come from the environment or the injected secret store and never
// appear in errors or logs.
package registry
