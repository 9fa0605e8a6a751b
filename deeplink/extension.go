package deeplink

import (
	"net/url"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
)

// AllowedCommands is goose's stdio command allowlist (exact match).
var AllowedCommands = []string{"cu", "docker", "jbang", "npx", "uvx", "goosed", "npx.cmd", "i-ching-mcp-server"}

// ExtensionLink is what a goose://extension link proposes.
type ExtensionLink struct {
	Config            config.ExtensionConfig
	EnvKeys           []string
	InstallationNotes string
	// Command is what the trust gate matches: the URL of a remote
	// extension, else the command line (cmd and args joined by spaces).
	Command string
	Remote  bool
}

// parseExtension builds the ExtensionConfig (deeplink.ts semantics, see the
// package doc for the deliberate differences). A returned *Error has code
// DEEPLINK_INVALID_PAYLOAD or DEEPLINK_SECURITY_BLOCKED.
func parseExtension(q params) (*ExtensionLink, *Error) {
	name, ok := q.get("name")
	if !ok || strings.TrimSpace(name) == "" {
		return nil, newError(CodeInvalidPayload, "Missing required field: name")
	}
	timeout := int64(config.DefaultExtensionTimeout)
	if t, _ := q.get("timeout"); t != "" {
		n, ok := parseIntPrefix(t)
		if !ok || n < 0 {
			return nil, newError(CodeInvalidPayload, "timeout must be a non-negative integer")
		}
		timeout = n
	}
	description, _ := q.get("description")
	notes, _ := q.get("installation_notes")
	ext := &ExtensionLink{EnvKeys: envKeys(q.getAll("env")), InstallationNotes: notes}
	cfg := config.ExtensionConfig{Name: name, Description: description, Timeout: &timeout, EnvKeys: ext.EnvKeys}
	if remote, _ := q.get("url"); remote != "" {
		if !isHTTPURL(remote) {
			return nil, newError(CodeInvalidPayload, "url must be an absolute http or https URL")
		}
		headers, err := parseHeaders(q.getAll("header"))
		if err != nil {
			return nil, err
		}
		cfg.Type, cfg.URI, cfg.Headers = config.ExtensionStreamableHTTP, remote, headers
		ext.Config, ext.Command, ext.Remote = cfg, remote, true
		return ext, nil
	}
	cmd, ok := q.get("cmd")
	if !ok || cmd == "" {
		return nil, newError(CodeInvalidPayload, "extension link needs cmd (stdio) or url (streamable_http)")
	}
	args := q.getAll("arg")
	if err := checkCommand(cmd, args); err != nil {
		return nil, err
	}
	cfg.Type, cfg.Cmd, cfg.Args = config.ExtensionStdio, cmd, normalizeFilesystemArgs(args)
	if cfg.Args == nil {
		cfg.Args = []string{}
	}
	ext.Config = cfg
	ext.Command = strings.TrimSpace(cmd + " " + strings.Join(args, " "))
	return ext, nil
}

// checkCommand applies the command allowlist and the npx -c rule.
func checkCommand(cmd string, args []string) *Error {
	allowed := false
	for _, c := range AllowedCommands {
		allowed = allowed || c == cmd
	}
	if !allowed {
		return newError(CodeSecurityBlocked, "Invalid command: "+cmd+". Only "+strings.Join(AllowedCommands, ", ")+" are allowed.")
	}
	if npxSpellings[cmd] {
		for _, a := range args {
			if isNpxCall(a) {
				return newError(CodeSecurityBlocked, "npx with -c argument can lead to code injection")
			}
		}
	}
	return nil
}

// npxSpellings are the allowlisted names that run npx.
var npxSpellings = map[string]bool{"npx": true, "npx.cmd": true}

// isNpxCall reports npx's --call option in any spelling npm's argument
// parser accepts: "-c", "--call", either with "=value", and a short "-c"
// with its value glued on ("-cevil"). Any single-dash word starting with
// "-c" is refused: npx has no other short option beginning with c.
func isNpxCall(arg string) bool {
	name, _, _ := strings.Cut(arg, "=")
	return name == "--call" || (strings.HasPrefix(arg, "-c") && !strings.HasPrefix(arg, "--"))
}

// envKeys keeps the key before the first "=" of each env item, once, in
// first-seen order; values in links are never trusted.
func envKeys(items []string) []string {
	var keys []string
	seen := map[string]bool{}
	for _, e := range items {
		k, _, _ := strings.Cut(e, "=")
		if k != "" && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// parseHeaders copies deeplink.ts: split on every "=", key is the first
// piece, value the second, percent-decoded once more.
func parseHeaders(items []string) (map[string]string, *Error) {
	if len(items) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(items))
	for _, h := range items {
		parts := strings.Split(h, "=")
		v := ""
		if len(parts) > 1 {
			v = parts[1]
		}
		decoded, err := decodeURIComponent(v)
		if err != nil {
			return nil, newError(CodeInvalidPayload, "header value is not valid percent-encoding")
		}
		if parts[0] == "" {
			return nil, newError(CodeInvalidPayload, "header name is empty")
		}
		out[parts[0]] = decoded
	}
	return out, nil
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// parseIntPrefix is JavaScript's parseInt(s, 10) without the NaN: leading
// whitespace, optional sign, longest digit prefix.
func parseIntPrefix(s string) (int64, bool) {
	s = strings.TrimLeft(s, " \t\n\r\f\v")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var n int64
	digits := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		if n > (1<<62)/10 {
			return 0, false
		}
		n = n*10 + int64(c-'0')
		digits++
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

var legacySamplePaths = map[string]bool{
	"{{WORKING_DIR}}": true, "/path/to/dir1": true, "/path/to/dir2": true,
	"/Users/username/Desktop": true, "/path/to/other/allowed/dir": true,
}

// normalizeFilesystemArgs is goose's normalizeFilesystemInstallArgs: the
// sample directories after @modelcontextprotocol/server-filesystem become
// one {{WORKING_DIR}}.
func normalizeFilesystemArgs(args []string) []string {
	at := -1
	for i, a := range args {
		if strings.HasPrefix(a, "@modelcontextprotocol/server-filesystem") {
			at = i
			break
		}
	}
	if at < 0 {
		return args
	}
	out := append([]string{}, args[:at+1]...)
	placed, others := false, 0
	for _, a := range args[at+1:] {
		if legacySamplePaths[a] {
			if !placed {
				out = append(out, "{{WORKING_DIR}}")
				placed = true
			}
			continue
		}
		out = append(out, a)
		others++
	}
	if !placed && others == 0 {
		out = append(out, "{{WORKING_DIR}}")
	}
	return out
}
