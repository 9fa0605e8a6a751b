package schedule

import (
	"errors"
	"fmt"

	"github.com/goose-acp/goose-acp/core/errkind"
)

// Sentinel kinds callers branch on with errors.Is.
var (
	ErrJobExists   = errkind.New(errkind.Conflict, "job already exists")
	ErrJobNotFound = errkind.New(errkind.NotFound, "job not found")
	ErrInvalidCron = errkind.New(errkind.Invalid, "invalid cron")
	ErrJobRunning  = errkind.New(errkind.Busy, "job is running")
	ErrNotRunning  = errkind.New(errkind.Conflict, "job is not running")
	ErrRecipe      = errkind.New(errkind.Invalid, "recipe load error")
	ErrRunFailed   = errors.New("job run failed")
	ErrClosed      = errkind.New(errkind.Unavailable, "scheduler closed")
)

// Error carries goose's message text and a sentinel kind.
type Error struct {
	Kind error
	msg  string
	err  error
}

func (e *Error) Error() string { return e.msg }

// Is matches the kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

// ErrorKind is the kind of its sentinel.
func (e *Error) ErrorKind() errkind.Kind { return errkind.Of(e.Kind) }

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.err }

func jobExists(id string) error {
	return &Error{Kind: ErrJobExists, msg: fmt.Sprintf("Job ID '%s' already exists.", id)}
}

func jobNotFound(id string) error {
	return &Error{Kind: ErrJobNotFound, msg: fmt.Sprintf("Job ID '%s' not found.", id)}
}
