// Package model owns ModelConfig (goose's model_config JSON, stored with each
// session) and the model registry: context limits by model name with the
// GOOSE_CONTEXT_LIMIT and per-model overrides goose honours.
package model
