package errkind

import (
	"context"
	"errors"
	"fmt"
)

// Kind classifies a failure by what the caller can do about it.
type Kind uint8

const (
	// Internal: nothing the caller did; the zero Kind, and Of's answer for
	// an error that carries no kind.
	Internal Kind = iota
	// Invalid: the request itself is wrong (a malformed value, an empty
	// name, a bad cron expression); sending it again will not help.
	Invalid
	// NotFound: the request names something that does not exist.
	NotFound
	// Conflict: the target's current state forbids the request (the job
	// already exists, no run is active, the mode does not allow it).
	Conflict
	// Busy: the target is doing something else right now (a turn is
	// running); the same request may succeed later.
	Busy
	// NotReady: something the request depends on is not set up in this
	// process (the session is not loaded, the agent has no provider).
	NotReady
	// AuthRequired: credentials are missing or were rejected.
	AuthRequired
	// Unavailable: goose-acp does not offer this here (a goose feature it
	// does not ship, a closed agent or scheduler).
	Unavailable
	// TooNew: stored data was written by a newer program than this one.
	TooNew
	// Timeout: the operation ran out of time.
	Timeout
	// Cancelled: the caller cancelled the operation.
	Cancelled
)

var names = [...]string{
	Internal: "internal", Invalid: "invalid", NotFound: "not found", Conflict: "conflict",
	Busy: "busy", NotReady: "not ready", AuthRequired: "auth required",
	Unavailable: "unavailable", TooNew: "too new", Timeout: "timeout", Cancelled: "cancelled",
}

func (k Kind) String() string {
	if int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// kinded is what Of looks for; any error type may implement it.
type kinded interface{ ErrorKind() Kind }

// sentinel is an error made by New.
type sentinel struct {
	kind Kind
	msg  string
}

func (e *sentinel) Error() string   { return e.msg }
func (e *sentinel) ErrorKind() Kind { return e.kind }

// New returns a sentinel error of kind k whose text is msg. Each call
// returns a distinct error, for errors.Is.
func New(k Kind, msg string) error { return &sentinel{kind: k, msg: msg} }

// detailed is an error with a detail that reads on its own.
type detailed struct {
	kind     Kind
	sentinel error // nil for Errorf
	detail   error
}

func (e *detailed) Error() string {
	if e.sentinel == nil {
		return e.detail.Error()
	}
	return e.sentinel.Error() + ": " + e.detail.Error()
}

func (e *detailed) ErrorKind() Kind { return e.kind }

func (e *detailed) Unwrap() []error {
	if e.sentinel == nil {
		return []error{e.detail}
	}
	return []error{e.sentinel, e.detail}
}

// Wrapf returns an error that is sentinel (errors.Is), has sentinel's kind,
// reads "<sentinel>: <detail>", and whose Detail is the formatted detail
// alone. format may use %w; the wrapped errors are found through it too.
// Use it when the detail is a whole sentence for a person ("Session name
// cannot be empty"); wrap with fmt.Errorf when the sentinel's text is part
// of the message ("session not found: 42").
func Wrapf(sentinel error, format string, args ...any) error {
	return &detailed{kind: Of(sentinel), sentinel: sentinel, detail: fmt.Errorf(format, args...)}
}

// Errorf returns an error of kind k whose text and Detail are the
// formatted message. format may use %w.
func Errorf(k Kind, format string, args ...any) error {
	return &detailed{kind: k, detail: fmt.Errorf(format, args...)}
}

// Of returns the kind of the outermost error in err's chain that has one.
// context.Canceled is Cancelled and context.DeadlineExceeded is Timeout
// unless an error above them says otherwise; everything else is Internal.
func Of(err error) Kind {
	var k kinded
	switch {
	case err == nil:
		return Internal
	case errors.As(err, &k):
		return k.ErrorKind()
	case errors.Is(err, context.Canceled):
		return Cancelled
	case errors.Is(err, context.DeadlineExceeded):
		return Timeout
	}
	return Internal
}

// Is reports whether err's kind is k.
func Is(err error, k Kind) bool { return err != nil && Of(err) == k }

// Detail returns what a person should read about err: the detail of the
// outermost Wrapf or Errorf error in its chain, or else err's whole text.
// Context that wrappers above a detail add is for logs, not for the
// person.
func Detail(err error) string {
	if err == nil {
		return ""
	}
	var d *detailed
	if errors.As(err, &d) {
		return d.detail.Error()
	}
	return err.Error()
}
