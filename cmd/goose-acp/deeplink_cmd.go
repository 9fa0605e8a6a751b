package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/deeplink"
)

const deeplinkUsage = `Usage: goose-acp deeplink parse [--from argv|second-instance|open-url|open-file] [--allowlist FILE|URL] URL...

Prints one JSON object describing the link; exit 0 when it is valid, 1 when
it is rejected, 2 on usage errors. --from argv and second-instance take the
whole command line (after "--") and use its first goose:// argument; open-file takes a
goose:// link or a recipe file. The allowlist defaults to $GOOSE_ALLOWLIST;
GOOSE_ALLOWLIST_WARNING=true asks for confirmation instead of blocking.
`

// runDeeplink implements `goose-acp deeplink …`; args follow "deeplink".
func runDeeplink(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || args[0] != "parse" {
		fmt.Fprint(stderr, deeplinkUsage)
		return 2
	}
	entry, allowlist, links, err := parseDeeplinkArgs(args[1:], stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "goose-acp deeplink parse: %v\n", err)
		}
		fmt.Fprint(stderr, deeplinkUsage)
		return 2
	}
	if allowlist == "" {
		allowlist = getenv("GOOSE_ALLOWLIST")
	}
	warning := getenv("GOOSE_ALLOWLIST_WARNING") == "true"
	res := classifyLink(ctx, entry, links, allowlist, warning)
	if err := writeJSONLine(stdout, res); err != nil {
		fmt.Fprintf(stderr, "goose-acp deeplink parse: %v\n", err)
		return 1
	}
	if !res.OK {
		return 1
	}
	return 0
}

func classifyLink(ctx context.Context, entry deeplink.Entry, links []string, allowlist string, warning bool) *deeplink.Result {
	link, nerr := deeplink.Normalize(entry, links, os.ReadFile)
	if nerr != nil {
		return &deeplink.Result{Error: nerr}
	}
	res := deeplink.Parse(link, deeplink.Policy{})
	if res.Route == deeplink.RouteExtension && (allowlist != "" || warning) {
		// Only extension links need the (possibly remote) allowlist.
		policy := deeplink.LoadPolicy(ctx, allowlist, warning, fetchAllowlist, os.ReadFile)
		res = deeplink.Parse(link, policy)
	}
	return res
}

// parseDeeplinkArgs accepts flags before or after the link(s). Only the
// command's own flags (--from, --allowlist, --help, with one or two dashes,
// "=value" or a separate value) are flags; any other word is a link, even
// one starting with "-" (a link is never a flag), and "--" still ends the
// flags.
func parseDeeplinkArgs(args []string, stderr io.Writer) (deeplink.Entry, string, []string, error) {
	fs := flag.NewFlagSet("deeplink parse", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	from := fs.String("from", string(deeplink.EntryOpenURL), "entry point")
	allowlist := fs.String("allowlist", "", "allowlist file or https URL")
	var positional, rest []string
	for i, a := range args {
		if a == "--" {
			args, rest = args[:i], args[i+1:]
			break
		}
	}
	for i := 0; i < len(args); i++ {
		name, hasValue := deeplinkFlagName(args[i])
		if name == "" || (fs.Lookup(name) == nil && name != "h" && name != "help") {
			positional = append(positional, args[i])
			continue
		}
		words := args[i : i+1]
		if !hasValue && fs.Lookup(name) != nil && i+1 < len(args) {
			words, i = args[i:i+2], i+1
		}
		if err := fs.Parse(words); err != nil {
			return "", "", nil, err
		}
	}
	positional = append(positional, rest...)
	entry := deeplink.Entry(*from)
	valid := false
	for _, e := range deeplink.Entries {
		valid = valid || e == entry
	}
	switch {
	case !valid:
		return "", "", nil, fmt.Errorf("unknown --from %q", *from)
	case len(positional) == 0:
		return "", "", nil, errors.New("missing URL")
	case len(positional) > 1 && entry != deeplink.EntryArgv && entry != deeplink.EntrySecondInstance:
		return "", "", nil, fmt.Errorf("--from %s takes exactly one URL", entry)
	}
	return entry, *allowlist, positional, nil
}

// deeplinkFlagName returns the flag name a word spells ("-from",
// "--from=x" → "from") and whether it carries its value; "" when the word
// does not look like a flag at all.
func deeplinkFlagName(word string) (string, bool) {
	if len(word) < 2 || word[0] != '-' {
		return "", false
	}
	name := strings.TrimPrefix(strings.TrimPrefix(word, "-"), "-")
	name, _, hasValue := strings.Cut(name, "=")
	return name, hasValue
}

// maxAllowlistBytes caps a fetched allowlist document.
const maxAllowlistBytes = 1 << 20

var allowlistClient = &http.Client{
	Timeout: 15 * time.Second,
	CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("Too many redirects fetching allowlist")
		}
		if req.URL.Scheme != "https" {
			return deeplink.ErrAllowlistHTTPS
		}
		return nil
	},
}

// fetchAllowlist GETs an HTTPS allowlist with a timeout and a size cap.
func fetchAllowlist(ctx context.Context, url string) ([]byte, error) {
	if !strings.HasPrefix(strings.ToLower(url), "https://") {
		return nil, deeplink.ErrAllowlistHTTPS
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("Invalid allowlist URL: %w", err)
	}
	resp, err := allowlistClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch allowlist: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("Allowlist fetch failed: HTTP %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAllowlistBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetch allowlist: %w", err)
	}
	if len(body) > maxAllowlistBytes {
		return nil, errors.New("allowlist is larger than 1 MiB")
	}
	return body, nil
}

// writeJSONLine writes v as one compact JSON line without HTML escaping.
func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
