// Package recipe owns goose's recipe format: the Recipe type (goose's serde
// JSON, field for field and in the same order), loading from YAML or JSON
// (optionally under a top-level "recipe:" key), the Jinja-style templating
// goose uses ({{ param }}, conditionals, loops, {% extends %}/blocks,
// {% include %} and the built-in recipe_dir), goose's validation rules and
// error texts, parameter application for headless runs, and the recipe
// deeplink codec (URL-safe base64 without padding of the compact JSON, with
// goose's legacy forms accepted on decode).
//
// It does no agent work: Build returns a rendered Recipe whose Prompt,
// Instructions, Extensions, Settings, Response and Retry a runner uses;
// RunChecks and RunOnFailure execute a retry block's shell commands with
// goose's timeouts, environment and texts for the agent loop to call.
package recipe
