package deeplink

import (
	"strings"
	"unicode/utf8"
)

// link is a goose: URL split the way the WHATWG URL parser splits a
// non-special scheme: the host is opaque (case and escapes kept), and the
// query is serialised with the query percent-encode set.
type link struct {
	scheme   string // lower-cased
	hasHost  bool   // "//" authority present
	host     string
	path     string
	query    string // without "?"; hasQuery tells empty from absent
	hasQuery bool
}

// search is URL.search: "" when the query is absent or empty.
func (l *link) search() string {
	if l.query == "" {
		return ""
	}
	return "?" + l.query
}

// maxLinkLen bounds the input so hostile links cannot cost much.
const maxLinkLen = 1 << 20

// parseLink parses raw like new URL(raw) for a non-special scheme.
func parseLink(raw string) (*link, *Error) {
	if len(raw) > maxLinkLen {
		return nil, newError(CodeParseFailed, "link is too long")
	}
	s := toUSV(raw)
	s = strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
	s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	scheme, rest, ok := splitScheme(s)
	if !ok {
		return nil, newError(CodeParseFailed, "not an absolute URL")
	}
	if scheme != "goose" {
		return nil, newError(CodeInvalidScheme, "link must use the goose:// scheme")
	}
	l := &link{scheme: scheme}
	rest, l.query, l.hasQuery = cutQuery(rest)
	if strings.HasPrefix(rest, "//") {
		l.hasHost = true
		auth := rest[2:]
		if i := strings.IndexByte(auth, '/'); i >= 0 {
			auth, l.path = auth[:i], auth[i:]
		}
		host, err := parseOpaqueHost(auth)
		if err != nil {
			return nil, err
		}
		l.host = host
	} else {
		l.path = rest
	}
	l.query = encodeQuery(l.query)
	return l, nil
}

func splitScheme(s string) (string, string, bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", "", false
	}
	for k := 0; k < i; k++ {
		c := s[k]
		alpha := ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
		if !alpha && (k == 0 || !(('0' <= c && c <= '9') || c == '+' || c == '-' || c == '.')) {
			return "", "", false
		}
	}
	return strings.ToLower(s[:i]), s[i+1:], true
}

// cutQuery drops the fragment and splits off the query.
func cutQuery(s string) (rest, query string, hasQuery bool) {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	rest, query, hasQuery = strings.Cut(s, "?")
	return rest, query, hasQuery
}

// parseOpaqueHost handles userinfo, port and the opaque-host rules.
func parseOpaqueHost(auth string) (string, *Error) {
	hadUser := false
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		auth, hadUser = auth[i+1:], true
	}
	host := auth
	if i := strings.LastIndexByte(auth, ':'); i >= 0 && !strings.HasPrefix(auth, "[") {
		host = auth[:i]
		for _, c := range auth[i+1:] {
			if c < '0' || c > '9' {
				return "", newError(CodeParseFailed, "invalid port")
			}
		}
		if host == "" && auth[i+1:] != "" {
			return "", newError(CodeParseFailed, "port without host")
		}
	}
	if hadUser && host == "" {
		return "", newError(CodeParseFailed, "credentials without host")
	}
	if strings.HasPrefix(host, "[") {
		return "", newError(CodeParseFailed, "IP literal hosts are not goose routes")
	}
	var b strings.Builder
	for i := 0; i < len(host); {
		r, size := utf8.DecodeRuneInString(host[i:])
		if strings.ContainsRune("\x00 #/:<>?@[\\]^|", r) {
			return "", newError(CodeParseFailed, "forbidden character in host")
		}
		if r < 0x20 || r > 0x7e {
			percentEncode(&b, host[i:i+size])
		} else {
			b.WriteRune(r)
		}
		i += size
	}
	return b.String(), nil
}

// encodeQuery applies the query percent-encode set (C0, space, ", #, <, >
// and non-ASCII), as URL.search does.
func encodeQuery(q string) string {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c <= 0x20 || c == '"' || c == '#' || c == '<' || c == '>' || c > 0x7e {
			percentEncode(&b, q[i:i+1])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func percentEncode(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		b.WriteByte('%')
		b.WriteByte(hex[s[i]>>4])
		b.WriteByte(hex[s[i]&15])
	}
}
