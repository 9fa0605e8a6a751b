// Package deeplink parses and classifies goose:// links as goose Desktop
// does: goose://extension, goose://sessions/{token}, goose://recipe and its
// alias goose://bot.
//
// It is pure: no network, no files, no processes. It builds the
// ExtensionConfig an extension link proposes (core/config's type), applies
// the stdio command allowlist, the npx -c rule and the GOOSE_ALLOWLIST
// trust gate (the allowlist itself is loaded through an injected fetcher),
// decodes recipe links with core/recipe's codec, and routes links from
// every entry point (startup argv, second instance, open-url, open-file)
// through one deterministic pipeline (Router) with renderer-ready
// buffering and idempotent delivery. Installing anything is the caller's
// job and must go through the user's confirmation; nothing here runs a
// command. Of ours it imports only core/config and core/recipe.
//
// Where goose's Desktop is silent, inconsistent or unsafe, the choices made
// here (precedence of url over cmd, timeouts, the npx --call family, a
// case-insensitive scheme, whole-word allowlist matches, failing closed
// when a configured allowlist cannot be loaded, no secrets in errors) are
// listed in docs/deeplink.md.
package deeplink
