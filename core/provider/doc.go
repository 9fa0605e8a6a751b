// Package provider owns the LLM Provider interface and what is common to
// every backend: request and chunk types, typed errors the agent loop acts on
// (context length → compaction), retry with backoff, usage accounting and
// token estimates. Each backend lives in its own subpackage and is the only
// importer of its SDK; the registry subpackage builds them from config.
package provider
