package deeplink

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Outcome is what the trust gate decides for an extension link.
type Outcome string

const (
	ExtensionAllowed                  Outcome = "EXTENSION_ALLOWED"
	ExtensionUntrustedConfirmRequired Outcome = "EXTENSION_UNTRUSTED_CONFIRM_REQUIRED"
	ExtensionBlocked                  Outcome = "EXTENSION_BLOCKED"
	ExtensionInvalidPayload           Outcome = "EXTENSION_INVALID_PAYLOAD"
)

// Policy is the trust gate's input.
type Policy struct {
	// Warning is GOOSE_ALLOWLIST_WARNING=true: links outside the allowlist
	// need the user's explicit confirmation instead of being blocked.
	Warning bool
	// Allowlist holds the allowed commands / URL prefixes; nil or empty
	// means no allowlist is configured.
	Allowlist []string
	// LoadErr is set when an allowlist is configured but could not be
	// loaded; the gate then fails closed.
	LoadErr error
}

// Gate classifies an extension's command line or URL.
func (p Policy) Gate(command string, remote bool) (Outcome, *Error) {
	if p.LoadErr == nil && len(p.Allowlist) > 0 && p.allows(command, remote) {
		return ExtensionAllowed, nil
	}
	if p.Warning {
		return ExtensionUntrustedConfirmRequired, nil
	}
	if p.LoadErr != nil {
		return ExtensionBlocked, newError(CodeSecurityBlocked, "the extension allowlist could not be loaded, so installation is blocked")
	}
	if len(p.Allowlist) == 0 {
		return ExtensionAllowed, nil
	}
	return ExtensionBlocked, newError(CodeSecurityBlocked, "This extension command is not in the allowed list and its installation is blocked.")
}

func (p Policy) allows(command string, remote bool) bool {
	for _, entry := range p.Allowlist {
		entry = strings.TrimSpace(entry)
		if entry == "" || !strings.HasPrefix(command, entry) {
			continue
		}
		rest := command[len(entry):]
		switch {
		case rest == "":
			return true
		case remote && (strings.HasSuffix(entry, "/") || strings.ContainsAny(rest[:1], "/?#")):
			return true
		case !remote && rest[0] == ' ':
			return true
		}
	}
	return false
}

// Fetcher fetches an HTTPS allowlist document. The CLI supplies one built on
// http.Client with timeouts and a size cap.
type Fetcher func(ctx context.Context, url string) ([]byte, error)

// FileReader reads an allowlist file.
type FileReader func(path string) ([]byte, error)

// ErrAllowlistHTTPS: an http:// allowlist URL is refused.
var ErrAllowlistHTTPS = errors.New("GOOSE_ALLOWLIST must use HTTPS")

// LoadPolicy builds the Policy for GOOSE_ALLOWLIST=source (a file path or
// an https:// URL; "" for none) and GOOSE_ALLOWLIST_WARNING. Load failures
// are recorded in Policy.LoadErr (fail closed), never returned.
func LoadPolicy(ctx context.Context, source string, warning bool, fetch Fetcher, readFile FileReader) Policy {
	p := Policy{Warning: warning}
	source = strings.TrimSpace(source)
	if source == "" {
		return p
	}
	data, err := readAllowlist(ctx, source, fetch, readFile)
	if err == nil {
		p.Allowlist, err = ParseAllowlist(data)
	}
	p.LoadErr = err
	return p
}

func readAllowlist(ctx context.Context, source string, fetch Fetcher, readFile FileReader) ([]byte, error) {
	lower := strings.ToLower(source)
	switch {
	case strings.HasPrefix(lower, "https://"):
		if fetch == nil {
			return nil, errors.New("no fetcher for an HTTPS allowlist")
		}
		return fetch(ctx, source)
	case strings.HasPrefix(lower, "http://"), strings.Contains(lower, "://"):
		return nil, ErrAllowlistHTTPS
	}
	if readFile == nil {
		return nil, errors.New("no file reader for an allowlist file")
	}
	return readFile(source)
}

// ParseAllowlist reads goose's allowlist YAML:
//
//	extensions:
//	  - id: slack
//	    command: uvx mcp_slack
func ParseAllowlist(data []byte) ([]string, error) {
	var doc struct {
		Extensions []struct {
			ID      string `yaml:"id"`
			Command string `yaml:"command"`
		} `yaml:"extensions"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("invalid allowlist YAML: %w", err)
	}
	if doc.Extensions == nil {
		return nil, errors.New("invalid allowlist: missing extensions list")
	}
	out := make([]string, 0, len(doc.Extensions))
	for _, e := range doc.Extensions {
		if c := strings.TrimSpace(e.Command); c != "" {
			out = append(out, c)
		}
	}
	return out, nil
}
