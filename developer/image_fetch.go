package developer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// goose's read_image fetch limits.
const (
	maxImageBytes  = 20 << 20
	fetchTimeout   = 30 * time.Second
	maxImageRedirs = 5
	imageUserAgent = "goose-acp/" + Version
)

// errBlockedAddr marks a connection refused by the SSRF guard.
var errBlockedAddr = errors.New("non-public address")

// blockedPrefixes are non-public ranges netip's predicates do not cover:
// CGNAT, IETF protocol assignments, benchmarking, documentation.
var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("255.255.255.255/32"),
	netip.MustParsePrefix("2001:db8::/32"),
}

// publicAddr is goose's SSRF rule: loopback, private, link-local (incl.
// cloud metadata 169.254.169.254), unspecified, multicast, broadcast,
// documentation and the special ranges above are refused.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range blockedPrefixes {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// imageFetcher downloads images over http(s), checking every address it
// actually connects to (literal hosts, each DNS answer, every redirect).
type imageFetcher struct {
	allow func(netip.Addr) bool
}

func (f imageFetcher) client() *http.Client {
	dialer := &net.Dialer{
		Timeout: fetchTimeout,
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !f.allow(ap.Addr()) {
				return errBlockedAddr
			}
			return nil
		},
	}
	transport := &http.Transport{DialContext: dialer.DialContext, Proxy: nil, TLSHandshakeTimeout: 10 * time.Second}
	return &http.Client{
		Timeout:   fetchTimeout,
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxImageRedirs {
				return redirectError{"too many redirects while fetching image (max 5)"}
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return redirectError{fmt.Sprintf("refusing to follow redirect to %s scheme", req.URL.Scheme)}
			}
			return nil
		},
	}
}

// fetch returns the body of an http(s) image URL, at most 20 MiB.
func (f imageFetcher) fetch(ctx context.Context, raw string) ([]byte, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("invalid image URL %q", raw)
	}
	blocked := fmt.Errorf("refusing to fetch image from non-public address for host %s: loopback, private, link-local, and cloud-metadata targets are blocked", u.Hostname())
	if a, err := netip.ParseAddr(u.Hostname()); err == nil && !f.allow(a) {
		return nil, blocked
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("invalid image URL %q: %w", raw, err)
	}
	req.Header.Set("User-Agent", imageUserAgent)
	resp, err := f.client().Do(req)
	if errors.Is(err, errBlockedAddr) {
		return nil, blocked
	}
	var re redirectError
	if errors.As(err, &re) {
		return nil, re
	}
	if err != nil {
		return nil, fmt.Errorf("failed to fetch image: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("failed to fetch image: HTTP status %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxImageBytes+1))
	if err != nil {
		return nil, fmt.Errorf("failed to fetch image: %w", err)
	}
	if len(body) > maxImageBytes {
		n := max(resp.ContentLength, int64(len(body)))
		return nil, fmt.Errorf("image is too large: %d bytes exceeds %d byte limit", n, maxImageBytes)
	}
	return body, nil
}

// redirectError is a refused redirect, reported with goose's text.
type redirectError struct{ msg string }

func (e redirectError) Error() string { return e.msg }
