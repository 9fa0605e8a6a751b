package deeplink

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/goose-acp/goose-acp/core/recipe"
)

// Entry is the platform path a link arrived through.
type Entry string

const (
	EntryArgv           Entry = "argv"
	EntrySecondInstance Entry = "second-instance"
	EntryOpenURL        Entry = "open-url"
	EntryOpenFile       Entry = "open-file"
)

// Entries lists the valid entry points.
var Entries = []Entry{EntryArgv, EntrySecondInstance, EntryOpenURL, EntryOpenFile}

// Normalize turns what an entry point delivers into one goose:// link:
// the first argument whose scheme is goose (in any case, with or without
// "//": see the package doc) for argv and second-instance, the URL for
// open-url, and for open-file either such a link or a recipe file (.yaml,
// .yml, .json), which becomes a goose://recipe link carrying the encoded
// recipe. Parse then classifies every entry's link the same way.
func Normalize(entry Entry, args []string, readFile FileReader) (string, *Error) {
	switch entry {
	case EntryArgv, EntrySecondInstance:
		for _, a := range args {
			if hasGooseScheme(a) {
				return a, nil
			}
		}
		return "", newError(CodeInvalidScheme, "no goose:// link among the arguments")
	case EntryOpenURL:
		if len(args) != 1 {
			return "", newError(CodeParseFailed, "open-url delivers exactly one URL")
		}
		return args[0], nil
	case EntryOpenFile:
		if len(args) != 1 {
			return "", newError(CodeParseFailed, "open-file delivers exactly one path")
		}
		return recipeFileLink(args[0], readFile)
	}
	return "", newError(CodeParseFailed, "unknown entry point")
}

// hasGooseScheme reports whether s names the goose scheme, in any case.
func hasGooseScheme(s string) bool {
	const scheme = "goose:"
	s = strings.TrimLeft(s, " \t\n\r\f\v")
	return len(s) >= len(scheme) && strings.EqualFold(s[:len(scheme)], scheme)
}

func recipeFileLink(path string, readFile FileReader) (string, *Error) {
	if hasGooseScheme(path) {
		return path, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json":
	default:
		return "", newError(CodeUnsupportedRoute, "only recipe files (.yaml, .yml, .json) can be opened")
	}
	if readFile == nil {
		return "", newError(CodeParseFailed, "no file reader for open-file")
	}
	data, err := readFile(path)
	if err != nil {
		return "", newError(CodeParseFailed, "recipe file could not be read")
	}
	r, err := recipe.ValidateTemplate(string(data), filepath.Dir(path))
	if err != nil {
		return "", newError(CodeInvalidPayload, "recipe file is not a valid recipe: "+err.Error())
	}
	link, err := recipe.DeeplinkURL(r)
	if err != nil {
		return "", newError(CodeInvalidPayload, "recipe file could not be encoded")
	}
	return link, nil
}

// Event is one main → renderer dispatch.
type Event struct {
	Name Dispatch
	// Link is the raw link (the payload of add-extension and
	// open-shared-session).
	Link string
	// Result is the link's classification (recipe, parameters and
	// scheduledJob for open-recipe); nil for set-initial-message.
	Result *Result
	// Message is the text of set-initial-message.
	Message string
	Entry   Entry
	At      time.Time
}

// Sink receives dispatched events in order. It must not call back into the
// Router.
type Sink func(Event) error

// Status says what Deliver did with a link.
type Status string

const (
	StatusDispatched Status = "dispatched"
	StatusBuffered   Status = "buffered"
	StatusDuplicate  Status = "duplicate"
	StatusRejected   Status = "rejected"
)

// RouterOptions configure a Router. Zero values: Now is time.Now,
// DedupWindow is 10s, Policy is the zero Policy, ReadFile is nil (open-file
// of recipe files fails).
type RouterOptions struct {
	Sink   Sink
	Policy Policy
	// PolicyFunc, when set, is called for every extension link instead of
	// using Policy (goose re-reads the allowlist on every request).
	PolicyFunc  func() Policy
	Now         func() time.Time
	ReadFile    FileReader
	DedupWindow time.Duration
}

// Router is the single deterministic deep link pipeline: every entry
// point is normalised, parsed and classified the same way; recipe and bot
// links open a chat context at once; extension and
// sessions links wait until the renderer reports ready and are then
// flushed in arrival order; the same link delivered again within the
// dedup window is dropped.
type Router struct {
	mu      sync.Mutex
	opts    RouterOptions
	ready   bool
	pending []Event
	initial []string
	recent  map[string]time.Time
}

// NewRouter returns a Router whose renderer is not ready yet.
func NewRouter(opts RouterOptions) *Router {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.DedupWindow <= 0 {
		opts.DedupWindow = 10 * time.Second
	}
	return &Router{opts: opts, recent: map[string]time.Time{}}
}

// Deliver routes what an entry point delivered.
func (r *Router) Deliver(entry Entry, args []string) (*Result, Status) {
	link, nerr := Normalize(entry, args, r.opts.ReadFile)
	if nerr != nil {
		return (&Result{}).fail(nerr), StatusRejected
	}
	res := Parse(link, r.opts.Policy)
	if res.Route == RouteExtension && r.opts.PolicyFunc != nil {
		res = Parse(link, r.opts.PolicyFunc())
	}
	if !res.OK {
		return res, StatusRejected
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ev := Event{Name: res.Dispatch, Link: link, Result: res, Entry: entry, At: r.opts.Now()}
	if r.isDuplicate(ev) {
		return res, StatusDuplicate
	}
	immediate := res.Route == RouteRecipe || res.Route == RouteBot
	if !immediate && !r.ready {
		r.pending = append(r.pending, ev)
		return res, StatusBuffered
	}
	if err := r.dispatch(ev); err != nil {
		return res.fail(err), StatusRejected
	}
	return res, StatusDispatched
}

// SetInitialMessage queues a set-initial-message for the renderer; it is
// sent at once when the renderer is ready, else first on RendererReady.
func (r *Router) SetInitialMessage(text string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ready {
		r.initial = append(r.initial, text)
		return nil
	}
	if err := r.dispatch(Event{Name: DispatchSetInitialMessage, Message: text, At: r.opts.Now()}); err != nil {
		return err
	}
	return nil
}

// RendererReady is the react-ready signal: initial messages, then buffered
// links in arrival order. Events whose dispatch fails are reported and
// dropped, the rest are still delivered.
func (r *Router) RendererReady() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ready = true
	var errs []error
	for _, m := range r.initial {
		if err := r.dispatch(Event{Name: DispatchSetInitialMessage, Message: m, At: r.opts.Now()}); err != nil {
			errs = append(errs, err)
		}
	}
	pending := r.pending
	r.initial, r.pending = nil, nil
	for _, ev := range pending {
		if err := r.dispatch(ev); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// RendererGone marks the renderer not ready (window closed or reloading);
// later extension and sessions links are buffered again.
func (r *Router) RendererGone() {
	r.mu.Lock()
	r.ready = false
	r.mu.Unlock()
}

// isDuplicate: the same event for the same link was dispatched within the
// window, or is already waiting in the buffer.
func (r *Router) isDuplicate(ev Event) bool {
	key := string(ev.Name) + "\x00" + ev.Link
	for _, p := range r.pending {
		if string(p.Name)+"\x00"+p.Link == key {
			return true
		}
	}
	at, ok := r.recent[key]
	return ok && ev.At.Sub(at) < r.opts.DedupWindow
}

func (r *Router) dispatch(ev Event) *Error {
	if r.opts.Sink == nil {
		return newError(CodeDispatchFailed, "no dispatch sink")
	}
	if err := r.opts.Sink(ev); err != nil {
		return newError(CodeDispatchFailed, "dispatch of "+string(ev.Name)+" failed")
	}
	if ev.Link != "" {
		r.recent[string(ev.Name)+"\x00"+ev.Link] = ev.At
		r.pruneRecent(ev.At)
	}
	return nil
}

func (r *Router) pruneRecent(now time.Time) {
	for k, at := range r.recent {
		if now.Sub(at) >= r.opts.DedupWindow {
			delete(r.recent, k)
		}
	}
}
