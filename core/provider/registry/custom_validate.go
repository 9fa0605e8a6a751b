package registry

import (
	"net/url"
	"strings"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// ErrInvalidCustom wraps every refused custom provider input.
var ErrInvalidCustom = errkind.New(errkind.Invalid, "invalid custom provider")

// Normalize checks and tidies a custom provider as goose's ACP API does
// before it writes one: a known engine, a display name, an http(s) URL,
// an API key when the provider needs one and requireKey is set (creation),
// at least one model, and valid header names and values. Blank models and
// header names are dropped and every value trimmed.
func (in CustomInput) Normalize(requireKey bool) (CustomInput, error) {
	bad := func(format string, args ...any) (CustomInput, error) {
		return CustomInput{}, errkind.Wrapf(ErrInvalidCustom, format, args...)
	}
	engine := strings.ToLower(strings.TrimSpace(in.Engine))
	if _, err := EngineOf(engine); err != nil {
		return bad("Unsupported custom provider engine: %s", engine)
	}
	in.Engine = engine
	if in.DisplayName = strings.TrimSpace(in.DisplayName); in.DisplayName == "" {
		return bad("displayName cannot be empty")
	}
	if in.APIURL = strings.TrimSpace(in.APIURL); in.APIURL == "" {
		return bad("apiUrl cannot be empty")
	}
	u, err := url.Parse(in.APIURL)
	if err != nil || u.Host == "" {
		return bad("apiUrl must be a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return bad("apiUrl must use HTTP or HTTPS")
	}
	in.APIKey = strings.TrimSpace(in.APIKey)
	needsAuth := in.RequiresAuth == nil || *in.RequiresAuth
	if requireKey && needsAuth && in.APIKey == "" {
		return bad("apiKey cannot be empty")
	}
	var models []string
	for _, m := range in.Models {
		if m = strings.TrimSpace(m); m != "" {
			models = append(models, m)
		}
	}
	if len(models) == 0 {
		return bad("models cannot be empty")
	}
	in.Models = models
	headers := map[string]string{}
	for k, v := range in.Headers {
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "" {
			continue
		}
		if !validHeaderName(k) {
			return bad("Invalid header name: %s", k)
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return bad("Invalid header value for: %s", k)
		}
		headers[k] = v
	}
	in.Headers = headers
	if len(headers) == 0 {
		in.Headers = nil
	}
	if in.BasePath != nil {
		if p := strings.TrimSpace(*in.BasePath); p != "" {
			in.BasePath = &p
		} else {
			in.BasePath = nil
		}
	}
	return in, nil
}

// validHeaderName reports whether k is an HTTP token (RFC 9110 tchar).
func validHeaderName(k string) bool {
	for _, r := range k {
		if r > 126 || r <= 32 || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return k != ""
}
