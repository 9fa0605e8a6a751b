package deeplink

import (
	"regexp"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/recipe"
)

// Route is a supported goose:// host.
type Route string

const (
	RouteExtension Route = "extension"
	RouteSessions  Route = "sessions"
	RouteRecipe    Route = "recipe"
	RouteBot       Route = "bot"
)

// Dispatch names the renderer event a link leads to.
type Dispatch string

const (
	DispatchAddExtension      Dispatch = "add-extension"
	DispatchOpenSharedSession Dispatch = "open-shared-session"
	DispatchOpenRecipe        Dispatch = "open-recipe"
	DispatchSetInitialMessage Dispatch = "set-initial-message"
)

// Result is the classification of one link; its JSON is the
// `goose-acp deeplink parse` output. Absent fields are omitted.
type Result struct {
	OK                bool                    `json:"ok"`
	Route             Route                   `json:"route,omitempty"`
	Dispatch          Dispatch                `json:"dispatch,omitempty"`
	Outcome           Outcome                 `json:"outcome,omitempty"`
	Extension         *config.ExtensionConfig `json:"extension,omitempty"`
	EnvKeys           []string                `json:"envKeys,omitempty"`
	InstallationNotes string                  `json:"installationNotes,omitempty"`
	ShareToken        string                  `json:"shareToken,omitempty"`
	Config            string                  `json:"config,omitempty"`
	Recipe            *recipe.Recipe          `json:"recipe,omitempty"`
	Parameters        map[string]string       `json:"parameters,omitempty"`
	ScheduledJob      string                  `json:"scheduledJob,omitempty"`
	Error             *Error                  `json:"error,omitempty"`
	// Link is the raw link, the payload of add-extension and
	// open-shared-session events; not part of the CLI output.
	Link string `json:"-"`
}

// Parse classifies raw with the given trust policy. It never panics and
// never fails: problems are reported in Result.Error.
func Parse(raw string, policy Policy) *Result {
	res := &Result{Link: raw}
	l, err := parseLink(raw)
	if err != nil {
		return res.fail(err)
	}
	switch Route(l.host) {
	case RouteExtension:
		res.Route = RouteExtension
		parseExtensionRoute(res, l, policy)
	case RouteSessions:
		res.Route = RouteSessions
		parseSessionsRoute(res, raw)
	case RouteRecipe, RouteBot:
		res.Route = Route(l.host)
		parseRecipeRoute(res, raw, l)
	default:
		return res.fail(newError(CodeUnsupportedRoute, "unsupported goose:// route"))
	}
	return res
}

func (r *Result) fail(err *Error) *Result {
	r.OK, r.Error, r.Dispatch = false, err, ""
	return r
}

func parseExtensionRoute(res *Result, l *link, policy Policy) {
	ext, err := parseExtension(parseParams(l.query))
	if err != nil {
		res.Outcome = ExtensionInvalidPayload
		if err.Code == CodeSecurityBlocked {
			res.Outcome = ExtensionBlocked
		}
		res.fail(err)
		return
	}
	res.Extension, res.EnvKeys, res.InstallationNotes = &ext.Config, ext.EnvKeys, ext.InstallationNotes
	outcome, gateErr := policy.Gate(ext.Command, ext.Remote)
	res.Outcome = outcome
	if gateErr != nil {
		res.fail(gateErr)
		return
	}
	res.OK, res.Dispatch = true, DispatchAddExtension
}

const sessionsPrefix = "goose://sessions/"

// parseSessionsRoute works on the raw string, as goose does: the token is
// everything after the prefix.
func parseSessionsRoute(res *Result, raw string) {
	raw = strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 })
	if len(raw) < len(sessionsPrefix) || !strings.EqualFold(raw[:len(sessionsPrefix)], sessionsPrefix) {
		res.fail(newError(CodeInvalidPayload, "Invalid URL: URL must use the goose://sessions/ scheme"))
		return
	}
	token := raw[len(sessionsPrefix):]
	if strings.TrimSpace(token) == "" || strings.IndexAny(token, "?#") == 0 {
		res.fail(newError(CodeInvalidPayload, "Invalid URL: Missing share token"))
		return
	}
	res.OK, res.Dispatch, res.ShareToken = true, DispatchOpenSharedSession, token
}

var (
	configParamRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[?&]config=([^&]*)`) })
	anyParamRe    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[?&]([^=&]+)=([^&]*)`) })
)

// parseRecipeRoute is main.ts parseRecipeDeeplink plus the recipe decode.
func parseRecipeRoute(res *Result, raw string, l *link) {
	q := parseParams(l.query)
	cfg, _ := q.get("config")
	if cfg != "" && !strings.Contains(raw, cfg) {
		// Form decoding changed it ("+" or "%xx"): re-read the raw value.
		if m := configParamRe().FindStringSubmatch(l.search()); m != nil {
			decoded, err := decodeURIComponent(m[1])
			if err != nil {
				res.fail(newError(CodeParseFailed, "config is not valid percent-encoding"))
				return
			}
			cfg = decoded
		}
	}
	res.Parameters = recipeParameters(l.search())
	res.ScheduledJob, _ = q.get("scheduledJob")
	if cfg == "" {
		res.fail(newError(CodeInvalidPayload, "recipe link has no config"))
		return
	}
	res.Config = cfg
	r, err := recipe.Decode(cfg)
	if err != nil {
		res.fail(newError(CodeInvalidPayload, recipe.ErrDecode.Error()))
		return
	}
	if verr := validateDecoded(r); verr != nil {
		res.Recipe = r
		res.fail(newError(CodeInvalidPayload, "invalid recipe: "+verr.Error()))
		return
	}
	res.Recipe, res.OK, res.Dispatch = r, true, DispatchOpenRecipe
}

// validateDecoded is goosed's /recipes/decode check: recipe → YAML →
// template validation.
func validateDecoded(r *recipe.Recipe) error {
	y, err := recipe.ToYAML(r)
	if err != nil {
		return err
	}
	_, err = recipe.ValidateTemplate(y, "")
	return err
}

// recipeParameters: every key=value in the serialised query except config
// and scheduledJob; keys raw, values decodeURIComponent'd or raw when that
// fails; the last repeat wins; nil when there are none.
func recipeParameters(search string) map[string]string {
	var out map[string]string
	for _, m := range anyParamRe().FindAllStringSubmatch(search, -1) {
		key := m[1]
		if key == "config" || key == "scheduledJob" {
			continue
		}
		v, err := decodeURIComponent(m[2])
		if err != nil {
			v = m[2]
		}
		if out == nil {
			out = map[string]string{}
		}
		out[key] = v
	}
	return out
}
