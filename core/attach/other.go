package attach

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// FetchLinksKey is the setting (environment variable or config.yaml key)
// that allows attaching http(s) links by fetching them; off by default, so
// a prompt never makes a network request the user did not ask for.
const FetchLinksKey = "GOOSE_ACP_FETCH_LINKS"

// FetchTimeout bounds one fetch (the turn's cancel stops it sooner).
const FetchTimeout = 15 * time.Second

var defaultHTTP = &http.Client{Timeout: FetchTimeout}

// other attaches a link that is not file://: an http(s) page when allowed,
// else a note naming the link and why its content is not available.
func other(ctx context.Context, name, uri string, o Options) Result {
	u, err := url.Parse(uri)
	scheme := ""
	if err == nil {
		scheme = strings.ToLower(u.Scheme)
	}
	switch {
	case scheme == "http" || scheme == "https":
		if !o.FetchHTTP {
			return noteResult(name, uri, fmt.Errorf("http(s) links are not fetched (set %s=true to allow it)", FetchLinksKey))
		}
		text, truncated, err := fetch(ctx, o.HTTP, uri)
		if err != nil {
			return noteResult(name, uri, err)
		}
		return Result{Text: section(uri, text, truncated)}
	case scheme == "":
		return noteResult(name, uri, errors.New("it is not a URI goose-acp can open, so its content is not available"))
	}
	prefix := scheme + ":"
	if strings.HasPrefix(uri[len(scheme)+1:], "//") {
		prefix += "//"
	}
	return noteResult(name, uri, fmt.Errorf("goose-acp cannot open %s links, so its content is not available", prefix))
}

// fetch GETs uri, keeping at most MaxLinkedFileBytes of a text answer.
func fetch(ctx context.Context, c *http.Client, uri string) (string, bool, error) {
	if c == nil {
		c = defaultHTTP
	}
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri, nil)
	if err != nil {
		return "", false, fmt.Errorf("fetching it failed: %w", err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", false, fmt.Errorf("fetching it failed: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", false, fmt.Errorf("fetching it failed: HTTP %s", resp.Status)
	}
	if ct := resp.Header.Get("Content-Type"); !textual(ct) {
		return "", false, fmt.Errorf("it is %s, not text", ct)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxLinkedFileBytes+1))
	if err != nil {
		return "", false, fmt.Errorf("fetching it failed: %w", err)
	}
	text, truncated := string(body), len(body) > MaxLinkedFileBytes
	if truncated {
		text = text[:MaxLinkedFileBytes]
	}
	if binary(text) {
		return "", false, errors.New("it is binary (it has NUL bytes), not text")
	}
	return text, truncated, nil
}

// textual reports whether a Content-Type is text a model can read; no
// type at all is taken as text (the NUL check still applies).
func textual(ct string) bool {
	if ct == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return strings.HasPrefix(mt, "text/") || strings.HasSuffix(mt, "+json") || strings.HasSuffix(mt, "+xml") ||
		mt == "application/json" || mt == "application/xml" || mt == "application/javascript" || mt == "application/x-yaml"
}
