// Package deeplink parses and classifies goose:// links (seed 003, goose
// desktop semantics): goose://extension, goose://sessions/{token},
// goose://recipe and its alias goose://bot.
//
// It is pure: no network, no files, no processes. It builds the
// ExtensionConfig an extension link proposes, applies the stdio command
// allowlist, the npx -c rule and the GOOSE_ALLOWLIST trust gate (the
// allowlist itself is loaded through an injected fetcher), decodes recipe
// links with core/recipe's codec, and routes links from every entry point
// (startup argv, second instance, open-url, open-file) through one
// deterministic pipeline (Router) with renderer-ready buffering and
// idempotent delivery. Installing anything is the caller's job and must go
// through the user's confirmation; nothing here runs a command.
//
// Documented choices where goose's desktop is silent, inconsistent or
// unsafe:
//   - url wins over cmd when both are given (goose's precedence); cmd and
//     arg are then ignored.
//   - env keys become the config's env_keys (values are never taken from a
//     link) and are echoed as envKeys.
//   - timeout keeps JavaScript parseInt prefix semantics ("30s" is 30) but a
//     value with no leading digits, or a negative one, is an invalid payload
//     (goose silently stores NaN); 0 is valid, as goose accepts it.
//   - The npx -c rule covers npx's whole --call family ("-c", "--call",
//     "-c=…", "--call=…", "-cvalue") for every npx spelling on the
//     allowlist ("npx", "npx.cmd"); goose checked only "npx" and "-c".
//   - The scheme is case-insensitive (RFC 3986 §3.1; URL parsers lower-case
//     it), everywhere: every entry point takes the first argument whose
//     scheme is goose in any case, with or without "//", and Parse
//     classifies it, so GOOSE://x, Goose://x and goose:x get the same result
//     from argv, second-instance, open-url and open-file. Route hosts stay
//     case-sensitive (goose compares them exactly).
//   - goose://sessions/ with nothing before a "?" or "#" is a missing share
//     token, not a token "?x=1".
//   - url must be an absolute http(s) URL (seed 003 §9).
//   - Trust gate: an allowlisted command is allowed even in warning mode;
//     anything else is "confirm required" when GOOSE_ALLOWLIST_WARNING=true
//     and blocked otherwise; no allowlist configured means allowed (or
//     confirm required in warning mode). An allowlist entry matches a whole
//     command word prefix ("npx foo" admits "npx foo --x" but not
//     "npx foo-evil") or a URL prefix ending at "/", "?", "#" or the end;
//     goose's plain prefix match admitted look-alikes. A configured
//     allowlist that cannot be loaded blocks (goose failed open).
//   - Error messages never quote header values, env values, share tokens
//     or URLs.
package deeplink
