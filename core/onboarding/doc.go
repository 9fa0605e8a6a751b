// Package onboarding is goose's first-run import (Desktop's onboarding):
// it finds an existing goose configuration and Claude Desktop's MCP
// servers, counts what they hold, and copies the chosen ones into this
// goose configuration — providers, extensions, secrets and skills — never
// overwriting what is already there.
package onboarding
